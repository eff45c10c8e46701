import Foundation
import Testing

/// Logout against a real RFC 7009 server, django-oauth-toolkit (R103): a login
/// with ghlogin's browser flow (PKCE S256, loopback redirect on any port), then `logout`.
@Suite(
  .enabled(if: OAuthToolkitServer.isAvailable, Comment(rawValue: OAuthToolkitServer.unavailableReason ?? "")),
  .serialized)
struct OAuthToolkitEndToEndTests {
  let server: OAuthToolkitServer

  init() throws { server = try OAuthToolkitServer.shared.get() }

  /// A sandbox whose config points at the server, logged in through `ghlogin auth`; the stored
  /// access and refresh tokens.
  func loggedIn(revocation: Bool, publicClient: Bool = false) throws -> (
    sandbox: Sandbox, token: String, refresh: String
  ) {
    let fake = try FakeGitHub.start()  // only for the sandbox's paths; nothing is sent to it
    let sandbox = try Sandbox(fake: fake)
    let config = server.config(revocation: revocation, publicClient: publicClient)
    let data = try JSONSerialization.data(withJSONObject: config, options: [.sortedKeys])
    try data.write(to: URL(fileURLWithPath: sandbox.configFile))
    let child = try startGHLogin(["auth", "--no-browser"], env: sandbox.environment(), stdin: "")
    let url = try child.waitForLine(.stderr, timeout: 30) { $0.hasPrefix(server.base + "/o/authorize/?") }
    let browser = try server.approve(url)
    #expect(browser["authorize"] as? Int == 302, "\(browser)")
    #expect(browser["callback"] as? Int == 200, "\(browser)")
    let result = try child.finish(timeout: 30)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("Logged in to \(server.host) as octocat\n"), "\(result.stderr)")
    let account = try #require(sandbox.storedAccounts(host: server.host).first)
    let token = try #require(account["token"] as? String)
    let refresh = try #require(account["refresh_token"] as? String)
    #expect(try server.userStatus(token) == 200)
    return (sandbox, token, refresh)
  }

  /// With revocation_url: the refresh token, then the access token, at DOT's /o/revoke_token/;
  /// afterwards the token no longer works on /api/user, introspection says inactive, and the
  /// refresh token no longer refreshes.
  @Test func logoutWithRevocationURLRevokesBothTokens() throws {
    let (sandbox, token, refresh) = try loggedIn(revocation: true)
    try server.clearLog()
    let result = try runGHLogin(["logout"], env: sandbox.environment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "Logged out of \(server.host) as octocat; the token was revoked at \(server.host)\n")
    let sent = try server.log()
    #expect(sent.map { $0["path"] as? String } == ["/o/revoke_token/", "/o/revoke_token/"])
    #expect(
      sent.map { $0["body"] as? String } == [
        "token=\(refresh)&token_type_hint=refresh_token", "token=\(token)&token_type_hint=access_token",
      ])
    let basic = "Basic " + Data("\(server.clientID):\(server.clientSecret)".utf8).base64EncodedString()
    #expect(sent.allSatisfy { $0["authorization"] as? String == basic && $0["status"] as? Int == 200 })
    #expect(try server.userStatus(token) == 401)
    #expect(try server.isActive(token) == false)
    let again = try server.refresh(refresh)
    #expect(again.status == 400 && again.error == "invalid_grant", "\(again)")
    #expect(sandbox.storedAccounts(host: server.host).isEmpty)
  }

  /// Without revocation_url: GitHub's route answers 404 there, which confirms nothing. The
  /// message says so, and the tokens do still work.
  @Test func logoutWithoutRevocationURLSaysTheTokenMayStillBeValid() throws {
    let (sandbox, token, refresh) = try loggedIn(revocation: false)
    let result = try runGHLogin(["logout"], env: sandbox.environment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr
        == "ghlogin: warning: could not revoke the token at \(server.host): token revocation at api_url "
        + "\(server.base)/api: \(server.host) answered HTTP 404: it does not offer GitHub's token revocation; "
        + "for a server with an RFC 7009 revocation endpoint, set revocation_url. The token may still be valid; "
        + "revoke it by hand at the server that issued it. To revoke at logout, give its RFC 7009 revocation "
        + "endpoint: ghlogin config set revocation_url URL\nLogged out of \(server.host) as octocat\n")
    #expect(!result.stderr.contains(token) && !result.stderr.contains(refresh))
    #expect(!result.stderr.contains("no longer knew"))
    #expect(sandbox.storedAccounts(host: server.host).isEmpty)
    #expect(try server.userStatus(token) == 200)
    #expect(try server.refresh(refresh).status == 200)
  }

  /// A public client (no secret) revokes with `client_id` in the body, which DOT accepts for a
  /// public Application (RFC 6749 §2.3.1, RFC 7009 §2.1).
  @Test func aPublicClientRevokesWithItsClientIDInTheBody() throws {
    let (sandbox, token, refresh) = try loggedIn(revocation: true, publicClient: true)
    try server.clearLog()
    let result = try runGHLogin(["logout"], env: sandbox.environment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "Logged out of \(server.host) as octocat; the token was revoked at \(server.host)\n")
    let sent = try server.log()
    #expect(
      sent.map { $0["body"] as? String } == [
        "token=\(refresh)&token_type_hint=refresh_token&client_id=\(server.publicClientID)",
        "token=\(token)&token_type_hint=access_token&client_id=\(server.publicClientID)",
      ])
    #expect(sent.allSatisfy { $0["authorization"] is NSNull && $0["status"] as? Int == 200 }, "\(sent)")
    #expect(try server.userStatus(token) == 401)
    #expect(try server.refresh(refresh, publicClient: true).error == "invalid_grant")
  }
}
