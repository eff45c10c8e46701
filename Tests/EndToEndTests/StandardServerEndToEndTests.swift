import Foundation
import Testing

/// ghlogin against a standards-compliant OAuth server rather than lenient github.com.
/// The fake is strict by default: an authorize request without `response_type=code` is refused
/// with `invalid_request`, as such a server does, so every browser login here checks R85.
@Suite struct StandardServerEndToEndTests {
  /// R85: the refusals of the authorize request itself end the login as a configuration error
  /// (exit 2), naming the setting to check and not suggesting to try again; nothing is stored
  /// and the code is never exchanged.
  @Test(arguments: [
    (
      "invalid_request", "Missing response_type parameter.",
      "\"authorize_url\" in {file}: it must be the server's OAuth authorization endpoint"
    ),
    (
      "unsupported_response_type", "Unsupported response_type.",
      "\"authorize_url\" in {file}: it must be the server's OAuth authorization endpoint"
    ),
    (
      "unauthorized_client", "Not allowed.",
      "\"client_id\" in {file}: the app must be allowed the authorization code flow"
    ),
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

  /// `"client_secret": ""` is a public client: the login works against an app
  /// that has no secret, and no `client_secret` parameter is sent at all.
  @Test func emptyClientSecretLogsInAsAPublicClient() async throws {
    let scenario = try await Scenario.start(config: ["client_id": "Iv1.public", "client_secret": ""])
    try scenario.fake.register(["apps": [["client_id": "Iv1.public"]]])
    let (run, _, _) = try await scenario.login()
    #expect(run.status == 0, "\(run)")
    #expect(
      run.stderr.hasSuffix("Logged in to github.test as octocat\nTo let git use this login: ghlogin setup-git\n"),
      "\(run)")
    let exchange = try #require(try scenario.tokenRequests().first)
    #expect(exchange.formValue("client_id") == "Iv1.public")
    #expect((exchange["form"] as? [String: Any])?["client_secret"] == nil, "no client_secret parameter")
    #expect(scenario.sandbox.credentialsJSON() != nil)
  }

  /// A secret with a space is still refused: exit 2, the key named, nothing stored.
  @Test func clientSecretWithASpaceIsRefused() async throws {
    let scenario = try await Scenario.start(config: ["client_secret": "two words"])
    let run = try await scenario.run(["auth", "--no-browser"])
    #expect(run.status == 2, "\(run)")
    #expect(
      run.stderr == "ghlogin: \(scenario.sandbox.configFile): \"client_secret\" must not contain spaces or control "
        + "characters\n", "\(run)")
    #expect(!run.stderr.contains("two words"))
    expectNothingStored(scenario)
  }

  /// R30: a server issuing an RFC 6750 token with `=` padding: the login stores it,
  /// `token` prints it, and `/user` got it in the `Authorization` header unchanged.
  @Test func paddedTokenIsStoredAndUsed() async throws {
    let scenario = try await Scenario.start()
    let token = "dGhpcyBpcyBhIHRva2Vu+/x=="
    try scenario.fake.script(["token": ["access_token": token]])
    let (run, _, _) = try await scenario.login()
    #expect(run.status == 0, "\(run)")
    let printed = try await scenario.run(["token"])
    #expect(printed.status == 0, "\(printed)")
    #expect(printed.stdout == token + "\n")
    let users = try scenario.fake.requests(path: "/user")
    #expect(users.last?.header("Authorization")?.hasSuffix(" " + token) == true)
  }
}
