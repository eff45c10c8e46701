import Foundation
import Testing

/// ghlogin against a standards-compliant OAuth server rather than lenient github.com (issue 11).
/// The fake is strict by default: an authorize request without `response_type=code` is refused
/// with `invalid_request`, as such a server does, so every browser login here checks R85.
@Suite struct StandardServerEndToEndTests {
  /// R85: the refusals of the authorize request itself end the login as a configuration error
  /// (exit 2), naming the setting to check and not suggesting to try again; nothing is stored
  /// and the code is never exchanged.
  @Test(arguments: [
    ("invalid_request", "Missing response_type parameter.", "\"authorize_url\" in {file}: it must be the server's OAuth authorization endpoint"),
    ("unsupported_response_type", "Unsupported response_type.", "\"authorize_url\" in {file}: it must be the server's OAuth authorization endpoint"),
    ("unauthorized_client", "Not allowed.", "\"client_id\" in {file}: the app must be allowed the authorization code flow"),
    ("invalid_scope", "Unknown scope.", "\"scopes\" in {file} (or --scopes): every scope must be one the server knows"),
  ])
  func authorizeRequestRefusalIsAConfigurationError(code: String, description: String, check: String) async throws {
    let scenario = try await Scenario.start()
    try scenario.fake.script([
      "responses": ["authorize": [["kind": "oauth_error", "error": code, "error_description": description]]]
    ])
    let (run, browser, _) = try await scenario.login()
    let file = scenario.sandbox.configFile
    #expect(run.status == 2, "\(run)")
    #expect(
      run.stderr.hasSuffix(
        "ghlogin: github.test refused the authorize request (\(code): \(description)); this is a configuration "
          + "problem, retrying will not help: check " + check.replacingOccurrences(of: "{file}", with: file) + "\n"),
      "\(run)")
    #expect(!run.stderr.contains("again"), "\(run)")
    #expect(browser.callbackStatus == 200)
    #expect(try scenario.tokenRequests().isEmpty)
    expectNothingStored(scenario)
  }

  /// R85: the request ghlogin sends passes the strict fake's `response_type` check, and the fake
  /// really refuses a request without it (so removing the parameter fails the login tests).
  @Test func authorizeRequestCarriesResponseTypeCode() async throws {
    let scenario = try await Scenario.start()
    let pending = try await scenario.startAuth()
    #expect(pending.query["response_type"] == "code")
    let without = pending.url.replacingOccurrences(of: "response_type=code&", with: "")
    let fake = scenario.fake
    let refused = try await offload { try runBrowser(url: without, fake: fake) }
    #expect(
      refused.location?.contains("error=invalid_request&error_description=Missing%20response_type%20parameter.")
        == true, "\(refused.report)")
    let run = try await pending.finish()
    #expect(run.status == 2, "\(run)")
    #expect(run.stderr.contains("(invalid_request: Missing response_type parameter.)"), "\(run)")
    expectNothingStored(scenario)
  }
}
