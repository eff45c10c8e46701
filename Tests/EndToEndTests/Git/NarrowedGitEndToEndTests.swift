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
    certificates = try TestCertificates.directory()
    let root = git.home + "/served"
    try Self.makeRepositories(served: root, in: git)
    var environment = git.environment()
    environment["GIT_SERVER_FAKE_CONTROL"] = String(fake.controlPort)
    server = try ChildProcess(
      executable: HarnessPaths.python3,
      arguments: [
        HarnessPaths.packageRoot + "/Tests/Scripts/git_http_server.py", root, certificates + "/server.pem",
        certificates + "/server.key", "nobody", "gho_unused000000000000000000000000000000",
      ],
      environment: environment)
    let line = try server.waitForLine(.stdout, timeout: 30) { $0.hasPrefix("PORT ") }
    host = "127.0.0.1:" + line.dropFirst("PORT ".count)
  }

  /// `served/acme/api.git` and `served/acme/secret.git`, one commit each.
  private static func makeRepositories(served root: String, in git: GitSandbox) throws {
    let work = git.home + "/work"
    let identity = [
      "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com", "GIT_COMMITTER_NAME": "Test",
      "GIT_COMMITTER_EMAIL": "test@example.com",
    ]
    try FileManager.default.createDirectory(atPath: root + "/acme", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    let steps: [[String]] = [["init", "-q", "-b", "main", work]]
    for step in steps { #expect(try git.git(step, env: identity).status == 0) }
    try "narrowed\n".write(toFile: work + "/README", atomically: false, encoding: .utf8)
    for step in [
      ["-C", work, "add", "README"], ["-C", work, "commit", "-q", "-m", "first"],
      ["clone", "-q", "--bare", work, root + "/acme/api.git"],
      ["clone", "-q", "--bare", work, root + "/acme/secret.git"],
    ] {
      let result = try git.git(step, env: identity)
      #expect(result.status == 0, "\(result.stderr)")
    }
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
