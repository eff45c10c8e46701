import Testing

import GHLoginTestSupport

@testable import GHLoginCLI

/// `logout` revokes where the server can (R103): RFC 7009 at `revocation_url`
/// (refresh token first, then access token), GitHub's route elsewhere, and when nothing
/// confirmed a revocation it says the token may still be valid and where to revoke it.
@Suite(.verifiesFakes) struct LogoutRevocationTests {
  typealias Fixture = LifecycleFixture
  static let token = "at_ACCESStoken0000000000000000000000000001"
  static let refresh = "rt_REFRESHtoken000000000000000000000000001"
  static let host = "auth.example.org"
  static let revokeURL = "https://auth.example.org/o/revoke_token/"
  static let gitHubRouteURL = "https://auth.example.org/api/applications/app1/token"
  static let byHand = "revoke it by hand at the server that issued it"

  /// A config for an OAuth server that is not GitHub, with `extra` keys (JSON fragments).
  static func config(secret: Bool = true, revocation: Bool = true) -> String {
    var keys = [
      #""host": "auth.example.org""#, #""client_id": "app1""#,
      #""authorize_url": "https://auth.example.org/o/authorize/""#,
      #""token_url": "https://auth.example.org/o/token/""#,
      #""api_url": "https://auth.example.org/api""#,
    ]
    if secret { keys.append(#""client_secret": "s3cret""#) }
    if revocation { keys.append(#""revocation_url": "https://auth.example.org/o/revoke_token/""#) }
    return "{" + keys.joined(separator: ", ") + "}"
  }

  func loggedIn(config: String) throws -> LifecycleFixture {
    let fixture = try LifecycleFixture(config: config)
    var credential = sampleCredential(token: Self.token)
    credential.refreshToken = Self.refresh
    credential.expiresAt = Fixture.now + 36_000
    try fixture.seed(credential, host: Self.host)
    return fixture
  }

  @Test func rfc7009RevokesTheRefreshTokenThenTheAccessTokenWithBasicAuth() throws {
    let fixture = try loggedIn(config: Self.config())
    let transport = FakeTransport()
    transport.on("POST", Self.revokeURL, times: 2, respond: HTTPResponse(status: 200))
    let run = fixture.run(["logout"], transport: transport)
    #expect(run.status == .success)
    #expect(run.stderr == "Logged out of auth.example.org as octocat; the token was revoked at auth.example.org\n")
    let sent = transport.requests
    #expect(sent.count == 2)
    #expect(
      sent.map { $0.formParameters.map { "\($0.name)=\($0.value)" } } == [
        ["token=\(Self.refresh)", "token_type_hint=refresh_token"],
        ["token=\(Self.token)", "token_type_hint=access_token"],
      ])
    for request in sent {
      #expect(request.headers["Authorization"] == "Basic " + Crypto.base64(Array("app1:s3cret".utf8)))
      #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
    }
    #expect(try fixture.load().hosts.isEmpty)
  }

  /// A public client (no secret) identifies itself with `client_id` in the body (RFC 6749 §2.3.1).
  @Test func aPublicClientSendsItsClientIDInTheBody() throws {
    let fixture = try loggedIn(config: Self.config(secret: false))
    let transport = FakeTransport()
    transport.on("POST", Self.revokeURL, times: 2, respond: HTTPResponse(status: 200))
    let run = fixture.run(["logout"], transport: transport)
    #expect(run.stderr == "Logged out of auth.example.org as octocat; the token was revoked at auth.example.org\n")
    for request in transport.requests {
      #expect(request.headers["Authorization"] == nil)
      #expect(request.formParameters.last.map { "\($0.name)=\($0.value)" } == "client_id=app1")
    }
  }

  /// The refresh token's revocation fails: the access token is still sent, and the message says
  /// the token may still be valid, with the exit status of a failed revocation (0).
  @Test func aFailureOnTheRefreshTokenStillSendsTheAccessTokenAndWarns() throws {
    let fixture = try loggedIn(config: Self.config())
    let transport = FakeTransport()
    transport.on("POST", Self.revokeURL, respond: .json(#"{"error":"temporarily_unavailable"}"#, status: 503))
    transport.on("POST", Self.revokeURL, respond: HTTPResponse(status: 200))
    let run = fixture.run(["logout"], transport: transport)
    #expect(run.status == .success)
    #expect(
      run.stderr
        == "ghlogin: warning: could not revoke the token at auth.example.org: token revocation at revocation_url "
        + "\(Self.revokeURL): auth.example.org answered HTTP 503; try again later. The token may still be valid; "
        + "\(Self.byHand)\nLogged out of auth.example.org as octocat\n")
    #expect(transport.requests.map { $0.formParameters.first?.value } == [Self.refresh, Self.token])
    #expect(!run.stderr.contains(Self.token) && !run.stderr.contains(Self.refresh))
    #expect(try fixture.load().hosts.isEmpty)
  }

  @Test func anRFC7009ErrorCodeIsNamed() throws {
    let fixture = try loggedIn(config: Self.config())
    let transport = FakeTransport()
    transport.on("POST", Self.revokeURL, respond: HTTPResponse(status: 200))
    transport.on("POST", Self.revokeURL, respond: .json(#"{"error":"unsupported_token_type"}"#, status: 400))
    let run = fixture.run(["logout"], transport: transport)
    #expect(
      run.stderr
        == "ghlogin: warning: could not revoke the token at auth.example.org: token revocation at revocation_url "
        + "\(Self.revokeURL): auth.example.org refused the revocation (HTTP 400, unsupported_token_type). The token "
        + "may still be valid; \(Self.byHand)\nLogged out of auth.example.org as octocat\n")
  }

  /// The attack: a server that is not GitHub answers 404 to GitHub's route (django-oauth-toolkit
  /// does). That confirms nothing: never "no longer knew the token".
  @Test func aNotFoundFromAServerThatIsNotGitHubIsNoConfirmation() throws {
    let fixture = try loggedIn(config: Self.config(revocation: false))
    let transport = FakeTransport()
    transport.on("DELETE", Self.gitHubRouteURL, respond: .typed("text/html", "<h1>Not Found</h1>", status: 404))
    let run = fixture.run(["logout"], transport: transport)
    #expect(run.status == .success)
    #expect(
      run.stderr
        == "ghlogin: warning: could not revoke the token at auth.example.org: token revocation at api_url "
        + "https://auth.example.org/api: auth.example.org answered HTTP 404: it does not offer GitHub's token "
        + "revocation; for a server with an RFC 7009 revocation endpoint, set revocation_url. The token may still "
        + "be valid; \(Self.byHand). To revoke at logout, give its RFC 7009 revocation endpoint: "
        + "ghlogin config set revocation_url URL\nLogged out of auth.example.org as octocat\n")
    #expect(!run.stderr.contains("no longer knew"))
    #expect(try fixture.load().hosts.isEmpty)
  }

  @Test func aServerThatIsNotGitHubWithNeitherSecretNorRevocationURLSaysWhatIsMissing() throws {
    let fixture = try loggedIn(config: Self.config(secret: false, revocation: false))
    let run = fixture.run(["logout"])
    #expect(run.status == .success)
    #expect(
      run.stderr
        == "Logged out of auth.example.org as octocat. The token was removed from this machine but not revoked, "
        + "because no revocation_url is configured: it stays valid until it expires or you revoke it at the server "
        + "that issued it. To revoke at logout, give its RFC 7009 revocation endpoint: "
        + "ghlogin config set revocation_url URL\n")
  }

  /// `revocation_url` wins wherever it is set, github.com included: no DELETE is sent.
  @Test func revocationURLWinsOnGitHubToo() throws {
    let config =
      #"{"client_id": "Iv1.client", "client_secret": "the-secret", "revocation_url": "https://github.com/r"}"#
    let fixture = try LifecycleFixture(config: config)
    try fixture.seed(sampleCredential(token: Self.token))
    let transport = FakeTransport()
    transport.on("POST", "https://github.com/r", respond: HTTPResponse(status: 200))
    let run = fixture.run(["logout"], transport: transport)
    #expect(run.stderr == "Logged out of github.com as octocat; the token was revoked at github.com\n")
    #expect(transport.requests.map(\.method) == ["POST"])
  }

  /// In a hosts block, the key applies to that host only.
  @Test func revocationURLInAHostsBlock() throws {
    let config =
      #"{"hosts": {"auth.example.org": {"client_id": "app1", "api_url": "https://auth.example.org/api", "#
      + #""revocation_url": "https://auth.example.org/o/revoke_token/"}}}"#
    let fixture = try loggedIn(config: config)
    let transport = FakeTransport()
    transport.on("POST", Self.revokeURL, times: 2, respond: HTTPResponse(status: 200))
    let run = fixture.run(["logout", "--host", Self.host], transport: transport)
    #expect(run.stderr == "Logged out of auth.example.org as octocat; the token was revoked at auth.example.org\n")
  }

  /// The library's configuration takes the same parameter.
  @Test func theLibraryConfigurationTakesRevocationURL() throws {
    let configuration = GitHubLoginConfiguration(
      clientID: "app1", host: Self.host, authorizeURL: "https://auth.example.org/o/authorize/",
      tokenURL: "https://auth.example.org/o/token/", apiURL: "https://auth.example.org/api",
      revocationURL: Self.revokeURL)
    let config = try configuration.config()
    #expect(config.settings(for: Self.host).revocationURL?.description == Self.revokeURL)
    let insecure = GitHubLoginConfiguration(
      clientID: "app1", host: Self.host, revocationURL: "http://auth.example.org/r")
    #expect(throws: ConfigError.self) { try insecure.config() }
  }

  /// http:// only to a literal loopback address, as for every URL key; at the top level and in a block.
  @Test(arguments: [
    #"{"revocation_url": "http://auth.example.org/r"}"#,
    #"{"hosts": {"a.test": {"revocation_url": "http://localhost/r"}}}"#,
  ])
  func plainHTTPIsRefusedOutsideLoopback(_ config: String) throws {
    let fixture = try LifecycleFixture(config: config)
    try fixture.seed(sampleCredential(token: Self.token))
    let before = fixture.fileBytes
    let run = fixture.run(["logout"])
    #expect(run.status == .usage)
    #expect(run.stderr.contains("revocation_url"))
    #expect(fixture.fileBytes == before)
  }

  @Test func aLoopbackRevocationURLIsAccepted() throws {
    let config =
      #"{"host": "127.0.0.1:8000", "client_id": "app1", "authorize_url": "http://127.0.0.1:8000/a", "#
      + #""token_url": "http://127.0.0.1:8000/t", "api_url": "http://127.0.0.1:8000/api", "#
      + #""revocation_url": "http://127.0.0.1:8000/o/revoke_token/"}"#
    let fixture = try LifecycleFixture(config: config)
    try fixture.seed(sampleCredential(token: Self.token), host: "127.0.0.1:8000")
    let transport = FakeTransport()
    transport.on("POST", "http://127.0.0.1:8000/o/revoke_token/", respond: HTTPResponse(status: 200))
    let run = fixture.run(["logout"], transport: transport)
    #expect(run.stderr == "Logged out of 127.0.0.1:8000 as octocat; the token was revoked at 127.0.0.1:8000\n")
  }

  /// R87: a top-level revocation_url must be on the host the endpoints share.
  @Test func aTopLevelRevocationURLOnAnotherHostIsAmbiguous() throws {
    let config = #"{"client_id": "app1", "revocation_url": "https://evil.example/r"}"#
    let fixture = try LifecycleFixture(config: config)
    try fixture.seed(sampleCredential(token: Self.token))
    let before = fixture.fileBytes
    let run = fixture.run(["logout"])
    #expect(run.status == .usage)
    #expect(run.stderr.contains("revocation_url evil.example"))
    #expect(fixture.fileBytes == before)
  }
}
