import Foundation
import Testing

/// What the token endpoint answers, scripted on the fake, and what `ghlogin auth` must make of
/// it (the token exchange and the HTTP layer; R27–R31, R72–R75, R80). Failures exit with a message
/// that names the problem, store nothing, send the code exactly once, and never show the client
/// secret or the code.
@Suite struct TokenEndpointErrorTests {
  /// One scripted answer and the expected outcome.
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    /// A `POST /control/script` body, as JSON text.
    let script: String
    /// Expected exit status.
    let status: Int32
    /// The expected last stderr line without `ghlogin: `; `{token_url}`, `{config}` and
    /// `{hostport}` (github.test:PORT) are filled in.
    let message: String

    var testDescription: String { name }

    init(_ name: String, _ script: String, _ status: Int32 = 1, _ message: String) {
      self.name = name
      self.script = script
      self.status = status
      self.message = message
    }

    /// A case answering the code exchange with `directive` (JSON).
    static func token(_ name: String, _ directive: String, _ status: Int32 = 1, _ message: String) -> Case {
      Case(name, #"{"responses": {"token": [\#(directive)]}}"#, status, message)
    }
  }

  static let unusableToken =
    "the token endpoint answered with an unusable access_token (empty, too long, or not an RFC 6750 "
    + "token: only letters, digits, '-._~+/' and trailing '=' are allowed); nothing was stored"

