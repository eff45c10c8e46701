import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// LoginSessionTests' messages in the command line's words (`cliMessage`): the remedies as
/// `ghlogin` commands. Which error a callback ends the session with is LoginSessionTests'.
@Suite struct LoginSessionCLIVoiceTests {
  /// The browser's refusal, its description shown sanitized, and the command that retries.
  @Test func aDeniedLoginSaysHowToRetry() {
    let error = LoginError(
      .authorizationError(
        AuthorizationErrorResponse(error: "access_denied", description: "<script>x</script>\u{1B}[31m")),
      host: .gitHubDotCom)
    #expect(
      error.cliMessage
        == "the login to github.com was denied in the browser (access_denied: <script>x</script>[31m); run 'ghlogin auth' again to retry"
    )
  }

  /// R24: another account than --user asked for.
  @Test func userMismatch() {
    let error = LoginError(.userMismatch(expected: "hubot", actual: "octocat"), host: .gitHubDotCom)
    #expect(
      error.cliMessage
        == "logged in to github.com as octocat, but hubot was asked for; nothing was stored. Switch accounts in the browser and run 'ghlogin auth' again"
    )
  }
}
