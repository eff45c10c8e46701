import Foundation
import Testing

/// `ghlogin token --repo` and `env --repo` against the fake's
/// `POST /applications/{client_id}/token/scoped` (issue 34, first slice; R30, R113, T98).
@Suite struct NarrowedTokenEndToEndTests {
  static let token = "ghu_e2eNARROWparent0000000000000000000001"
  static let scopedPath = "/applications/Iv1.testclient/token/scoped"
  static let revokePath = "/applications/Iv1.testclient/token"

  /// octocat logged in with a GitHub App user token of the configured app (`issuer`).
  func loggedIn(issuer: String = "Iv1.testclient", config: [String: Any] = [:]) throws -> (FakeGitHub, Sandbox) {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig(config)
    try fake.register([
      "apps": [["client_id": "Iv1.otherapp", "client_secret": "other-secret"]],
      "tokens": [["access_token": Self.token, "login": "octocat", "kind": "app", "client_id": issuer]],
    ])
    try sandbox.writeCredentials([["login": "octocat", "token": Self.token, "client_id": issuer]])
    return (fake, sandbox)
  }

  /// The scoped tokens the fake minted, by token.
  func scopedTokens(_ fake: FakeGitHub) throws -> [[String: Any]] {
    (try fake.state()["tokens"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "scoped" }
  }

  @Test func printsANarrowedToken() throws {
    let (fake, sandbox) = try loggedIn()
    let result = try runGHLogin(
      ["token", "--repo", "acme/api", "--repo", "acme/web", "--permission", "contents:read"],
      env: sandbox.environment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    let minted = try #require(try scopedTokens(fake).first)
    let narrowed = try #require(minted["access_token"] as? String)
    #expect(result.stdout == narrowed + "\n")
    #expect(narrowed != Self.token)
    #expect(minted["repositories"] as? [String] == ["acme/api", "acme/web"])
    #expect(minted["permissions"] as? [String: String] == ["contents": "read", "metadata": "read"])
    #expect(minted["revoked"] as? Bool == false)
    let request = try #require(try fake.requests(path: Self.scopedPath).first)
    #expect(
      request.header("Authorization") == "Basic " + Data("Iv1.testclient:testsecret-s3cr3t".utf8).base64EncodedString())
    let body = try #require(request["json"] as? [String: Any])
    #expect(body["access_token"] as? String == Self.token)
    #expect(body["target"] as? String == "acme")
    #expect(body["repositories"] as? [String] == ["api", "web"])
    // The answer gave only repositories_url: read on the API's origin with the new token.
    let list = try #require(try fake.requests(path: "/installation/repositories").first)
    #expect(list.header("Authorization") == "Bearer \(narrowed)")
    // The parent token is never printed, nor the narrowed one anywhere but stdout.
    #expect(!result.stdout.contains(Self.token))
  }

  @Test func envExportsTheNarrowedToken() throws {
    let (fake, sandbox) = try loggedIn()
    let result = try runGHLogin(["env", "--repo", "acme/api"], env: sandbox.environment())
    #expect(result.status == 0, "\(result.stderr)")
    let narrowed = try #require(try scopedTokens(fake).first?["access_token"] as? String)
    #expect(result.stdout.contains("export GH_TOKEN='\(narrowed)'\n"))
    #expect(!result.stdout.contains(Self.token))
  }

  /// T98: asked for contents:read, the fake grants contents:write: exit 1, empty stdout, the
  /// minted token revoked at the fake.
  @Test func t98AWiderGrantIsRevoked() throws {
    let (fake, sandbox) = try loggedIn()
    try fake.script(["scoped": ["widen": ["contents": "write"]]])
    let result = try runGHLogin(
      ["token", "--repo", "acme/api", "--permission", "contents:read"], env: sandbox.environment())
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "ghlogin: the token GitHub minted on github.test is not the narrowed token asked for: GitHub granted the "
        + "permissions contents:write,metadata:read, not contents:read; it was revoked and not used\n")
    let minted = try #require(try scopedTokens(fake).first)
    let narrowed = try #require(minted["access_token"] as? String)
    #expect(minted["revoked"] as? Bool == true)
    let revocation = try #require(try fake.requests(path: Self.revokePath).first)
    #expect((revocation["json"] as? [String: Any])?["access_token"] as? String == narrowed)
    #expect(!result.stderr.contains(narrowed) && !result.stderr.contains(Self.token))
    // The parent is untouched.
    #expect(try fake.tokenRecord(Self.token)?["revoked"] as? Bool == false)
  }

