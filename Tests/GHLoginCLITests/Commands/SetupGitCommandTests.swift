import Foundation
import Testing

import GHLoginTestSupport
@testable import GHLoginCLI

/// `ghlogin setup-git` in-process, running the real `git config --global` against a private
/// `GIT_CONFIG_GLOBAL` file.
@Suite struct SetupGitCommandTests {
  static let ours = "!'/usr/local/bin/ghlogin' git-credential"

  let fixture: StoreFixture
  let gitConfig: String

  init() throws {
    fixture = try StoreFixture()
    gitConfig = fixture.temporary.at("gitconfig")
  }

  var variables: [String: String] {
    [
      "HOME": fixture.home, "GIT_CONFIG_GLOBAL": gitConfig, "GIT_CONFIG_NOSYSTEM": "1",
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
    ]
  }

  /// Runs `ghlogin ARGUMENTS` as if the binary were at `executable`.
  func run(
    _ arguments: [String], executable: String = "/usr/local/bin/ghlogin", variables extra: [String: String] = [:]
  )
    -> CommandRun
  {
    let out = BufferOutput()
    let err = BufferOutput()
    let environment = Environment(
      arguments: arguments, variables: EnvironmentVariables(variables.merging(extra) { $1 }), stdout: out, stderr: err,
      stdin: BufferInput(), clock: ManualClock(), browser: RecordingBrowser(), transport: { _ in NoNetwork() },
      executablePath: executable)
    return CommandRun(status: GHLogin.main(environment: environment), stdout: out.text, stderr: err.text)
  }

  /// The values of `credential.https://HOST.helper` in the global file, read by git itself.
  func helpers(_ host: String, file: String? = nil) throws -> [String] {
    let git = try #require(Subprocess.find("git", path: variables["PATH"]))
    let result = try Subprocess.run(
      git, ["config", "--file", file ?? gitConfig, "-z", "--get-all", "credential.https://\(host).helper"],
      environment: variables)
    guard result.status == 0 else { return [] }
    return result.stdout.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  func addHelper(_ host: String, _ value: String) throws {
    let git = try #require(Subprocess.find("git", path: variables["PATH"]))
    let result = try Subprocess.run(
      git, ["config", "--file", gitConfig, "--add", "credential.https://\(host).helper", value], environment: variables)
    #expect(result.status == 0)
  }

  @Test func resetsThenAddsTheHelperForTheHost() throws {
    let result = run(["setup-git"])
    #expect(result.status == .success)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "Configured git to use ghlogin for https://github.com\nNot logged in to github.com yet: run 'ghlogin auth --host github.com'\n"
    )
    #expect(try helpers("github.com") == ["", Self.ours])
  }

  @Test func isIdempotentAndReplacesOtherHelpersForThatHostOnlyWithForce() throws {
    try addHelper("github.com", "!gh auth git-credential")
    let before = readFile(gitConfig)
    let refused = run(["setup-git"])
    #expect(refused.status == .usage)
    #expect(
      refused.stderr
        == "ghlogin: git's credential.https://github.com.helper is '!gh auth git-credential', another "
        + "program's credential helper; nothing was changed. To replace it with ghlogin, run 'ghlogin setup-git --force'\n"
    )
    #expect(readFile(gitConfig) == before)
    #expect(run(["setup-git", "--force"]).status == .success)
    #expect(run(["setup-git"]).status == .success)
    #expect(try helpers("github.com") == ["", Self.ours])
  }

  @Test func normalisesTheHostAndKeepsItsPort() throws {
    #expect(run(["setup-git", "--host", "GHE.Example.com:8443"]).status == .success)
    #expect(try helpers("ghe.example.com:8443") == ["", Self.ours])
    #expect(try helpers("github.com").isEmpty)
  }

  @Test func refusesAnInvalidHost() throws {
    let result = run(["setup-git", "--host", "evil.test/github.com"])
    #expect(result.status == .usage)
    #expect(linkStatus(gitConfig) == nil)
  }

  @Test func configuresEveryHostWithALoginWhenNoneIsChosen() throws {
    var credentials = sampleCredentials(host: "github.com", sampleCredential())
    credentials.save(sampleCredential("hubot"), on: "ghe.example.com")
    try fixture.store().update { $0 = credentials }
    let result = run(["setup-git"])
    #expect(result.status == .success)
    #expect(
      result.stderr
        == "Configured git to use ghlogin for https://ghe.example.com\nConfigured git to use ghlogin for https://github.com\n"
    )
    #expect(try helpers("github.com") == ["", Self.ours])
    #expect(try helpers("ghe.example.com") == ["", Self.ours])
    // GH_HOST narrows it to one.
    #expect(run(["setup-git", "--unset"], variables: ["GH_HOST": "ghe.example.com"]).status == .success)
    #expect(try helpers("ghe.example.com").isEmpty)
    #expect(try helpers("github.com") == ["", Self.ours])
  }

  @Test func quotesAPathWithSpacesAndQuotes() throws {
    #expect(run(["setup-git"], executable: "/opt/my tools/it's/ghlogin").status == .success)
    #expect(try helpers("github.com") == ["", "!'/opt/my tools/it'\\''s/ghlogin' git-credential"])
  }

  @Test(arguments: ["ghlogin", "./ghlogin", "/opt/gh\nlogin", ""])
  func refusesAnExecutablePathItCannotWrite(_ path: String) throws {
    let result = run(["setup-git"], executable: path)
    #expect(result.status == .usage)
    #expect(result.stderr.hasPrefix("ghlogin setup-git: cannot tell the absolute path of ghlogin"))
    #expect(linkStatus(gitConfig) == nil)
  }

  @Test func unsetRemovesOurEntriesAndTheResetWhenNothingElseIsLeft() throws {
    #expect(run(["setup-git"]).status == .success)
    try addHelper("github.com", "!'/old/place/ghlogin' git-credential")
    let result = run(["setup-git", "--unset"])
    #expect(result.status == .success)
    #expect(result.stderr == "Removed ghlogin from git's credential helpers for https://github.com\n")
    #expect(try helpers("github.com").isEmpty)
    // Again: nothing left to remove, still fine.
    #expect(run(["setup-git", "--unset"]).status == .success)
  }

  @Test func unsetKeepsOtherHelpersAndTheResetThatGuardsThem() throws {
    #expect(run(["setup-git"]).status == .success)
    try addHelper("github.com", "!gh auth git-credential")
    #expect(run(["setup-git", "--unset"]).status == .success)
    #expect(try helpers("github.com") == ["", "!gh auth git-credential"])
  }

  @Test func withoutGitConfigGlobalItWritesHOMEsGitconfig() throws {
    var plain = variables
    plain["GIT_CONFIG_GLOBAL"] = nil
    let out = BufferOutput()
    let environment = Environment(
      arguments: ["setup-git"], variables: EnvironmentVariables(plain), stdout: out, stderr: BufferOutput(),
      stdin: BufferInput(),
      clock: ManualClock(), browser: RecordingBrowser(), transport: { _ in NoNetwork() },
      executablePath: "/usr/local/bin/ghlogin")
    #expect(GHLogin.main(environment: environment) == .success)
    #expect(try helpers("github.com", file: fixture.home + "/.gitconfig") == ["", Self.ours])
  }

  @Test func withoutGitOnPATHItSaysSo() throws {
    let result = run(["setup-git"], variables: ["PATH": fixture.temporary.path])
    #expect(result.status == .failure)
    #expect(result.stderr == "ghlogin: git was not found on PATH; install git, then run this again\n")
  }
}
