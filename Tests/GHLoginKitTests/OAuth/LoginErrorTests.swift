import Testing

@testable import GHLoginKit

@Suite struct LoginErrorTests {
  @Test(arguments: [
    (
      LoginError.Kind.timedOut(seconds: 300), 1,
      "timed out after 300 seconds waiting for the browser; nothing was stored. If the browser showed a redirect_uri error, the app's callback URL must be http://127.0.0.1/callback"
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
  func messagesAndStatuses(kind: LoginError.Kind, status: Int32, message: String) {
    let error = LoginError(kind, host: .gitHubDotCom)
    #expect(error.message == message)
    #expect(error.exitStatus.rawValue == status)
  }

  @Test func pageReasonIsShortForAuthorizationErrors() {
    let error = LoginError(
      .authorizationError(
        AuthorizationErrorResponse(error: "access_denied", description: "The user has denied your application access.")),
      host: .gitHubDotCom)
    #expect(error.pageReason == "access_denied: The user has denied your application access.")
    #expect(LoginError(.interrupted, host: .gitHubDotCom).pageReason == "interrupted; nothing was stored")
  }
}
