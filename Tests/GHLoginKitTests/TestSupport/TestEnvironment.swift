import GHLoginTestSupport
@testable import GHLoginCLI
@testable import GHLoginCore
@testable import GHLoginKit

/// A browser that records what it was asked to open.
final class RecordingBrowser: BrowserOpener, @unchecked Sendable {
  private(set) var opened: [WebURL] = []
  func open(_ url: WebURL, environment: EnvironmentVariables) throws { opened.append(url) }
}

/// A transport that fails the test run loudly if anything tries the network.
struct NoNetwork: HTTPTransport {
  func send(_ request: HTTPRequest, timeout: Double) throws -> HTTPResponse {
    Issue.recordNoNetwork(request)
    throw SystemError(call: "connect", errno: 111)
  }
}

import Testing

extension Issue {
  static func recordNoNetwork(_ request: HTTPRequest) {
    Issue.record("unexpected network request: \(request.method) \(request.url)")
  }
}

/// An in-process run of the command line, with everything it printed.
struct CommandRun {
  var status: GHLoginKit.ExitStatus
  var stdout: String
  var stderr: String
}

/// Runs `ghlogin ARGUMENTS` in-process with buffered streams.
func runCommand(
  _ arguments: [String], variables: [String: String] = [:], stdin: String = "",
  clock: any GHLoginKit.TimeSource = ManualClock(), transport: any HTTPTransport = NoNetwork(),
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
