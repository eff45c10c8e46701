import Testing

import GHLoginTestSupport

@testable import GHLoginCLI

/// `logout`: revocation at GitHub (R45, R46), then removal whatever happened there.
@Suite(.verifiesFakes) struct LogoutCommandTests {
  typealias Fixture = LifecycleFixture
  static let token = "gho_16C7e42F292c6912E7710c838347Ae178B4a"
  static let manual = "https://github.com/settings/connections/applications/Iv1.client"

  /// R45, R46: with a client secret, DELETE /applications/{client_id}/token with Basic auth and the
  /// token in a JSON body; on 204 the local entry is removed.
  @Test func revokesThenRemoves() throws {
    let fixture = try LifecycleFixture()
    try fixture.seed(sampleCredential(token: Self.token))
    let transport = FakeTransport()
    transport.on("DELETE", Fixture.revokeURL, respond: HTTPResponse(status: 204))
    let run = fixture.run(["logout"], transport: transport)
    #expect(run.status == .success)
    #expect(run.stderr == "Logged out of github.com as octocat; the token was revoked at github.com\n")
    let sent = try #require(transport.requests.first)
    #expect(sent.headers["Authorization"] == "Basic " + Crypto.base64(Array("Iv1.client:the-secret".utf8)))
    #expect(String(decoding: sent.body, as: UTF8.self) == #"{"access_token":"\#(Self.token)"}"#)
    #expect(try fixture.load().hosts.isEmpty)
    #expect(!fixture.fileText.contains(Self.token))
  }

  @Test func notFoundCountsAsDone() throws {
    let fixture = try LifecycleFixture()
    try fixture.seed(sampleCredential(token: Self.token))
    let transport = FakeTransport()
    transport.on("DELETE", Fixture.revokeURL, respond: .json(#"{"message":"Not Found"}"#, status: 404))
    let run = fixture.run(["logout"], transport: transport)
    #expect(run.status == .success)
    #expect(
      run.stderr
        == "Logged out of github.com as octocat; github.com no longer knew the token (already revoked or expired)\n")
    #expect(try fixture.load().hosts.isEmpty)
  }

  /// R46: the revocation endpoint is unreachable or refuses: the entry is removed anyway, with
  /// a warning naming the page to revoke by hand; the token went nowhere else.
  @Test(arguments: [0, 422, 500])
  func aFailedRevocationStillRemovesAndWarns(status: Int) throws {
    let fixture = try LifecycleFixture()
    try fixture.seed(sampleCredential(token: Self.token))
    let transport = FakeTransport()
    transport.on("DELETE", Fixture.revokeURL) { _ in
      if status == 0 { throw HTTPError.connect(host: "api.github.com", port: 443, reason: "Connection refused") }
      return .json(#"{"message":"nope"}"#, status: status)
    }
    let run = fixture.run(["logout"], transport: transport)
    #expect(run.status == .success)
    #expect(run.stderr.hasPrefix("ghlogin: warning: could not revoke the token at github.com: "))
    #expect(
      run.stderr.hasSuffix(
        "The token may still be valid; revoke it by hand at \(Self.manual)\nLogged out of github.com as octocat\n"))
    #expect(!run.stderr.contains(Self.token))
    #expect(try fixture.load().hosts.isEmpty)
    #expect(transport.requests.map(\.url.description) == [Fixture.revokeURL])
  }

  @Test func localOnlySkipsRevocation() throws {
    let fixture = try LifecycleFixture()
    try fixture.seed(sampleCredential(token: Self.token))
    let run = fixture.run(["logout", "--local-only"])
    #expect(run.status == .success)
    #expect(
      run.stderr
        == "Logged out of github.com as octocat. The token was not revoked (--local-only): it stays valid until it "
        + "expires or you revoke it at \(Self.manual)\n")
    #expect(try fixture.load().hosts.isEmpty)
  }

  /// R46: without a client secret revocation cannot run; the user is told, with the page.
  @Test func withoutASecretItOnlyRemoves() throws {
    let fixture = try LifecycleFixture(config: #"{"client_id": "Iv1.public"}"#)
    try fixture.seed(sampleCredential(token: Self.token))
    let run = fixture.run(["logout"])
    #expect(run.status == .success)
    #expect(
      run.stderr
        == "Logged out of github.com as octocat. The token was removed from this machine but not revoked, because "
        + "no client_secret is configured: it stays valid until it expires or you revoke it at "
        + "https://github.com/settings/connections/applications/Iv1.public\n")
    #expect(try fixture.load().hosts.isEmpty)
  }

  /// R45 with GitHub Enterprise Server: the DELETE goes to /api/v3 of that host, with its app.
  @Test func enterpriseHostRevokesAtItsOwnAPI() throws {
    let config = #"{"hosts": {"ghe.test:8443": {"client_id": "Iv1.ghe", "client_secret": "ghe-secret"}}}"#
    let fixture = try LifecycleFixture(config: config)
    var credentials = sampleCredentials(host: "ghe.test:8443", sampleCredential(token: Self.token))
    credentials.save(sampleCredential(token: "gho_other"), on: "github.com")
    try fixture.seed(credentials)
    let transport = FakeTransport()
    transport.on(
      "DELETE", "https://ghe.test:8443/api/v3/applications/Iv1.ghe/token", respond: HTTPResponse(status: 204))
    let run = fixture.run(["logout", "--host", "GHE.test:8443"], transport: transport)
    #expect(run.status == .success)
    #expect(
      try #require(transport.requests.first).headers["Authorization"]
        == "Basic " + Crypto.base64(Array("Iv1.ghe:ghe-secret".utf8)))
    #expect(try fixture.load().hosts.keys.sorted() == ["github.com"])
  }

  @Test func logoutTakesTheUser() throws {
    let fixture = try LifecycleFixture()
    var credentials = sampleCredentials(sampleCredential(token: Self.token))
    var hubot = sampleCredential("hubot", token: "gho_hubot")
    hubot.userID = 2
    credentials.save(hubot, on: "github.com")
    try fixture.seed(credentials)
    let transport = FakeTransport()
    transport.on("DELETE", Fixture.revokeURL, respond: HTTPResponse(status: 204))
    let run = fixture.run(["logout", "--user", "OCTOCAT"], transport: transport)
    #expect(run.status == .success)
    #expect(String(decoding: try #require(transport.requests.first).body, as: UTF8.self).contains(Self.token))
    let left = try fixture.load().hosts["github.com"]
    #expect(left?.accounts.map(\.login) == ["hubot"])
    #expect(left?.activeLogin == "hubot")
  }

  @Test func notLoggedInRevokesNothing() throws {
    let fixture = try LifecycleFixture()
    try fixture.seed(sampleCredential(token: Self.token))
    let before = fixture.fileBytes
    let run = fixture.run(["logout", "--host", "tuf-repo.github.com"])
    #expect(run.status == .notLoggedIn)
    #expect(fixture.fileBytes == before)
  }
}