  /// repositories_url on another origin: not read (the new token goes nowhere else), revoked.
  @Test func repositoriesURLElsewhereIsRefusedAndRevoked() throws {
    let (fake, sandbox) = try loggedIn()
    try fake.script(["scoped": ["repositories_url_origin": "https://evil.test"]])
    let result = try runGHLogin(["token", "--repo", "acme/api"], env: sandbox.environment())
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "ghlogin: the token GitHub minted on github.test is not the narrowed token asked for: GitHub's answer "
        + "lists the token's repositories at https://evil.test/installation/repositories, which is not https on "
        + "the api_url's origin; it was not read; it was revoked and not used\n")
    #expect(try scopedTokens(fake).first?["revoked"] as? Bool == true)
    #expect(try fake.requests(path: "/installation/repositories").isEmpty)
  }

  /// Another app's login is not this app's to use (issue 33 §1, R111): not logged in, nothing sent.
  @Test func aLoginOfAnotherAppIsNotUsedBeforeAnyRequest() throws {
    let (fake, sandbox) = try loggedIn(issuer: "Iv1.otherapp")
    let result = try runGHLogin(["token", "--repo", "acme/api"], env: sandbox.environment())
    #expect(result.status == 4)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr == "ghlogin: not logged in to github.test; run 'ghlogin auth --host github.test'\n")
    #expect(try fake.requests(path: Self.scopedPath).isEmpty)
  }

  @Test func withoutAClientSecretIsRefusedBeforeAnyRequest() throws {
    let (fake, sandbox) = try loggedIn(config: ["client_secret": NSNull()])
    let result = try runGHLogin(["token", "--repo", "acme/api"], env: sandbox.environment())
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "ghlogin: the login octocat on github.test cannot be narrowed: no client_secret is configured for the "
        + "app Iv1.testclient; narrowing needs a login made with a GitHub App whose client_id and client_secret "
        + "are configured for github.test\n")
    #expect(try fake.requests().isEmpty)
  }

  /// An OAuth app's token: the fake answers 404, as GitHub does; ghlogin says so (never judging
  /// by the prefix, R30).
  @Test func anOAuthAppTokenCannotBeNarrowed() throws {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    try fake.register(["tokens": [["access_token": "ghu_looksLikeAnAppTokenButIsOAuth000001", "login": "octocat"]]])
    try sandbox.writeCredentials([
      ["login": "octocat", "token": "ghu_looksLikeAnAppTokenButIsOAuth000001", "client_id": "Iv1.testclient"]
    ])
    let result = try runGHLogin(["token", "--repo", "acme/api"], env: sandbox.environment())
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("answered HTTP 404: the login's token cannot be narrowed"), "\(result.stderr)")
    #expect(!result.stderr.contains("ghu_looksLikeAnAppTokenButIsOAuth000001"))
  }

  /// A permission above the user token's: the fake refuses (422), nothing is printed.
  @Test func aPermissionAboveTheUsersIsRefusedByGitHub() throws {
    let (fake, sandbox) = try loggedIn()
    let result = try runGHLogin(
      ["token", "--repo", "acme/api", "--permission", "administration:write"], env: sandbox.environment())
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr.hasSuffix(
        "github.test refused the narrowing (HTTP 422) (GitHub said: The permissions requested are not granted to "
          + "this installation.): the login's token may not be a GitHub App's user token, or it cannot see those "
          + "repositories or have those permissions\n"), "\(result.stderr)")
    #expect(try scopedTokens(fake).isEmpty)
  }
}
