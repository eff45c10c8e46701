import Foundation
import GHLoginTestSupport
import Testing

/// The terminal, through the built binary on a real pseudo-terminal (`Tests/Scripts/pty_run.py`)
/// and through pipes: colour only on a terminal (NO_COLOR, CLICOLOR=0, TERM=dumb), waits in words,
/// a countdown redrawn in place, Ctrl-C's message on a new line and death by SIGINT (130 in a
/// shell), SIGTERM's death (143), and
/// "Opened your browser" only when the opener did not fail. No network is reached: the login
/// waits for a browser that never comes.
@Suite struct TerminalEndToEndTests {
  private let root: TemporaryDirectory
  var home: String { root.path }
  let binary: String

  init() throws {
    root = try TemporaryDirectory(prefix: "ghlogin-tty")
    binary = try HarnessPaths.ghloginBinary()
  }

  func env(_ extra: [String: String] = [:]) -> [String: String] {
    ["HOME": home, "PATH": home + "/bin:/usr/bin:/bin", "TERM": "xterm", "GHLOGIN_CLIENT_ID": "Ov23liEXAMPLE"]
      .merging(extra) { $1 }
  }

  /// Runs ghlogin on a pty; `send` ("\u{3}" for Ctrl-C, or "TERM") once `when` has been shown.
  func onTerminal(_ args: [String], _ extra: [String: String] = [:], when: String? = nil, send: String? = nil)
    throws -> (status: Int, output: String)
  {
    var steps: [(when: String, send: String)] = []
    if let when, let send { steps = [(when, send)] }
    return try runOnPseudoTerminal([binary] + args, env: env(extra), steps: steps)
  }

  static let red = "\u{1B}[1;31m"
  static let reset = "\u{1B}[0m"
  static let typo =
    " unknown command 'atuh'; did you mean `auth`?\r\nUsage: ghlogin <command> [options]\r\n"
    + "Run 'ghlogin --help' to see the commands.\r\n"

  @Test func colourOnlyOnATerminalThatWantsIt() throws {
    #expect(try onTerminal(["atuh"]) == (2, Self.red + "ghlogin:" + Self.reset + Self.typo))
    for plain in [["NO_COLOR": "1"], ["CLICOLOR": "0"], ["TERM": "dumb"]] {
      #expect(try onTerminal(["atuh"], plain) == (2, "ghlogin:" + Self.typo), "\(plain)")
    }
    let piped = try runGHLogin(["atuh"], env: env())
    #expect(piped.stderr == "ghlogin:" + Self.typo.replacingOccurrences(of: "\r\n", with: "\n"))
  }

  /// What the browser flow says once under its waiting line (issue 29 §2).
  static let errorPageHint =
    "If the browser shows an error about the app or its callback URL, press Ctrl-C and check "
    + "'ghlogin config get client_id'."

  /// A display whose browser opener fails: the browser flow counts down (without a display,
  /// `--web` on a terminal offers paste-back instead, and a countdown would hide what is typed).
  func display() throws -> [String: String] {
    try FileManager.default.createDirectory(atPath: home + "/bin", withIntermediateDirectories: true)
    let opener = home + "/bin/xdg-open"
    try Data("#!/bin/sh\nexit 3\n".utf8).write(to: URL(fileURLWithPath: opener))
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: opener)
    return ["DISPLAY": ":0"]
  }

  @Test func aWaitCountsDownInPlaceOnATerminalAndIsSaidInWords() throws {
    let (status, output) = try onTerminal(["auth", "--web", "--timeout", "2"], try display())
    #expect(status == 1)
    #expect(
      output.contains(
        "\r\nWaiting up to 2 seconds for the browser (Ctrl-C to cancel)...\r\n" + Self.errorPageHint
          + "\r\n\r\u{1B}[K0:02 left"))
    #expect(output.contains("\r\u{1B}[K0:01 left"))
    #expect(
      output.hasSuffix(
        "\r\u{1B}[K" + Self.red + "ghlogin:" + Self.reset + " timed out after 2 seconds waiting for the browser; "
          + "nothing was stored. If the browser showed a redirect_uri error, the app's callback URL must be "
          + "http://127.0.0.1/callback\r\n"))
    // TERM=dumb, and pipes: plain lines only.
    let dumb = try onTerminal(["auth", "--web", "--timeout", "1"], ["TERM": "dumb"])
    #expect(!dumb.output.contains("\r\u{1B}[K"))
    #expect(!dumb.output.contains(" left"))
    let piped = try runGHLogin(["auth", "--web", "--timeout", "1"], env: env())
    #expect(piped.status == 1)
    #expect(
      piped.stderr.contains(
        "\nWaiting up to 1 second for the browser (Ctrl-C to cancel)...\n" + Self.errorPageHint
          + "\nghlogin: timed out after 1 second waiting"))
    #expect(!piped.stderr.contains("\r"))
  }

  @Test func afterCtrlCTheMessageStartsOnANewLineAndSIGINTEndsIt() throws {
    let counting = try onTerminal(
      ["auth", "--web", "--timeout", "30"], try display(), when: "0:29 left", send: "\u{3}")
    #expect(counting.status == -Int(SIGINT))
    #expect(
      counting.output.hasSuffix(
        " left^C\r\n" + Self.red + "ghlogin:" + Self.reset + " interrupted; nothing was stored\r\n"))
    let plain = try onTerminal(
      ["auth", "--web", "--timeout", "30"], try display().merging(["TERM": "dumb"]) { $1 },
      when: Self.errorPageHint + "\r\n", send: "\u{3}")
    #expect(plain.status == -Int(SIGINT))
    #expect(
      plain.output.hasSuffix(
        "(Ctrl-C to cancel)...\r\n" + Self.errorPageHint + "\r\n^C\r\nghlogin: interrupted; nothing was stored\r\n"))
  }

  @Test func sigtermEndsItBySIGTERM() throws {
    let result = try onTerminal(
      ["auth", "--web", "--timeout", "30"], try display().merging(["NO_COLOR": "1"]) { $1 }, when: "0:29 left",
      send: "TERM")
    #expect(result.status == -Int(SIGTERM))
    #expect(result.output.hasSuffix(" left\r\nghlogin: terminated; nothing was stored\r\n"))
  }

  @Test func openedYourBrowserOnlyWhenTheOpenerDidNotFail() throws {
    try FileManager.default.createDirectory(atPath: home + "/bin", withIntermediateDirectories: true)
    let opener = home + "/bin/xdg-open"
    try Data("#!/bin/sh\nexit 3\n".utf8).write(to: URL(fileURLWithPath: opener))
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: opener)
    let failed = try runGHLogin(["auth", "--timeout", "1"], env: env(["DISPLAY": ":0"]))
    #expect(failed.status == 1)
    #expect(
      failed.stderr.contains(
        "\nCould not open a browser (xdg-open exited with status 3); open the URL above yourself.\n"
          + "Waiting up to 1 second for the browser (Ctrl-C to cancel)...\n"))
    #expect(!failed.stderr.contains("Opened your browser"))
    try Data("#!/bin/sh\nexit 0\n".utf8).write(to: URL(fileURLWithPath: opener))
    let opened = try runGHLogin(["auth", "--timeout", "1"], env: env(["DISPLAY": ":0"]))
    #expect(
      opened.stderr.contains("\nOpened your browser. Waiting up to 1 second for the browser (Ctrl-C to cancel)...\n"))
  }
}
