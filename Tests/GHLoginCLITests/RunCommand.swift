import GHLoginTestSupport
import Synchronization
import Testing

@testable import GHLoginCLI

/// An in-process run of the command line, with everything it printed.
struct CommandRun {
  var status: GHLoginCore.ExitStatus
  var stdout: String
  var stderr: String
}

/// Runs `ghlogin ARGUMENTS` in-process with buffered streams.
func runCommand(
  _ arguments: [String], variables: [String: String] = [:], stdin: String = "",
  clock: any GHLoginCore.TimeSource = ManualClock(), transport: any HTTPTransport = NoNetwork(),
  browser: any BrowserOpener = RecordingBrowser(), stdoutIsTerminal: Bool = false
) -> CommandRun {
  let out = BufferOutput(isTerminal: stdoutIsTerminal)
  let err = BufferOutput()
  // No system config layer from the machine's /etc/xdg unless a test names one.
  let pinned =
    variables["XDG_CONFIG_DIRS"] == nil ? variables.merging(["XDG_CONFIG_DIRS": unitTestConfigDirs]) { $1 } : variables
  let environment = Environment(
    arguments: arguments, variables: EnvironmentVariables(pinned), stdout: out, stderr: err, stdin: BufferInput(stdin),
    clock: clock, browser: browser, transport: { _ in transport }, executablePath: "/usr/local/bin/ghlogin")
  let status = GHLogin.main(environment: environment)
  return CommandRun(status: status, stdout: out.text, stderr: err.text)
}

/// `XDG_CONFIG_DIRS` for in-process runs: a directory that does not exist, so no system file.
let unitTestConfigDirs = "/nonexistent/ghlogin-unit-tests-xdg"

extension LifecycleFixture {
  func run(
    _ arguments: [String], extra: [String: String] = [:], stdin: String = "",
    transport: any HTTPTransport = NoNetwork()
  ) -> CommandRun {
    runCommand(arguments, variables: variables(extra), stdin: stdin, clock: clock, transport: transport)
  }

  /// `ghlogin git-credential get` asked by git for github.com.
  func gitCredentialGet(transport: any HTTPTransport = NoNetwork()) -> CommandRun {
    run(["git-credential", "get"], stdin: "protocol=https\nhost=github.com\n\n", transport: transport)
  }
}

/// An output that also records what the credentials file held at each write, to prove the
/// file was written before the token was printed (R42).
final class FileSnapshotOutput: TextOutput {
  private let state = TestLock<(text: String, snapshots: [String])>(("", []))
  let file: String
  init(file: String) { self.file = file }

  func write(_ text: String) {
    let snapshot = String(decoding: readFile(file) ?? [], as: UTF8.self)
    state.withLock {
      $0.text += text
      $0.snapshots.append(snapshot)
    }
  }

  var isTerminal: Bool { false }
  var text: String { state.withLock { $0.text } }
  var snapshots: [String] { state.withLock { $0.snapshots } }
}
