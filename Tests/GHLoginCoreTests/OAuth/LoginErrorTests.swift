import Testing

import GHLoginTestSupport

@testable import GHLoginCore

@Suite struct LoginErrorTests {
  /// The exit status of each kind (its message, in the command line's words, is
  /// LoginErrorCLIVoiceTests.messages).
  @Test(
    arguments: [
      (LoginError.Kind.timedOut(seconds: 300), 1), (.interrupted, 130),
      (.authorizationError(AuthorizationErrorResponse(error: "access_denied")), 1),
      (
        .authorizationError(
          AuthorizationErrorResponse(
            error: "application_suspended", description: "Your application has been suspended.")),
        1
      ),
      (.authorizationError(AuthorizationErrorResponse(error: "redirect_uri_mismatch")), 1),
      (.authorizationError(AuthorizationErrorResponse(error: "x\u{1B}[1m", description: "d\r\ne")), 1),
      (.userMismatch(expected: "hubot", actual: "oct\u{1B}ocat"), 1),
    ] as [(LoginError.Kind, Int32)])
  func statuses(kind: LoginError.Kind, status: Int32) {
    #expect(LoginError(kind, host: .gitHubDotCom).exitStatus.rawValue == status)
  }

  /// R85: a refusal of the authorize request itself is a configuration problem: exit 2, the
  /// setting named, no "run 'ghlogin auth' again" (the command line's whole text is
  /// GHLoginCLITests' `LoginErrorCLIVoiceTests`).
  @Test(arguments: [
    ("invalid_request", "Missing response_type parameter.", "authorize_url"),
    ("unsupported_response_type", "", "authorize_url"),
    ("unauthorized_client", "no", "client_id"),
    ("invalid_scope", "bad\u{1B}[31m scope", "scopes"),
  ])
  func authorizeRequestRefusalsAreConfigurationErrors(code: String, description: String, key: String) throws {
    let host = try GitHubHost(validating: "ghe.test")
    let error = LoginError(
      .authorizationError(AuthorizationErrorResponse(error: code, description: description)), host: host)
    #expect(error.configKeys == [key])
    #expect(error.exitStatus == .usage)
    #expect(!error.message.contains("again"))
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
