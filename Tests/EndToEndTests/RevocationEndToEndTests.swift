import Foundation
import Testing

/// Logout with revocation at the fake (R45, R46), and a new login revoking the token it
/// replaces.
@Suite struct RevocationEndToEndTests {
  static let token = "gho_e2eREVOKEtoken00000000000000000000001"
  /// github.test's endpoints are configured, so ghlogin does not know it is GitHub and knows no
  /// page of its own to name (R103).
  static let manual = "the server that issued it"

  func loggedIn() throws -> (FakeGitHub, Sandbox) { try FakeGitHub.loggedIn(token: Self.token) }

  /// R45, R46: DELETE /applications/Iv1.testclient/token with Basic auth and the JSON body; the
  /// fake answers 204 and the token is dead there; the local entry is gone.
  @Test func logoutRevokesAtGitHub() throws {
    let (fake, sandbox) = try loggedIn()
    let result = try runGHLogin(["logout"], env: sandbox.environment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "Logged out of github.test as octocat; the token was revoked at github.test\n")
    let request = try #require(try fake.requests(path: "/applications/Iv1.testclient/token").first)
    #expect(request["method"] as? String == "DELETE")
    #expect(request["sni"] as? String == "api.github.test")
    #expect(request["status"] as? Int == 204)
    #expect(
      request.header("Authorization") == "Basic " + Data("Iv1.testclient:testsecret-s3cr3t".utf8).base64EncodedString())
    #expect(request.header("Content-Type") == "application/json")
    #expect((request["json"] as? [String: Any])?["access_token"] as? String == Self.token)
    #expect(try fake.tokenRecord(Self.token)?["revoked"] as? Bool == true)
    #expect(sandbox.storedAccounts().isEmpty)
    #expect(!String(decoding: sandbox.credentialsBytes() ?? [], as: UTF8.self).contains(Self.token))
  }

  /// R46: the revocation endpoint drops the connection, or answers 422 or 500: the entry is
  /// removed anyway, with a warning and the page to revoke by hand; the token was sent to the
  /// API host only.
  @Test(arguments: ["drop", "422", "500"])
  func logoutRemovesEvenWhenRevocationFails(directive: String) throws {
    let (fake, sandbox) = try loggedIn()
    let answer: Any = Int(directive) ?? directive
    try fake.script(["responses": ["revoke": [answer]]])
    let result = try runGHLogin(["logout"], env: sandbox.environment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("ghlogin: warning: could not revoke the token at github.test: "))
    #expect(result.stderr.contains("The token may still be valid; revoke it by hand at \(Self.manual)\n"))
    #expect(result.stderr.hasSuffix("Logged out of github.test as octocat\n"))
    #expect(!result.stderr.contains(Self.token))
    #expect(sandbox.storedAccounts().isEmpty)
    let requests = try fake.requests()
    #expect(requests.count == 1)
    #expect(requests.allSatisfy { $0["sni"] as? String == "api.github.test" })
    #expect(try fake.tokenRecord(Self.token)?["revoked"] as? Bool == false)
  }

  /// The warning names the step, the config key and the URL of the failed request.
  @Test func aServerErrorWhileRevokingNamesTheStep() throws {
    let (fake, sandbox) = try loggedIn()
    try fake.script(["responses": ["revoke": [502]]])
    let result = try runGHLogin(["logout"], env: sandbox.environment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr.hasPrefix(
        "ghlogin: warning: could not revoke the token at github.test: token revocation at api_url "
          + "\(fake.apiBase)/: github.test answered HTTP 502; try again later."),
      "\(result.stderr)")
    #expect(sandbox.storedAccounts().isEmpty)
  }

  @Test func localOnlySendsNothing() throws {
    let (fake, sandbox) = try loggedIn()
    let result = try runGHLogin(["logout", "--local-only"], env: sandbox.environment())
    #expect(result.status == 0)
    #expect(result.stderr.contains("not revoked (--local-only)"))
    #expect(try fake.requests().isEmpty)
    #expect(sandbox.storedAccounts().isEmpty)
  }

  /// Logging in again as the same account replaces its token and revokes the old one.
  @Test func aNewLoginRevokesTheTokenItReplaces() throws {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    let first = try login(sandbox)
    let second = try login(sandbox)
    #expect(first != second)
    #expect(try fake.tokenRecord(first)?["revoked"] as? Bool == true)
    #expect(try fake.tokenRecord(second)?["revoked"] as? Bool == false)
    #expect(sandbox.storedAccounts().map { $0["token"] as? String } == [second])
    let revoke = try #require(try fake.requests(path: "/applications/Iv1.testclient/token").first)
    #expect((revoke["json"] as? [String: Any])?["access_token"] as? String == first)
  }

  /// When revoking the replaced token fails, the new login still stands, with a warning.
  @Test func aFailedRevocationOfTheReplacedTokenOnlyWarns() throws {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    _ = try login(sandbox)
    try fake.script(["responses": ["revoke": [503]]])
    let child = try startGHLogin(["auth", "--no-browser"], env: sandbox.environment(), stdin: "")
    let url = try child.waitForLine(.stderr, timeout: 30) { $0.hasPrefix("https://") }
    _ = try runBrowser(url: url, fake: fake)
    let result = try child.finish(timeout: 30)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("Logged in to github.test as octocat\n"))
    #expect(result.stderr.contains("ghlogin: warning: could not revoke the previous token of octocat at github.test"))
    #expect(result.stderr.contains(Self.manual))
  }

  /// R103: with revocation_url, RFC 7009 at the fake's standard endpoint: the refresh token, then
  /// the access token, form-encoded with HTTP Basic; both die there, nothing goes to GitHub's route.
  @Test func logoutRevokesAtTheRevocationURLRefreshTokenFirst() throws {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig(["revocation_url": fake.webBase + "/login/oauth/revoke"])
    try fake.script(["token": ["expiring": true]])
    let token = try login(sandbox)
    let refresh = try #require(sandbox.storedAccounts().first?["refresh_token"] as? String)
    try fake.clearLog()
    let result = try runGHLogin(["logout"], env: sandbox.environment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "Logged out of github.test as octocat; the token was revoked at github.test\n")
    let requests = try fake.requests()
    #expect(requests.map { $0["path"] as? String } == ["/login/oauth/revoke", "/login/oauth/revoke"])
    let forms = requests.map { $0["form"] as? [String: [String]] }
    #expect(forms.map { $0?["token"] } == [[refresh], [token]])
    #expect(forms.map { $0?["token_type_hint"] } == [["refresh_token"], ["access_token"]])
    #expect(forms.allSatisfy { $0?["client_secret"] == nil && $0?["client_id"] == nil })
    let basic = "Basic " + Data("Iv1.testclient:testsecret-s3cr3t".utf8).base64EncodedString()
    #expect(requests.allSatisfy { $0.header("Authorization") == basic && $0["status"] as? Int == 200 })
    #expect(try fake.tokenRecord(token)?["revoked"] as? Bool == true)
    #expect(try fake.state()["counters"].flatMap { ($0 as? [String: Any])?["rfc7009_revocations"] as? Int } == 1)
    #expect(sandbox.storedAccounts().isEmpty)
  }

  /// R103: the revocation endpoint fails: the honest warning, exit 0 as for any failed revocation.
  @Test func aFailingRevocationURLSaysTheTokenMayStillBeValid() throws {
    let (fake, sandbox) = try loggedIn()
    try sandbox.writeConfig(["revocation_url": fake.webBase + "/login/oauth/revoke"])
    try fake.script(["responses": ["revoke7009": [503]]])
    let result = try runGHLogin(["logout"], env: sandbox.environment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr
        == "ghlogin: warning: could not revoke the token at github.test: token revocation at revocation_url "
        + "\(fake.webBase)/login/oauth/revoke: github.test answered HTTP 503; try again later. The token may still "
        + "be valid; revoke it by hand at the server that issued it\nLogged out of github.test as octocat\n")
    #expect(!result.stderr.contains(Self.token))
    #expect(try fake.tokenRecord(Self.token)?["revoked"] as? Bool == false)
    #expect(sandbox.storedAccounts().isEmpty)
  }

  /// R103, the attack: a server not known to be GitHub (configured endpoints) answers 404 to
  /// GitHub's route: never "no longer knew the token".
  @Test func aNotFoundOnGitHubsRouteFromAServerNotKnownToBeGitHubConfirmsNothing() throws {
    let (fake, sandbox) = try loggedIn()
    try fake.script(["responses": ["revoke": [404]]])
    let result = try runGHLogin(["logout"], env: sandbox.environment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr
        == "ghlogin: warning: could not revoke the token at github.test: token revocation at api_url "
        + "\(fake.apiBase)/: github.test answered HTTP 404: it does not offer GitHub's token revocation; for a "
        + "server with an RFC 7009 revocation endpoint, set revocation_url. The token may still be valid; revoke it "
        + "by hand at the server that issued it. To revoke at logout, give its RFC 7009 revocation endpoint: "
        + "ghlogin config set revocation_url URL\nLogged out of github.test as octocat\n")
    #expect(!result.stderr.contains("no longer knew"))
    #expect(sandbox.storedAccounts().isEmpty)
  }

  /// Runs `ghlogin auth --no-browser` with the scripted browser; returns the stored token.
  func login(_ sandbox: Sandbox) throws -> String {
    let child = try startGHLogin(["auth", "--no-browser"], env: sandbox.environment(), stdin: "")
    let url = try child.waitForLine(.stderr, timeout: 30) { $0.hasPrefix("https://") }
    let browser = try runBrowser(url: url, fake: sandbox.fake)
    #expect(browser.callbackStatus == 200, "\(browser.report)")
    let result = try child.finish(timeout: 30)
    #expect(result.status == 0, "\(result.stderr)")
    return try #require(sandbox.storedAccounts().first?["token"] as? String)
  }
}
