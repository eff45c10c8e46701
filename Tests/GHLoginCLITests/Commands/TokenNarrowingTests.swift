import Testing

import GHLoginTestSupport

@testable import GHLoginCLI

/// `token --repo` and `env --repo` (issue 34, first slice): a token GitHub narrowed, checked to be
/// exactly what was asked (R113, T98), minted from a GitHub App's user token (R30).
@Suite(.verifiesFakes) struct TokenNarrowingTests {
  static let token = "ghu_PARENTtoken000000000000000000000000001"
  static let narrowed = "ghu_NARROWEDtoken00000000000000000000000001"
  static let scopedURL = "https://api.github.com/applications/app1/token/scoped"
  static let revokeURL = "https://api.github.com/applications/app1/token"
  static let basic = "Basic " + Crypto.base64(Array("app1:s3cret".utf8))

  static func config(secret: Bool = true, clientID: String = "app1") -> String {
    #"{"client_id": "\#(clientID)""# + (secret ? #", "client_secret": "s3cret""# : "") + "}"
  }

  func loggedIn(config: String = Self.config(), issuer: String? = "app1") throws -> LifecycleFixture {
    let fixture = try LifecycleFixture(config: config)
    var credential = sampleCredential(token: Self.token)
    credential.clientID = issuer
    try fixture.seed(credential)
    return fixture
  }

