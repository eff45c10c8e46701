import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// LoginErrorTests' messages in the command line's words (`cliMessage`, `message(configFile:)`):
/// the remedies as `ghlogin` commands and options. The exit statuses are LoginErrorTests'.
@Suite struct LoginErrorCLIVoiceTests {
  @Test(arguments: [
    (
      LoginError.Kind.timedOut(seconds: 300), 1,
      "timed out after 5 minutes waiting for the browser; nothing was stored. If the browser showed a redirect_uri error, the app's callback URL must be http://127.0.0.1/callback"
    ),
    (.interrupted, 130, "interrupted; nothing was stored"),
    (
      .authorizationError(AuthorizationErrorResponse(error: "access_denied")), 1,
      "the login to github.com was denied in the browser (access_denied); run 'ghlogin auth' again to retry"
    ),
    (
      .authorizationError(
        AuthorizationErrorResponse(error: "application_suspended", description: "Your application has been suspended.")),
      1,
      "the OAuth app is suspended on github.com (application_suspended: Your application has been suspended.); ask its owner, or configure another client_id"
    ),
    (
      .authorizationError(AuthorizationErrorResponse(error: "redirect_uri_mismatch")), 1,
      "github.com rejected the redirect URI (redirect_uri_mismatch); the app's callback URL must be http://127.0.0.1/callback"
    ),
    (
      .authorizationError(AuthorizationErrorResponse(error: "x\u{1B}[1m", description: "d\r\ne")), 1,
      "github.com refused the authorization (x[1m: de); run 'ghlogin auth' again"
    ),
    (
      .userMismatch(expected: "hubot", actual: "oct\u{1B}ocat"), 1,
      "logged in to github.com as octocat, but hubot was asked for; nothing was stored. Switch accounts in the browser and run 'ghlogin auth' again"
    ),
  ])
  func messages(kind: LoginError.Kind, status: Int32, message: String) {
    #expect(LoginError(kind, host: .gitHubDotCom).cliMessage == message)
  }

  /// R85: a refusal of the authorize request itself is a configuration problem: the setting
  /// named, no "run 'ghlogin auth' again".
  @Test(arguments: [
    (
      "invalid_request", "Missing response_type parameter.",
      "ghe.test refused the authorize request (invalid_request: Missing response_type parameter.); this is a "
        + "configuration problem, retrying will not help: check \"authorize_url\" in /etc/ghlogin.json: it must be "
        + "the server's OAuth authorization endpoint"
    ),
    (
      "unsupported_response_type", "",
      "ghe.test refused the authorize request (unsupported_response_type); this is a configuration problem, "
        + "retrying will not help: check \"authorize_url\" in /etc/ghlogin.json: it must be the server's OAuth "
        + "authorization endpoint"
    ),
    (
      "unauthorized_client", "no",
      "ghe.test refused the authorize request (unauthorized_client: no); this is a configuration problem, retrying "
        + "will not help: check \"client_id\" in /etc/ghlogin.json: the app must be allowed the authorization "
        + "code flow"
    ),
    (
      "invalid_scope", "bad\u{1B}[31m scope",
      "ghe.test refused the authorize request (invalid_scope: bad[31m scope); this is a configuration problem, "
        + "retrying will not help: check \"scopes\" in /etc/ghlogin.json (or --scopes): every scope must be one "
        + "the server knows"
    ),
  ])
  func authorizeRequestRefusalsAreConfigurationErrors(code: String, description: String, message: String) throws {
    let host = try GitHubHost(validating: "ghe.test")
    let error = LoginError(
      .authorizationError(AuthorizationErrorResponse(error: code, description: description)), host: host)
    #expect(error.message(configFile: "/etc/ghlogin.json") == message)
    #expect(!error.cliMessage.contains("again"))
  }
}
