import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// RefresherTests' and RefresherClientIDTests' messages in the command line's words
/// (`cliMessage`): the remedies as `ghlogin` commands. Which error a refresh ends with is theirs.
@Suite struct RefresherCLIVoiceTests {
  /// R44: a dead refresh token ends the session; the message says to log in.
  @Test func anEndedSessionSaysToLogIn() {
    #expect(
      RefreshError(.sessionExpired, host: .gitHubDotCom).cliMessage
        == "the session for github.com expired; run 'ghlogin auth'")
  }
}

/// Two apps on one host (SECURITY.md): an expired login another app made says which app made it
/// and what to run.
@Suite struct RefresherClientIDCLIVoiceTests {
  static let expectedMessage =
    "the token for github.com (octocat) has expired and cannot be refreshed here: octocat logged in with another "
    + "OAuth app (client ID Iv1.other) than the configured one (Iv1.client), and a refresh token is only sent with "
    + "the app that issued it. Run 'ghlogin auth --user octocat' to log in with the configured app"

  @Test func anExpiredTokenOfAnotherAppNamesTheCommand() {
    let error = RefreshError(
      .otherApp(login: "octocat", issuer: "Iv1.other", configured: "Iv1.client"), host: .gitHubDotCom)
    #expect(error.cliMessage == Self.expectedMessage)
  }
}
