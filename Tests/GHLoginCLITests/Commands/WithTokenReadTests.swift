import Testing

import GHLoginTestSupport
@testable import GHLoginCLI

/// `AuthCommand.readToken` (R81): what standard input must hold, and that a terminal
/// without a way to turn its echo off is refused rather than read.
@Suite struct WithTokenReadTests {
  func environment(_ stdin: BufferInput) -> Environment {
    Environment(
      arguments: [], variables: [:], stdout: BufferOutput(), stderr: BufferOutput(), stdin: stdin,
      clock: ManualClock(), browser: RecordingBrowser(), transport: { _ in NoNetwork() })
  }

  @Test(arguments: [
    ("ghp_abc\n", "ghp_abc"), ("  ghp_abc \r\n", "ghp_abc"), ("github_pat_11AB_cd", "github_pat_11AB_cd"),
  ])
  func acceptsOneToken(_ input: String, _ token: String) throws {
    #expect(try AuthCommand.readToken(from: environment(BufferInput(input))) == token)
  }

  @Test(arguments: [
    ("", AuthCommand.WithTokenError.Kind.empty), ("\n\n", .empty), ("a b", .severalWords), ("a\tb\n", .severalWords),
    ("a=b", .unusable), ("a\u{1}b", .unusable), ("é", .unusable),
  ])
  func refusesAnythingElse(_ input: String, _ kind: AuthCommand.WithTokenError.Kind) {
    #expect(throws: AuthCommand.WithTokenError(kind: kind)) {
      try AuthCommand.readToken(from: environment(BufferInput(input)))
    }
  }

  /// A terminal whose echo cannot be turned off (here: no descriptor) is not read at all.
  @Test func aTerminalThatCannotHideInputIsNotRead() {
    let stdin = BufferInput("ghp_typed\n", isTerminal: true)
    #expect(throws: AuthCommand.WithTokenError(kind: .cannotHideInput("no descriptor"))) {
      try AuthCommand.readToken(from: environment(stdin))
    }
    #expect(stdin.readLine() == "ghp_typed", "nothing was consumed")
  }

  @Test func concurrentlyKeepsTheOrder() {
    let results = Concurrently.run((0..<8).map { index in { @Sendable in index * index } })
    #expect(results == (0..<8).map { $0 * $0 })
  }
}
