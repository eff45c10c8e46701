import Testing

import GHLoginTestSupport

@testable import GHLoginCore

@Suite(.verifiesFakes) struct RevocationTests {
  static let token = "gho_16C7e42F292c6912E7710c838347Ae178B4a"
  static let url = "https://api.github.com/applications/Iv1.client/token"

  func revocation(
    _ transport: any HTTPTransport, host: GitHubHost = .gitHubDotCom, api: String = "https://api.github.com",
    clientID: String = "Iv1.client"
  ) throws -> Revocation {
    Revocation(
      host: host, api: try WebURL(parsing: api), clientID: clientID, clientSecret: "the-secret",
      transport: transport, timeout: 7)
  }

  /// R45, R46: DELETE with Basic client_id:client_secret and the JSON body; 204 is done.
  @Test func sendsTheDocumentedRequest() throws {
    let transport = FakeTransport()
    transport.on("DELETE", Self.url, respond: HTTPResponse(status: 204))
    #expect(try revocation(transport).revoke(token: Self.token) == .revoked)
    let sent = try #require(transport.requests.first)
    #expect(transport.requests.count == 1)
    #expect(transport.timeoutsSent == [7])
    // base64("Iv1.client:the-secret")
    #expect(sent.headers["Authorization"] == "Basic SXYxLmNsaWVudDp0aGUtc2VjcmV0")
    #expect(sent.headers["Content-Type"] == "application/json")
    #expect(sent.headers["Accept"] == "application/vnd.github+json")
    #expect(sent.headers["X-GitHub-Api-Version"] == "2022-11-28")
    #expect(sent.headers["User-Agent"] == nil)  // added by the transport (HTTPWriterTests)
    #expect(String(decoding: sent.body, as: UTF8.self) == #"{"access_token":"\#(Self.token)"}"#)
  }

  /// R45: GitHub Enterprise Server revokes under /api/v3 of its own host.
  @Test func enterpriseServerUsesItsAPIPrefix() throws {
    let host = try GitHubHost(validating: "ghe.test")
    let transport = FakeTransport()
    transport.on("DELETE", "https://ghe.test/api/v3/applications/Iv1.client/token", respond: HTTPResponse(status: 204))
    _ = try revocation(transport, host: host, api: host.defaultEndpoints.api.description).revoke(token: Self.token)
  }

  @Test func theClientIDIsPercentEncodedInThePath() throws {
    let transport = FakeTransport()
    transport.on("DELETE", "https://api.github.com/applications/a%2Fb%3F/token", respond: HTTPResponse(status: 204))
    _ = try revocation(transport, clientID: "a/b?").revoke(token: Self.token)
  }

  @Test func notFoundMeansAlreadyInvalid() throws {
    let transport = FakeTransport()
    transport.on("DELETE", Self.url, respond: .json(#"{"message":"Not Found"}"#, status: 404))
    #expect(try revocation(transport).revoke(token: Self.token) == .alreadyInvalid)
  }

  @Test(arguments: [
    (401, RevocationError.Kind.clientRejected(401)), (403, .clientRejected(403)), (422, .validationFailed),
    (500, .httpStatus(500)), (418, .httpStatus(418)),
  ])
  func otherStatusesFail(status: Int, kind: RevocationError.Kind) throws {
    let transport = FakeTransport()
    transport.on("DELETE", Self.url, respond: .json(#"{"message":"x"}"#, status: status))
    let error = try #require(throws: RevocationError.self) { try revocation(transport).revoke(token: Self.token) }
    #expect(error.kind == kind)
    #expect(!error.message.contains(Self.token))
    #expect(!error.message.contains("the-secret"))
  }

  /// R46, R75: a redirect is not followed; the token goes nowhere else.
  @Test func redirectsAreNotFollowed() throws {
    let transport = FakeTransport()
    transport.on(
      "DELETE", Self.url,
      respond: HTTPResponse(status: 307, headers: HTTPHeaders([("Location", "https://evil.test/steal")])))
    let error = try #require(throws: RevocationError.self) { try revocation(transport).revoke(token: Self.token) }
    #expect(error.kind == .redirect(307))
    #expect(transport.requests.count == 1)
  }

  @Test func unusableTokensAndClientIDsAreNeverSent() throws {
    #expect(throws: RevocationError(.unusableToken, host: .gitHubDotCom)) {
      try revocation(NoNetwork()).revoke(token: "gho_a\r\nX-Injected: 1")
    }
    for clientID in ["", "Iv1:client"] {
      #expect(throws: RevocationError(.unusableClientID, host: .gitHubDotCom)) {
        try revocation(NoNetwork(), clientID: clientID).revoke(token: Self.token)
      }
    }
  }

  @Test func plainHTTPToAnotherHostIsRefused() throws {
    #expect(throws: InsecureEndpointError.self) {
      try revocation(NoNetwork(), api: "http://api.github.test").revoke(token: Self.token)
    }
  }

  @Test func manualRevocationPage() throws {
    #expect(
      Revocation.manualRevocationURL(host: .gitHubDotCom, clientID: "Iv1.client")
        == "https://github.com/settings/connections/applications/Iv1.client")
    #expect(
      Revocation.manualRevocationURL(host: try GitHubHost(validating: "GHE.test:8443"), clientID: "abc")
        == "https://ghe.test:8443/settings/connections/applications/abc")
    #expect(
      Revocation.manualRevocationURL(host: .gitHubDotCom, clientID: nil) == "https://github.com/settings/applications")
  }
}
