import Foundation
import Testing

/// GitHub Enterprise Server hosts with their default endpoints (R48), and trusting a private
/// CA through `ca_file` or `SSL_CERT_FILE`.
@Suite struct HostsEndToEndTests {
  static let token = "gho_e2eHOSTStoken000000000000000000000001"

  /// A sandbox whose config names only the app and `ghe.test:PORT`: every endpoint is derived.
  func enterprise() throws -> (FakeGitHub, Sandbox, String) {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    let host = "ghe.test:\(fake.port)"
    try sandbox.writeConfig([
      "host": host, "authorize_url": NSNull(), "token_url": NSNull(), "device_code_url": NSNull(),
      "api_url": NSNull(),
    ])
    return (fake, sandbox, host)
  }

  /// R48: refresh at https://ghe.test:PORT/login/oauth/access_token, /user under /api/v3, and
  /// revocation under /api/v3, all on the Enterprise host itself.
  @Test func enterpriseTokenLifecycleUsesDerivedEndpoints() throws {
    let (fake, sandbox, host) = try enterprise()
    let old = "ghu_e2eGHEold000000000000000000000000001"
    let refresh = "ghr_e2eGHErefresh00000000000000000000000000000000000000000000000000001"
    try fake.registerExpiringPair(access: old, refresh: refresh)
    try sandbox.writeCredentials(host: host, [expiringAccount(token: old, refresh: refresh, expiresIn: 30)])

    let token = try runGHLogin(["token"], env: sandbox.environment())
    #expect(token.status == 0, "\(token.stderr)")
    let new = token.stdout.trimmingCharacters(in: .newlines)
    #expect(new.hasPrefix("ghu_") && new != old)

    let whoami = try runGHLogin(["whoami", "--host", host.uppercased()], env: sandbox.environment())
    #expect(whoami.status == 0, "\(whoami.stderr)")
    #expect(whoami.stdout == "octocat (The Octocat) on \(host)\n")

    let logout = try runGHLogin(["logout"], env: sandbox.environment())
    #expect(logout.status == 0, "\(logout.stderr)")
    #expect(logout.stderr == "Logged out of \(host) as octocat; the token was revoked at \(host)\n")

    let requests = try fake.requests()
    #expect(
      requests.map { "\($0["method"] as? String ?? "") \($0["path"] as? String ?? "")" } == [
        "POST /login/oauth/access_token", "GET /api/v3/user", "DELETE /api/v3/applications/Iv1.testclient/token",
      ])
    #expect(requests.allSatisfy { $0["sni"] as? String == "ghe.test" })
    #expect(requests.allSatisfy { $0.header("Host") == host })
    #expect(requests.map { $0["status"] as? Int } == [200, 200, 204])
  }

  /// R48: `auth` on an Enterprise host sends the browser to its own authorize endpoint.
  @Test func enterpriseLoginUsesItsOwnAuthorizeURL() throws {
    let (fake, sandbox, host) = try enterprise()
    let child = try startGHLogin(["auth", "--no-browser"], env: sandbox.environment(), stdin: "")
    let url = try child.waitForLine(.stderr, timeout: 30) { $0.hasPrefix("https://") }
    #expect(url.hasPrefix("https://\(host)/login/oauth/authorize?"))
    _ = try runBrowser(url: url, fake: fake)
    let result = try child.finish(timeout: 30)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.hasSuffix("Logged in to \(host) as octocat\nTo let git use this login: ghlogin setup-git\n"))
    #expect(sandbox.storedAccounts(host: host).count == 1)
    let paths = try fake.requests().map { $0["path"] as? String ?? "" }
    #expect(paths == ["/login/oauth/authorize", "/login/oauth/access_token", "/api/v3/user"])
  }

  func loggedIn(config: [String: Any] = [:]) throws -> (FakeGitHub, Sandbox) {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig(config)
    try fake.register(["tokens": [["access_token": Self.token, "login": "octocat"]]])
    try sandbox.writeCredentials([["login": "octocat", "token": Self.token]])
    return (fake, sandbox)
  }

  /// A private CA given only through the config's top-level `ca_file` (no SSL_CERT_FILE).
  @Test func aPrivateCAFromTopLevelCAFile() throws {
    let (_, sandbox) = try loggedIn(config: ["ca_file": try TestCertificates.directory() + "/ca.pem"])
    let result = try runGHLogin(["whoami"], env: sandbox.environment(["SSL_CERT_FILE": ""]))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "octocat (The Octocat) on github.test\n")
  }

  /// The same through the host's own block.
  @Test func aPrivateCAFromThePerHostCAFile() throws {
    let caFile = try TestCertificates.directory() + "/ca.pem"
    let (_, sandbox) = try loggedIn(config: ["hosts": ["github.test": ["ca_file": caFile]]])
    let result = try runGHLogin(["whoami"], env: sandbox.environment(["SSL_CERT_FILE": ""]))
    #expect(result.status == 0, "\(result.stderr)")
  }

  /// Without the CA anywhere, the handshake fails and nothing is sent (the control for the
  /// two tests above).
  @Test func withoutThePrivateCATheConnectionFails() throws {
    let (fake, sandbox) = try loggedIn()
    let result = try runGHLogin(["whoami"], env: sandbox.environment(["SSL_CERT_FILE": ""]))
    #expect(result.status == 1)
    #expect(result.stderr.contains("TLS connection to api.github.test failed"))
    #expect(try fake.requests().isEmpty)
  }

  /// SSL_CERT_FILE still works on its own.
  @Test func sslCertFileStillWorks() throws {
    let (fake, sandbox) = try loggedIn()
    #expect(sandbox.environment()["SSL_CERT_FILE"] == fake.caFile)
    let result = try runGHLogin(["whoami"], env: sandbox.environment())
    #expect(result.status == 0, "\(result.stderr)")
  }

  /// A `ca_file` that cannot be loaded is a configuration error (exit 2); nothing is sent.
  @Test func aMissingCAFileIsReported() throws {
    let (fake, sandbox) = try loggedIn(config: ["ca_file": "/nonexistent/ca.pem"])
    let result = try runGHLogin(["whoami"], env: sandbox.environment())
    #expect(result.status == 2)
    #expect(result.stderr.contains("/nonexistent/ca.pem"))
    #expect(try fake.requests().isEmpty)
  }

  /// R49: logged in to github.test only; a subdomain gets nothing and nothing is sent.
  @Test func noTokenForAnotherHost() throws {
    let (fake, sandbox) = try loggedIn()
    for host in ["tuf-repo.github.test", "gist.evil.test"] {
      let result = try runGHLogin(
        ["token", "--host", host], env: sandbox.environment(["GH_TOKEN": "gho_env", "GITHUB_TOKEN": "gho_env"]))
      #expect(result.status == 4)
      #expect(result.stdout.isEmpty)
    }
    #expect(try fake.requests().isEmpty)
  }
}
