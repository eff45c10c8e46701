import Foundation
import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// `ghlogin ssh`'s remote command run as sshd runs it, `$SHELL -c STRING`, by each real shell
/// that can be a login shell (issue 35 §3): the socket variable, every argument byte for byte,
/// the exit status, and the socket removed after the command, also on HUP, INT and TERM.
@Suite struct SSHRemoteScriptTests {
  let directory: TemporaryDirectory

  init() throws {
    directory = try TemporaryDirectory(prefix: "ghlogin-ssh-script")
  }

  /// bash, dash, zsh and fish: `.ci/run` installs them; under CI a missing one fails.
  static let shells = ["bash", "dash", "zsh", "fish", "sh"]

  static func path(of shell: String) -> String? {
    ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + shell }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// The shells here; under CI every one of them.
  func availableShells() -> [String] {
    Self.shells.compactMap { shell in
      let found = Self.path(of: shell)
      if found == nil && !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty {
        Issue.record("\(shell) is not installed (.ci/run installs it)")
      }
      return found
    }
  }

  /// Arguments no shell may change on the way.
  static let hostile = [
    "a b", "it's", "\"double\"", "$HOME", "${HOME}", "`id`", "$(id)", "line1\nline2", "back\\slash", "\\\\", "\\'",
    "'\\''", "*", "?", "[a]", "~", "{a,b}", "-n", "-e", "--", "", "trailing\n", "\n\n", "%s%b\\c\\0101", "\\0101",
    "ünïcödé ✓", "\t", "x\u{01}y\u{7F}", "!", "!!", "#comment", ";", "&", "|", ">x", "\r", "  ", "a\\", "$", "'",
    "\"", "\\", "%", "x=y",
  ]

  struct Outcome {
    var status: Int32
    var stdout: Data
    var stderr: String
  }

  /// `shell -c STRING` with `SHELL` set to the shell, in a private HOME.
  func run(_ shell: String, _ string: String, stdin: String = "") throws -> Outcome {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: shell)
    process.arguments = ["-c", string]
    process.environment = [
      "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": directory.path, "SHELL": shell, "LANG": "C.UTF-8",
      "XDG_CONFIG_HOME": directory.at("config"), "XDG_DATA_HOME": directory.at("data"),
    ]
    let input = Pipe()
    let out = Pipe()
    let err = Pipe()
    process.standardInput = input
    process.standardOutput = out
    process.standardError = err
    try process.run()
    input.fileHandleForWriting.write(Data(stdin.utf8))
    try input.fileHandleForWriting.close()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    let errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Outcome(status: process.terminationStatus, stdout: data, stderr: String(decoding: errors, as: UTF8.self))
  }

  /// A file standing for the forwarded socket, which the script must remove.
  func socketStandIn(_ name: String) throws -> String {
    let path = directory.at(name)
    try writeFile(path, "")
    return path
  }

  /// Prints `GHLOGIN_AGENT_SOCK` and each argument, each followed by a NUL; exits 7.
  static let printer = [
    "/bin/sh", "-c", #"printf '%s\0' "$GHLOGIN_AGENT_SOCK"; for a; do printf '%s\0' "$a"; done; exit 7"#, "printer",
  ]

  @Test func everyArgumentArrivesByteForByteThroughEveryShell() throws {
    for shell in availableShells() {
      let socket = try socketStandIn("agent.sock")
      let string = SSHRemoteScript.command(socket: socket, command: Self.printer + Self.hostile)
      let outcome = try run(shell, string)
      #expect(outcome.status == 7, "\(shell): \(outcome.stderr)")
      let expected = ([socket] + Self.hostile).map { Data($0.utf8) + Data([0]) }.reduce(Data(), +)
      #expect(outcome.stdout == expected, "\(shell)")
      if outcome.stdout != expected {
        let got = outcome.stdout.split(separator: 0, omittingEmptySubsequences: false).map {
          String(decoding: $0, as: UTF8.self)
        }
        Issue.record("\(shell) gave \(got)")
      }
      #expect(!FileManager.default.fileExists(atPath: socket), "\(shell) removes the socket")
    }
  }

  /// The whole string and the body keep to what all four shells read alike.
  @Test func theStringHoldsNoQuoteOrEscapeFishWouldRead() {
    let body = SSHRemoteScript.body(socket: "/tmp/ghlogin-x.sock", command: Self.printer + Self.hostile)
    #expect(!body.contains("'"))
    #expect(!body.contains("\\\\"))
    #expect(!body.contains("\n"))
    #expect(
      SSHRemoteScript.command(socket: "/tmp/s", command: ["true"]) == "exec /bin/sh -c '"
        + SSHRemoteScript.body(socket: "/tmp/s", command: ["true"]) + "'")
  }

  @Test func anOddSocketPathAndTheStatusCarryThrough() throws {
    for shell in availableShells() {
      let socket = try socketStandIn("odd $dir 'x'\n.sock")
      let outcome = try run(
        shell,
        SSHRemoteScript.command(
          socket: socket, command: ["/bin/sh", "-c", "test -e \"$GHLOGIN_AGENT_SOCK\"; exit $(( $? + 40 ))"]))
      #expect(outcome.status == 40, "\(shell): \(outcome.stderr)")
      #expect(!FileManager.default.fileExists(atPath: socket), "\(shell)")
      let missing = try run(shell, SSHRemoteScript.command(socket: socket, command: ["ghlogin-no-such-command"]))
      #expect(missing.status == 127, "\(shell): a command not found is sh's 127")
    }
  }

  /// No command: the login shell, `"$SHELL" -l`, not exec'd (the socket is removed after it).
  @Test func withoutACommandTheLoginShellRuns() throws {
    for shell in availableShells() where !shell.hasSuffix("/sh") {
      let socket = try socketStandIn("shell.sock")
      let outcome = try run(
        shell, SSHRemoteScript.command(socket: socket, command: []),
        stdin: "echo \"sock=$GHLOGIN_AGENT_SOCK\"\nexit 3\n")
      #expect(outcome.status == 3, "\(shell): \(outcome.stderr)")
      #expect(String(decoding: outcome.stdout, as: UTF8.self).contains("sock=\(socket)\n"), "\(shell)")
      #expect(!FileManager.default.fileExists(atPath: socket), "\(shell)")
    }
  }

  /// HUP, INT and TERM to the session's process group (as a hang-up or Ctrl-C on the remote
  /// terminal sends them): the socket is removed and the script exits 128 + the signal.
  @Test func theSocketIsRemovedOnHangUpInterruptAndTerminate() throws {
    let python = try #require(Self.path(of: "python3"))
    let driver = """
      import os, signal, subprocess, sys
      p = subprocess.Popen(sys.argv[2:], stdout=subprocess.PIPE, start_new_session=True)
      p.stdout.readline()
      os.killpg(p.pid, getattr(signal, sys.argv[1]))
      print(p.wait())
      """
    for shell in availableShells() {
      for (name, status) in [("SIGHUP", 129), ("SIGINT", 130), ("SIGTERM", 143)] {
        let socket = try socketStandIn("signal.sock")
        let string = SSHRemoteScript.command(socket: socket, command: ["/bin/sh", "-c", "echo started; exec sleep 30"])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", driver, name, shell, "-c", string]
        process.environment = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": directory.path, "SHELL": shell]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(String(decoding: data, as: UTF8.self) == "\(status)\n", "\(shell) \(name)")
        #expect(!FileManager.default.fileExists(atPath: socket), "\(shell) \(name)")
      }
    }
  }
}
