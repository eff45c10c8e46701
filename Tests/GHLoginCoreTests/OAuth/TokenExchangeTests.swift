import Testing

import GHLoginTestSupport

@testable import GHLoginCore

@Suite(.verifiesFakes) struct TokenExchangeTests {
  static let tokenURL = "https://github.com/login/oauth/access_token"
  let request = AuthorizationRequest(state: "state-value", verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
  let redirect = AuthorizeURL.redirectURI(port: 50123)

  private func endpoint(_ transport: FakeTransport, url: String = tokenURL) throws -> TokenEndpoint {
    TokenEndpoint(
      url: try WebURL(parsing: url), host: .gitHubDotCom, transport: transport, timeout: 12)
  }

  /// R4, R20, R26 (unit part): one POST, parameters in the form body, never in the URL.
  @Test func sendsOneFormPostWithEveryParameter() throws {
    let transport = FakeTransport()
    transport.on(
      "POST", Self.tokenURL, respond: .json(#"{"access_token":"gho_x","token_type":"bearer","scope":"repo"}"#))
    let app = OAuthApp(clientID: "Iv1.client", clientSecret: "the-secret", scopes: ["repo"])
    let token = try TokenExchange.exchange(
      code: "code123", request: request, redirectURI: redirect, app: app, endpoint: endpoint(transport))
    #expect(token == TokenResponse(accessToken: "gho_x", scopes: ["repo"]))
    let sent = try #require(transport.requests.first)
    #expect(transport.requests.count == 1)
    #expect(sent.url.description == Self.tokenURL)
    #expect(sent.headers["Accept"] == "application/json")
    #expect(sent.headers["Content-Type"] == "application/x-www-form-urlencoded")
    #expect(sent.headers["User-Agent"] == nil)  // added by the transport (HTTPWriterTests)
    #expect(sent.headers["Authorization"] == nil)
    #expect(
      sent.formParameters.map(\.name) == [
        "client_id", "client_secret", "code", "redirect_uri", "code_verifier", "grant_type",
      ])
    #expect(
      sent.formParameters.map(\.value) == [
        "Iv1.client", "the-secret", "code123", "http://127.0.0.1:50123/callback", request.verifier,
        "authorization_code",
      ])
    #expect(
      String(decoding: sent.body, as: UTF8.self).contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A50123%2Fcallback"))
    #expect(transport.timeoutsSent == [12])
  }

  @Test func omitsTheClientSecretWhenNotConfigured() throws {
    for secret in [nil, ""] as [String?] {
      let transport = FakeTransport()
      transport.on("POST", Self.tokenURL, respond: .json(#"{"access_token":"gho_x","token_type":"bearer"}"#))
      _ = try TokenExchange.exchange(
        code: "c", request: request, redirectURI: redirect, app: OAuthApp(clientID: "id", clientSecret: secret),
        endpoint: endpoint(transport))
      #expect(
        transport.requests.first?.formParameters.map(\.name) == [
          "client_id", "code", "redirect_uri", "code_verifier", "grant_type",
        ])
    }
  }

  /// R27, R31, R80: the configuration error never shows the secret, code or verifier.
  @Test func rejectedClientCredentialsDoNotLeakSecrets() throws {
    let transport = FakeTransport()
    transport.on(
      "POST", Self.tokenURL,
      respond: .json(
        #"{"error":"incorrect_client_credentials","error_description":"The client_id and/or client_secret passed are incorrect."}"#
      ))
    let app = OAuthApp(clientID: "id", clientSecret: "the-secret")
    let error = try #require(throws: TokenError.self) {
      try TokenExchange.exchange(
        code: "code123", request: request, redirectURI: redirect, app: app, endpoint: endpoint(transport))
    }
    #expect(error.exitStatus == .failure)
    #expect(error.configKeys == ["client_id", "client_secret"])
    #expect(error.message(configFile: "/cfg.json", remedies: .words).contains("in /cfg.json"))
    for secret in ["the-secret", "code123", request.verifier] { #expect(!error.message.contains(secret)) }
    #expect(transport.requests.count == 1)
  }

  /// R75: a redirect is an error and is not followed.
  @Test func redirectIsNotFollowed() throws {
    let transport = FakeTransport()
    transport.on(
      "POST", Self.tokenURL, respond: .json("", status: 307, headers: [("Location", "https://evil.test/token")]))
    #expect(
      throws: TokenError(
        .redirect(307), host: .gitHubDotCom, endpoint: try WebURL(parsing: Self.tokenURL),
        step: EndpointStep("token exchange", setting: .tokenURL, url: try WebURL(parsing: Self.tokenURL)))
    ) {
      try TokenExchange.exchange(
        code: "c", request: request, redirectURI: redirect, app: OAuthApp(clientID: "id"), endpoint: endpoint(transport)
      )
    }
    #expect(transport.requests.count == 1)
  }

  /// R22: a transport failure is reported as it is, and nothing is resent.
  @Test func transportFailureIsNotRetried() throws {
    struct Dropped: Error, Equatable {}
    let transport = FakeTransport()
    transport.on("POST", Self.tokenURL) { _ in throw Dropped() }
    #expect(throws: Dropped()) {
      try TokenExchange.exchange(
        code: "c", request: request, redirectURI: redirect, app: OAuthApp(clientID: "id"), endpoint: endpoint(transport)
      )
    }
    #expect(transport.requests.count == 1)
  }

  /// An interrupted exchange stays an interrupt (130); a refused one names the step, the key
  /// and the URL (RefusedConnectionTests).
  @Test func anInterruptedExchangeStaysInterrupted() throws {
    let interrupted = FakeTransport()
    interrupted.on("POST", Self.tokenURL) { _ in throw HTTPError.interrupted }
    #expect(throws: HTTPError.interrupted) {
      try TokenExchange.exchange(
        code: "c", request: request, redirectURI: redirect, app: OAuthApp(clientID: "id"),
        endpoint: endpoint(interrupted))
    }
  }

  @Test func plainHTTPIsRefusedUnlessLoopback() throws {
    let transport = FakeTransport()
    #expect(throws: InsecureEndpointError(url: try WebURL(parsing: "http://github.test/login/oauth/access_token"))) {
      try endpoint(transport, url: "http://github.test/login/oauth/access_token").post([("a", "b")])
    }
    #expect(transport.requests.isEmpty)
    transport.on("POST", "http://127.0.0.1:8080/token", respond: .json(#"{"access_token":"t","token_type":"bearer"}"#))
    #expect(try endpoint(transport, url: "http://127.0.0.1:8080/token").post([("a", "b")]).accessToken == "t")
  }

  @Test func postKeepsParameterOrderAndEncoding() throws {
    let transport = FakeTransport()
    transport.on("POST", Self.tokenURL, respond: .json(#"{"access_token":"t","token_type":"bearer"}"#))
    _ = try endpoint(transport).post([("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("x", "a&b=c d")])
    #expect(
      String(decoding: try #require(transport.requests.first).body, as: UTF8.self)
        == "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&x=a%26b%3Dc%20d")
  }
}
