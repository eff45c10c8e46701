import Foundation
import Testing

/// Real git with an installation token from `ghlogin app token --repo` (issue 34 §3): the git
/// server (Tests/Scripts/git_http_server.py) asks the fake which repositories and permissions the
/// token has and refuses as GitHub does. The token reaches git from the environment, not argv.
@Suite struct AppTokenGitEndToEndTests {
  let fake: FakeGitHub
  let sandbox: Sandbox
  let git: GitSandbox
  let server: ChildProcess
  let host: String
  let certificates: String
  let keyFile: String

  init() throws {
    fake = try FakeGitHub.start()
    sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    keyFile = sandbox.home + "/app.pem"
    try #require(AppTokenEndToEndTests.openssl(["genrsa", "-out", keyFile, "2048"]).status == 0)
    #expect(chmod(keyFile, 0o600) == 0)
    try fake.script([
      "installations": [
        "public_key": try AppTokenEndToEndTests.publicKey(keyFile),
        "list": [
          [
            "id": 7, "account": "acme", "permissions": ["contents": "write", "metadata": "read"],
            "repositories": ["acme/api", "acme/secret"],
          ]
        ],
      ]
    ])
    git = try GitSandbox()
    let server = try GitHTTPServer.acme(readme: "installed\n", in: git, fake: fake)
    (self.server, host, certificates) = (server.process, server.host, server.certificates)
  }

  func run(_ arguments: [String], token: String) throws -> (status: Int32, stdout: String, stderr: String) {
    let helper = #"!f() { test "$1" = get && printf 'username=x-access-token\npassword=%s\n' "$MINTED"; }; f"#
    return try git.git(
      ["-c", "credential.helper=", "-c", "credential.helper=" + helper] + arguments,
      env: ["MINTED": token, "GIT_SSL_CAINFO": certificates + "/ca.pem"])
  }

  @Test func anInstallationTokenClonesItsRepositoryOnly() throws {
    let minted = try runGHLogin(
      [
        "app", "token", "--app", "Iv23liTestAppKey", "--key", keyFile, "--repo", "acme/api", "--permission",
        "contents:read",
      ],
      env: sandbox.environment())
    #expect(minted.status == 0, "\(minted.stderr)")
    let token = minted.stdout.trimmingCharacters(in: .newlines)
    #expect(token.hasPrefix("ghs_"))

    let allowed = try run(["clone", "-q", "https://\(host)/acme/api.git", git.home + "/api"], token: token)
    #expect(allowed.status == 0, "\(allowed.stderr)")
    #expect(try String(contentsOfFile: git.home + "/api/README", encoding: .utf8) == "installed\n")

    let other = try run(["clone", "-q", "https://\(host)/acme/secret.git", git.home + "/secret"], token: token)
    #expect(other.status != 0)
    #expect(!FileManager.default.fileExists(atPath: git.home + "/secret/README"))
    #expect(server.text(.stderr).contains("404 GET /acme/secret.git/info/refs?service=git-upload-pack auth=scoped"))
    #expect(!allowed.stderr.contains(token) && !other.stderr.contains(token))
  }
}
