import Foundation
import Testing

/// Real git with a narrowed token (issue 34 §3): the git server (Tests/Scripts/git_http_server.py)
/// asks the fake GitHub which repositories and permissions a scoped token has, and refuses as
/// GitHub does. The token reaches git through a credential helper reading it from the
/// environment, never through argv.
@Suite struct NarrowedGitEndToEndTests {
  static let parent = "ghu_e2eNARROWgitParent000000000000000001"

  let fake: FakeGitHub
  let sandbox: Sandbox
  let git: GitSandbox
  let server: ChildProcess
  let host: String
  let certificates: String

  init() throws {
    fake = try FakeGitHub.start()
    sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    try fake.register(["tokens": [["access_token": Self.parent, "login": "octocat", "kind": "app"]]])
    try sandbox.writeCredentials([["login": "octocat", "token": Self.parent, "client_id": "Iv1.testclient"]])
    git = try GitSandbox()
    let root = git.home + "/served"
    try GitHTTPServer.makeRepositories(["acme/api", "acme/secret"], readme: "narrowed\n", served: root, in: git)
    let server = try GitHTTPServer(
      served: root, accounts: [("nobody", "gho_unused000000000000000000000000000000")], in: git,
      environment: ["GIT_SERVER_FAKE_CONTROL": String(fake.controlPort)])
    (self.server, host, certificates) = (server.process, server.host, server.certificates)
  }

  /// git with only a helper that answers the narrowed token from `NARROWED` (not argv).
  func run(_ arguments: [String], token: String) throws -> (status: Int32, stdout: String, stderr: String) {
    let helper = #"!f() { test "$1" = get && printf 'username=x-access-token\npassword=%s\n' "$NARROWED"; }; f"#
    return try git.git(
      ["-c", "credential.helper=", "-c", "credential.helper=" + helper] + arguments,
      env: [
        "NARROWED": token, "GIT_SSL_CAINFO": certificates + "/ca.pem",
        "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com", "GIT_COMMITTER_NAME": "Test",
        "GIT_COMMITTER_EMAIL": "test@example.com",
      ])
  }

  @Test func aNarrowedTokenClonesItsRepositoryOnly() throws {
    let minted = try runGHLogin(
      ["token", "--repo", "acme/api", "--permission", "contents:read"], env: sandbox.environment())
    #expect(minted.status == 0, "\(minted.stderr)")
    let token = minted.stdout.trimmingCharacters(in: .newlines)

    let allowed = try run(["clone", "-q", "https://\(host)/acme/api.git", git.home + "/api"], token: token)
    #expect(allowed.status == 0, "\(allowed.stderr)")
    #expect(try String(contentsOfFile: git.home + "/api/README", encoding: .utf8) == "narrowed\n")

    // Another repository of the same owner: GitHub's 404, and git says so.
    let other = try run(["clone", "-q", "https://\(host)/acme/secret.git", git.home + "/secret"], token: token)
    #expect(other.status != 0)
    #expect(!FileManager.default.fileExists(atPath: git.home + "/secret/README"))
    #expect(server.text(.stderr).contains("404 GET /acme/secret.git/info/refs?service=git-upload-pack auth=scoped"))

    // A push without contents:write: 403.
    try "more\n".write(toFile: git.home + "/api/README", atomically: false, encoding: .utf8)
    #expect(
      try git.git(
        ["-C", git.home + "/api", "commit", "-q", "-am", "second"],
        env: [
          "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com", "GIT_COMMITTER_NAME": "Test",
          "GIT_COMMITTER_EMAIL": "test@example.com",
        ]
      ).status == 0)
    let push = try run(["-C", git.home + "/api", "push", "-q", "origin", "main"], token: token)
    #expect(push.status != 0)
    #expect(server.text(.stderr).contains("403 GET /acme/api.git/info/refs?service=git-receive-pack auth=scoped"))
    // The token went nowhere in argv or in git's output.
    #expect(!allowed.stderr.contains(token) && !other.stderr.contains(token) && !push.stderr.contains(token))
  }

  @Test func aNarrowedTokenWithContentsWritePushes() throws {
    let minted = try runGHLogin(
      ["token", "--repo", "acme/api", "--permission", "contents:write"], env: sandbox.environment())
    #expect(minted.status == 0, "\(minted.stderr)")
    let token = minted.stdout.trimmingCharacters(in: .newlines)
    #expect(try run(["clone", "-q", "https://\(host)/acme/api.git", git.home + "/api"], token: token).status == 0)
    try "more\n".write(toFile: git.home + "/api/README", atomically: false, encoding: .utf8)
    #expect(try run(["-C", git.home + "/api", "commit", "-q", "-am", "second"], token: token).status == 0)
    let push = try run(["-C", git.home + "/api", "push", "-q", "origin", "main"], token: token)
    #expect(push.status == 0, "\(push.stderr)")
  }
}