  static let failures: [Case] = [
    .token(
      "T21 bad_verification_code (HTTP 200)", #""bad_verification_code""#, 1,
      "the authorization code was rejected by github.test (incorrect or expired); run 'ghlogin auth --host github.test' again"
    ),
    .token(
      "T22 incorrect_client_credentials (HTTP 200)", #""incorrect_client_credentials""#, 2,
      "github.test refused the login's app (error 'incorrect_client_credentials': The client_id and/or "
        + "client_secret passed are incorrect.): client_id Iv1.testclient "
        + "(and its client_secret) from {config}; set your app's client ID: 'ghlogin config set client_id ID'"),
    .token(
      "T23 unverified_user_email", #""unverified_user_email""#, 1,
      "github.test requires a verified primary email address on your account; verify it at "
        + "https://github.test/settings/emails, then run 'ghlogin auth --host github.test' again"),
    .token(
      "T24 redirect_uri_mismatch", #""redirect_uri_mismatch""#, 1,
      "github.test rejected the redirect URI; the OAuth app's callback URL must be http://127.0.0.1/callback "
        + "(any port is allowed on loopback). Fix the app's settings, then run 'ghlogin auth --host github.test' again"),
    .token(
      "RFC 6749 HTTP 400 error body",
      #"{"kind": "oauth_error", "error": "invalid_grant", "status": 400, "error_description": "grant \u001b[2Jexpired"}"#,
      1, "github.test refused the token request: error 'invalid_grant': grant [2Jexpired"),
    .token(
      "HTTP 500", "500", 1, "token exchange at token_url {token_url}: github.test answered HTTP 500; try again later"),
    .token(
      "HTTP 404 text", #"{"kind": "status", "status": 404, "body": "nope", "content_type": "text/plain"}"#, 1,
      "token exchange at token_url {token_url}: the server answered HTTP 404; check the host and token_url settings"),
    .token(
      "HTML body", #""html""#, 1,
      "token exchange at token_url {token_url}: the server answered with 'text/html'; expected JSON or form data. "
        + "Check the host and token_url settings"),
    .token(
      "T28 XML body", #""xml""#, 1,
      "token exchange at token_url {token_url}: the server answered with 'application/xml'; expected JSON or form data. "
        + "Check the host and token_url settings"),
    .token(
      "garbage JSON",
      #"{"kind": "status", "status": 200, "body": "{\"access_token\": gho_", "content_type": "application/json"}"#,
      1,
      "token exchange at token_url {token_url}: the server sent an answer that could not be read (invalid JSON at line 1, column 18); "
        + "nothing was stored"),
    .token(
      "garbage bytes instead of HTTP", #"{"kind": "raw", "data": "SSH-2.0-OpenSSH_9.6\r\n\r\n"}"#, 1,
      "token exchange at token_url https://{hostport}/login/oauth/access_token: malformed response from {hostport}: the first line is not a valid HTTP start line"
    ),
    .token(
      "connection dropped", #""drop""#, 1,
      "token exchange at token_url https://{hostport}/login/oauth/access_token: no response from {hostport}: the connection closed without a response"
    ),
    .token(
      "T76 truncated body", #""truncated""#, 1,
      "token exchange at token_url https://{hostport}/login/oauth/access_token: truncated response from {hostport}: the connection closed before the message was complete"
    ),
    .token(
      "T77 Transfer-Encoding and Content-Length", #""te_and_cl""#, 1,
      "token exchange at token_url https://{hostport}/login/oauth/access_token: malformed response from {hostport}: both Transfer-Encoding and Content-Length"
    ),
    .token(
      "T77 two Content-Lengths", #""dup_content_length""#, 1,
      "token exchange at token_url https://{hostport}/login/oauth/access_token: malformed response from {hostport}: conflicting Content-Length values"
    ),
    .token(
      "T77 bare CR in a header", #""bare_cr_header""#, 1,
      "token exchange at token_url https://{hostport}/login/oauth/access_token: malformed response from {hostport}: a bare CR or LF in the header section"
    ),
    .token(
      "2 MiB body", #""huge""#, 1,
      "token exchange at token_url https://{hostport}/login/oauth/access_token: response from {hostport} is too large: the body is larger than 1048576 bytes"
    ),
    .token(
      "T79 302 not followed", #"{"kind": "redirect", "location": "https://github.test:{port}/elsewhere"}"#, 1,
      "token exchange at token_url {token_url}: the server answered with a redirect (HTTP 302), which ghlogin never follows "
        + "for token requests; check the host and token_url settings"),
    Case(
      "T27 token_type mac", #"{"token": {"token_type": "mac"}}"#, 1,
      "the token endpoint issued a token of type 'mac'; ghlogin can only use bearer tokens. Nothing was stored"),
    Case(
      "T27 token_type missing", #"{"token": {"omit": ["token_type"]}}"#, 1,
      "token exchange at token_url {token_url}: the server answered without token_type; nothing was stored"),
    Case("T30 token with CR LF", #"{"token": {"access_token": "gho_a\r\nb"}}"#, 1, unusableToken),
    Case("T30 token with a space", #"{"token": {"access_token": "gho_a b"}}"#, 1, unusableToken),
    Case("T30 token with = inside", #"{"token": {"access_token": "gho_a=b"}}"#, 1, unusableToken),
    Case("token with a quote", #"{"token": {"access_token": "gho_a\"b"}}"#, 1, unusableToken),
    Case("token of padding only", #"{"token": {"access_token": "=="}}"#, 1, unusableToken),
  ]

  /// Scripts the fake, runs one login, and returns it with the code the fake issued.
  static func login(_ scenario: Scenario, script: String, authArgs: [String] = []) async throws
    -> (run: RunResult, browser: BrowserResult, code: String)
  {
    let filled = script.replacingOccurrences(of: "{port}", with: String(scenario.fake.port))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(filled.utf8)) as? [String: Any])
    try scenario.fake.script(object)
    let (run, browser, _) = try await scenario.login(authArgs)
    let code = try #require(browser.issuedCode, "\(browser.report)")
    return (run, browser, code)
  }

  @Test(arguments: failures)
  func failureIsReportedAndNothingStored(_ testCase: Case) async throws {
    let scenario = try await Scenario.start()
    let (run, browser, code) = try await Self.login(scenario, script: testCase.script)
    let expected =
      "ghlogin: "
      + testCase.message
      .replacingOccurrences(of: "{token_url}", with: scenario.fake.webBase + "/login/oauth/access_token")
      .replacingOccurrences(of: "{config}", with: scenario.sandbox.configFile)
      .replacingOccurrences(of: "{hostport}", with: "github.test:\(scenario.fake.port)")
    #expect(run.status == testCase.status, "\(run)")
    #expect(run.stderr.split(separator: "\n").last.map(String.init) == expected, "\(run)")
    #expect(run.stdout == "")
    expectNothingStored(scenario)
    // The code went out once and was never resent; no token was used.
    #expect(try scenario.tokenRequests().count == 1)
    #expect(try scenario.fake.requests(path: "/user").isEmpty)
    #expect(try scenario.fake.requests(path: "/elsewhere").isEmpty)
    // The browser was told, and the listener is closed.
    #expect(browser.callbackStatus == 200)
    #expect(browser.callbackBody?.contains("Login failed") == true, "\(browser.report)")
    let port = try #require(URLComponents(string: browser.location ?? "")?.port)
    #expect(RawHTTP.isRefused(port: port))
    expectNoSecrets(
      [testClientSecret, code, "gho_a"], in: [run.stdout, run.stderr, browser.callbackBody ?? ""])
    #expect(!run.stderr.contains("\u{1b}"))
  }

  /// R31 for real (`incorrect_client_credentials`): a wrong client_secret in the config is
  /// refused by the fake; exit 2 (issue 29 §2), the message points at the config, and the wrong
  /// secret is not shown either.
  @Test func wrongClientSecretNamesTheConfig() async throws {
    let wrong = "wrong-secret-0123456789"
    let scenario = try await Scenario.start(config: ["client_secret": wrong])
    let (run, browser, code) = try await Self.login(scenario, script: "{}")
    #expect(run.status == 2, "\(run)")
    #expect(
      run.stderr.hasSuffix(
        "client_id Iv1.testclient (and its client_secret) from \(scenario.sandbox.configFile); set your app's "
          + "client ID: 'ghlogin config set client_id ID'\n"), "\(run)")
    #expect(try scenario.tokenRequests().first?.formValue("client_secret") == wrong)
    expectNothingStored(scenario)
    expectNoSecrets([wrong, testClientSecret, code], in: [run.stdout, run.stderr, browser.callbackBody ?? ""])
  }

  /// R28, R29: a form-encoded success (`access_token=…&scope=repo%2Cgist&token_type=bearer`) is
  /// parsed; the scopes are stored as [repo, gist].
  @Test func formEncodedSuccessIsStored() async throws {
    let scenario = try await Scenario.start()
    let (run, _, _) = try await Self.login(
      scenario, script: #"{"responses": {"token": ["form"]}}"#, authArgs: ["--scopes", "repo,gist"])
    #expect(run.status == 0, "\(run)")
    let exchange = try #require(try scenario.tokenRequests().first)
    #expect(
      (exchange["response_headers"] as? [[String]])?.contains {
        $0.first?.lowercased() == "content-type"
          && $0.last?.hasPrefix("application/x-www-form-urlencoded") == true
      } == true)
    let account = try #require(Self.storedAccount(scenario))
    #expect(account["scopes"] as? [String] == ["repo", "gist"])
    #expect((account["token"] as? String)?.hasPrefix("gho_") == true)
  }

  /// A chunked reply and a `Bearer` token type (R29) are accepted.
  @Test func chunkedReplyWithCapitalizedBearerIsAccepted() async throws {
    let scenario = try await Scenario.start()
    let (run, _, _) = try await Self.login(
      scenario, script: #"{"token": {"token_type": "Bearer"}, "responses": {"token": ["chunked"]}}"#)
    #expect(run.status == 0, "\(run)")
    #expect(try scenario.tokenRequests().first?["framing"] as? String == "chunked")
    #expect(Self.storedAccount(scenario)?["token_type"] as? String == "bearer")
  }

  /// R30: a 600-character token is stored and used verbatim.
  @Test func longTokenIsStoredVerbatim() async throws {
    let scenario = try await Scenario.start()
    let (run, _, _) = try await Self.login(scenario, script: #"{"token": {"access_token_length": 600}}"#)
    #expect(run.status == 0, "\(run)")
    let issued = try #require(
      (try scenario.fake.state()["tokens"] as? [[String: Any]])?.first?["access_token"] as? String)
    #expect(issued.count == 600)
    let token = try await scenario.run(["token"])
    #expect(token.stdout == issued + "\n")
    #expect(try scenario.fake.requests(path: "/user").first?.header("Authorization") == "Bearer " + issued)
    let whoami = try await scenario.run(["whoami"])
    #expect(whoami.status == 0, "\(whoami)")
  }

  static func storedAccount(_ scenario: Scenario) -> [String: Any]? {
    ((scenario.sandbox.credentialsJSON()?["hosts"] as? [String: Any])?["github.test"] as? [String: Any]).flatMap {
      ($0["accounts"] as? [[String: Any]])?.first
    }
  }
}