  static func answer(
    permissions: String = #"{"contents":"read","metadata":"read"}"#, selection: String = "selected",
    repositories: String? = #"[{"name":"api","full_name":"acme/api"}]"#, url: String? = nil
  ) -> HTTPResponse {
    var installation = [#""permissions":\#(permissions)"#, #""repository_selection":"\#(selection)""#]
    if let repositories { installation.append(#""repositories":\#(repositories)"#) }
    if let url { installation.append(#""repositories_url":"\#(url)""#) }
    return .json(
      #"{"token":"\#(narrowed)","expires_at":"2023-11-15T06:13:20Z","installation":{"#
        + installation.joined(separator: ",") + "}}", status: 201)
  }

  @Test func printsTheNarrowedTokenAfterOneRequest() throws {
    let fixture = try loggedIn()
    let transport = FakeTransport()
    transport.on("POST", Self.scopedURL, respond: Self.answer())
    let run = fixture.run(["token", "--repo", "acme/api", "--permission", "contents:read"], transport: transport)
    #expect(run.status == .success)
    #expect(run.stdout == Self.narrowed + "\n")
    #expect(run.stderr.isEmpty)
    let sent = try #require(transport.requests.first)
    #expect(sent.headers["Authorization"] == Self.basic)
    #expect(sent.headers["Content-Type"] == "application/json")
    #expect(
      String(decoding: sent.body, as: UTF8.self)
        == #"{"access_token":"\#(Self.token)","target":"acme","repositories":["api"],"permissions":{"contents":"read"}}"#
    )
  }

  @Test func envExportsTheNarrowedToken() throws {
    let fixture = try loggedIn()
    let transport = FakeTransport()
    transport.on("POST", Self.scopedURL, respond: Self.answer(permissions: "{}"))
    let run = fixture.run(["env", "--repo", "acme/api"], transport: transport)
    #expect(run.status == .success)
    #expect(run.stdout == "export GH_TOKEN='\(Self.narrowed)'\nexport GITHUB_TOKEN='\(Self.narrowed)'\n")
    // Without --permission the body asks for none, and only the repositories are compared.
    #expect(!String(decoding: transport.requests[0].body, as: UTF8.self).contains("permissions"))
  }

  /// T98: asked for contents:read, granted contents:write: revoked, nothing printed, exit 1.
  @Test func aWiderGrantIsRevokedAndNothingPrinted() throws {
    let fixture = try loggedIn()
    let transport = FakeTransport()
    transport.on("POST", Self.scopedURL, respond: Self.answer(permissions: #"{"contents":"write","metadata":"read"}"#))
    transport.on("DELETE", Self.revokeURL, respond: HTTPResponse(status: 204))
    let run = fixture.run(["token", "--repo", "acme/api", "--permission", "contents:read"], transport: transport)
    #expect(run.status == .failure)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr
        == "ghlogin: the token GitHub minted on github.com is not the narrowed token asked for: GitHub granted the "
        + "permissions contents:write,metadata:read, not contents:read; it was revoked and not used\n")
    let revocation = transport.requests[1]
    #expect(String(decoding: revocation.body, as: UTF8.self) == #"{"access_token":"\#(Self.narrowed)"}"#)
    #expect(revocation.headers["Authorization"] == Self.basic)
  }

  @Test(arguments: [
    (Self.answer(selection: "all"), "GitHub granted the repository selection 'all', not 'selected'"),
    (
      Self.answer(repositories: #"[{"full_name":"acme/api"},{"full_name":"acme/secret"}]"#),
      "GitHub granted the repositories [acme/api, acme/secret], not the 1 asked for"
    ),
    (
      Self.answer(repositories: nil),
      "GitHub's answer names neither the token's repositories nor where to read them"
    ),
    (
      Self.answer(repositories: nil, url: "https://evil.example/installation/repositories"),
      "GitHub's answer lists the token's repositories at https://evil.example/installation/repositories, which is "
        + "not https on the api_url's origin; it was not read"
    ),
  ])
  func anythingElseIsRevoked(_ answer: HTTPResponse, _ problem: String) throws {
    let fixture = try loggedIn()
    let transport = FakeTransport()
    transport.on("POST", Self.scopedURL, respond: answer)
    transport.on("DELETE", Self.revokeURL, respond: HTTPResponse(status: 204))
    let run = fixture.run(["token", "--repo", "acme/api", "--permission", "contents:read"], transport: transport)
    #expect(run.status == .failure)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr
        == "ghlogin: the token GitHub minted on github.com is not the narrowed token asked for: \(problem); "
        + "it was revoked and not used\n")
  }

  /// `repositories_url` on the API's origin is read with the new token, page after page.
  @Test func readsRepositoriesURLPages() throws {
    let fixture = try loggedIn()
    let transport = FakeTransport()
    let first = "https://api.github.com/installation/repositories"
    let second = "https://api.github.com/installation/repositories?page=2"
    transport.on("POST", Self.scopedURL, respond: Self.answer(repositories: nil, url: first))
    transport.on(
      "GET", first,
      respond: .json(
        #"{"total_count":2,"repositories":[{"full_name":"acme/api"}]}"#,
        headers: [("Link", "<\(second)>; rel=\"next\", <\(second)>; rel=\"last\"")]))
    transport.on("GET", second, respond: .json(#"{"total_count":2,"repositories":[{"full_name":"acme/web"}]}"#))
    let run = fixture.run(
      ["token", "--repo", "acme/api,acme/web", "--permission", "contents:read"], transport: transport)
    #expect(run.status == .success)
    #expect(run.stdout == Self.narrowed + "\n")
    #expect(transport.requests[1].headers["Authorization"] == "Bearer \(Self.narrowed)")
  }

  @Test func notAnAppUserToken() throws {
    let fixture = try loggedIn()
    let transport = FakeTransport()
    transport.on("POST", Self.scopedURL, respond: .json(#"{"message":"Not Found"}"#, status: 404))
    let run = fixture.run(["token", "--repo", "acme/api"], transport: transport)
    #expect(run.status == .usage)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr
        == "ghlogin: scoped token request at api_url https://api.github.com/: github.com answered HTTP 404: the "
        + "login's token cannot be narrowed. Only a GitHub App's user token can (not an OAuth app's token or a "
        + "personal access token), and only while it is valid; log in with a GitHub App whose client_secret is "
        + "configured\n")
  }

  @Test(arguments: [
    (
      [("Retry-After", "120")], 429,
      "github.com answered HTTP 429: GitHub's rate limit is exhausted; try again in 2 minutes"
    ),
    (
      [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "1700000090")], 403,
      "github.com answered HTTP 403: GitHub's rate limit is exhausted; try again in 90 seconds"
    ),
  ])
  func rateLimitsSayHowLongToWait(_ headers: [(String, String)], _ status: Int, _ message: String) throws {
    let fixture = try loggedIn()
    let transport = FakeTransport()
    transport.on(
      "POST", Self.scopedURL, respond: .json(#"{"message":"rate limited"}"#, status: status, headers: headers))
    let run = fixture.run(["token", "--repo", "acme/api"], transport: transport)
    #expect(run.status == .failure)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == "ghlogin: scoped token request at api_url https://api.github.com/: \(message)\n")
  }

  @Test func withoutAClientSecretNothingIsSent() throws {
    let fixture = try loggedIn(config: Self.config(secret: false))
    let run = fixture.run(["token", "--repo", "acme/api"], transport: NoNetwork())
    #expect(run.status == .usage)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr
        == "ghlogin: the login octocat on github.com cannot be narrowed: no client_secret is configured for the app "
        + "app1; narrowing needs a login made with a GitHub App whose client_id and client_secret are configured "
        + "for github.com\n")
  }

  /// Another app's login is not this app's to use (issue 33 §1, R111): not logged in.
  @Test func aLoginOfAnotherAppIsNotUsed() throws {
    let fixture = try loggedIn(issuer: "other-app")
    let run = fixture.run(["token", "--repo", "acme/api"], transport: NoNetwork())
    #expect(run.status == .notLoggedIn)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == "ghlogin: not logged in to github.com; run 'ghlogin auth'\n")
  }

  @Test func aTokenStoredAsGivenIsRefused() throws {
    let fixture = try loggedIn(issuer: nil)
    let run = fixture.run(["token", "--repo", "acme/api"], transport: NoNetwork())
    #expect(run.status == .usage)
    #expect(run.stderr.contains("it records no app (a token stored as given, not a GitHub App's login)"))
  }

  @Test(arguments: [
    (["--repo", "acme"], "--repo: the repository 'acme' is not OWNER/NAME"),
    (
      ["--repo", "acme/api,other/web"],
      "--repo: every repository must have the same owner (the token's target), not both 'acme' and 'other'"
    ),
    (
      ["--repo", "acme/api", "--permission", "content:read"],
      "--permission: 'content' is not a GitHub App permission; did you mean 'contents'? (the list known here is GitHub's of 2026-12-05; GitHub may have added names since)"
    ),
    (["--permission", "contents:read"], "--permission narrows a token only with --repo"),
    (["--repo", ""], "--repo needs at least one OWNER/NAME"),
  ])
  func badValuesAreUsageErrors(_ arguments: [String], _ message: String) throws {
    let fixture = try loggedIn()
    let run = fixture.run(["token"] + arguments, transport: NoNetwork())
    #expect(run.status == .usage)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix("ghlogin token: \(message)\n"))
  }
}

extension TokenNarrowingTests {
  /// The minted token is wider and its revocation fails: still nothing printed, exit 1, and the
  /// message says the token was not used, when it expires, and why it could not be revoked.
  @Test func aFailedRevocationIsSaid() throws {
    let fixture = try loggedIn()
    let transport = FakeTransport()
    transport.on("POST", Self.scopedURL, respond: Self.answer(selection: "all"))
    transport.on("DELETE", Self.revokeURL, respond: HTTPResponse(status: 500))
    let run = fixture.run(["token", "--repo", "acme/api", "--permission", "contents:read"], transport: transport)
    #expect(run.status == .failure)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr
        == "ghlogin: the token GitHub minted on github.com is not the narrowed token asked for: GitHub granted the "
        + "repository selection 'all', not 'selected'; it was not used, but revoking it failed (it expires at "
        + "2023-11-15T06:13:20Z): token revocation at api_url https://api.github.com/: github.com answered HTTP 500; "
        + "try again later\n")
  }

  @Test func headerLine() throws {
    let fixture = try loggedIn()
    let transport = FakeTransport()
    transport.on("POST", Self.scopedURL, respond: Self.answer())
    let run = fixture.run(
      ["token", "--header", "--repo", "acme/api", "--permission", "contents:read"], transport: transport)
    #expect(run.stdout == "Authorization: Bearer \(Self.narrowed)\n")
  }
}
