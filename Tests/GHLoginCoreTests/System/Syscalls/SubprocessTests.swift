import Foundation
import GHLoginTestSupport
import Glibc
import Testing

@testable import GHLoginCore

/// Running a program without a shell, and finding the running executable.
@Suite struct SubprocessTests {
  @Test func findsAProgramOnTheGivenPATHOnly() throws {
    let directory = try TemporaryDirectory()
    try writeFile(directory.at("tool"), "#!/bin/sh\n", mode: 0o700)
    try writeFile(directory.at("plain"), "not executable", mode: 0o600)
    try makeDirectory(directory.at("dir"), mode: 0o700)
    #expect(Subprocess.find("tool", path: "/nonexistent:" + directory.path) == directory.at("tool"))
    #expect(Subprocess.find("plain", path: directory.path) == nil)
    #expect(Subprocess.find("dir", path: directory.path) == nil)
    #expect(Subprocess.find("tool", path: "/usr/bin") == nil)
    // Relative and empty entries (the current directory) are never searched.
    #expect(Subprocess.find("sh", path: ":.:bin") == nil)
    #expect(Subprocess.find("sh", path: nil) != nil)
  }

  @Test func runsWithArgumentsAsWordsAndCollectsBothStreams() throws {
    let sh = try #require(Subprocess.find("sh", path: "/usr/bin:/bin"))
    let result = try Subprocess.run(
      sh, ["-c", "printf '%s|' \"$@\"; printf 'err:%s' \"$ONLY\" >&2; exit 3", "sh", "a b", "$HOME", "'"],
      environment: ["ONLY": "this"])
    #expect(result.status == 3)
    #expect(String(decoding: result.stdout, as: UTF8.self) == "a b|$HOME|'|")
    #expect(String(decoding: result.stderr, as: UTF8.self) == "err:this")
  }

  @Test func theChildGetsExactlyTheGivenEnvironmentAndNoStdin() throws {
    let sh = try #require(Subprocess.find("sh", path: "/usr/bin:/bin"))
    let result = try Subprocess.run(sh, ["-c", "env | sort; cat"], environment: ["A": "1", "B": "x y"])
    let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("PWD=") }
    #expect(lines == ["A=1", "B=x y"])
  }

  @Test func aLargeOutputOnBothStreamsDoesNotDeadlock() throws {
    let sh = try #require(Subprocess.find("sh", path: "/usr/bin:/bin"))
    let result = try Subprocess.run(
      sh, ["-c", "head -c 300000 /dev/zero; head -c 300000 /dev/zero >&2; head -c 300000 /dev/zero"],
      environment: [:])
    #expect(result.status == 0)
    #expect(result.stdout.count == 600_000)
    #expect(result.stderr.count == 300_000)
  }

  @Test func aMissingProgramThrows() {
    #expect(throws: SystemError(call: "posix_spawn", errno: ENOENT)) {
      try Subprocess.run("/nonexistent/program", [], environment: [:])
    }
  }

  @Test func aSignalIsReportedAs128PlusItsNumber() throws {
    let sh = try #require(Subprocess.find("sh", path: "/usr/bin:/bin"))
    #expect(try Subprocess.run(sh, ["-c", "kill -TERM $$"], environment: [:]).status == 128 + SIGTERM)
  }

  @Test func absolutePathsAreNormalisedLexically() {
    #expect(ExecutablePath.absolute("./bin/ghlogin", currentDirectory: "/home/me") == "/home/me/bin/ghlogin")
    #expect(ExecutablePath.absolute("/usr//local/./bin/ghlogin") == "/usr/local/bin/ghlogin")
    #expect(ExecutablePath.absolute("../x/ghlogin", currentDirectory: "/a/b") == "/a/b/../x/ghlogin")
    #expect(ExecutablePath.absolute("ghlogin", currentDirectory: nil) == nil)
  }

  @Test func theRunningExecutableIsFoundWhateverArgument0Says() throws {
    let running = try #require(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    // The real path, as given.
    #expect(ExecutablePath.resolve(argument0: running, path: nil) == running)
    // A symbolic link to it is kept as the user ran it.
    let directory = try TemporaryDirectory()
    let link = directory.at("linked")
    #expect(symlink(running, link) == 0)
    #expect(ExecutablePath.resolve(argument0: link, path: nil) == link)
    // Found along PATH by name.
    #expect(ExecutablePath.resolve(argument0: "linked", path: "/nonexistent:" + directory.path) == link)
    // Something else with that name is not taken for it: /proc/self/exe wins.
    try writeFile(directory.at("other"), "#!/bin/sh\n", mode: 0o700)
    #expect(ExecutablePath.resolve(argument0: "other", path: directory.path) == running)
    #expect(ExecutablePath.resolve(argument0: "nothing-here", path: directory.path) == running)
  }
}
