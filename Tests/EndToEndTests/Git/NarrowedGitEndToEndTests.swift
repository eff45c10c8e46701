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
    let server = try GitHTTPServer.acme(readme: "narrowed\n", in: git, fake: fake)
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

  /// `ghlogin run -- git push` (issue 34 §3): git in the run asks `ghlogin git-credential`
  /// through the helper `run` pins (the environment's `GIT_CONFIG_*`, no other helper), gets the
  /// run's token, clones and pushes the named repository, is refused on another one, and the
  /// token is revoked once the command ends. The GitHub host is the git server's own
  /// `127.0.0.1:PORT`, its API the fake's, so git's credential request names the run's host.
  @Test func runGitPushThroughThePinnedHelper() throws {
    try sandbox.writeConfig(["host": host])
    try sandbox.writeCredentials(
      host: host, [["login": "octocat", "token": Self.parent, "client_id": "Iv1.testclient"]])
    let env = sandbox.environment([
      "GIT_SSL_CAINFO": certificates + "/ca.pem", "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0",
      "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com", "GIT_COMMITTER_NAME": "Test",
      "GIT_COMMITTER_EMAIL": "test@example.com",
    ])
    let clone =
      "git clone -q https://\(host)/acme/api.git '\(git.home)/api' && cd '\(git.home)/api' "
      + "&& echo more > README && git commit -q -am second && git push -q origin main "
      + "&& ! git ls-remote https://\(host)/acme/secret.git >/dev/null 2>&1"
    let result = try runGHLogin(
      ["run", "--repo", "acme/api", "--permission", "contents:write", "--", "sh", "-c", clone], env: env)
    #expect(result.status == 0, "\(result.stderr)")
    let minted = try #require(
      (try fake.state()["tokens"] as? [[String: Any]] ?? []).first { $0["kind"] as? String == "scoped" })
    let token = try #require(minted["access_token"] as? String)
    // The push and the refusal carry one token (the same fingerprint), the one the fake minted
    // as scoped: the run's, never the parent's.
    let lines = server.text(.stderr).split(separator: "\n").map(String.init)
    let pushed = try #require(lines.first { $0.hasPrefix("200 POST /acme/api.git/git-receive-pack auth=ok") })
    let refused = try #require(
      lines.first { $0.hasPrefix("404 GET /acme/secret.git/info/refs?service=git-upload-pack auth=scoped") })
    #expect(pushed.split(separator: " ").last == refused.split(separator: " ").last)
    #expect(try fake.counter("scoped_tokens") == 1)
    #expect(try fake.tokenRecord(token)?["revoked"] as? Bool == true)
    #expect(!result.stderr.contains(token) && !result.stdout.contains(token))
  }
}
