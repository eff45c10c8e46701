import Foundation
import GHLoginTestSupport

/// `Tests/Scripts/git_http_server.py` on 127.0.0.1: `git http-backend` behind a Basic-auth
/// server with TLS from the test CA, serving bare repositories to the accounts it is given.
/// The git server the real-git tests fetch from and push to.
struct GitHTTPServer {
  let process: ChildProcess
  /// `127.0.0.1:PORT`: the host git and the credentials file name.
  let host: String
  /// The test CA's directory (`ca.pem`, `server.pem`, `server.key`).
  let certificates: String

  /// Serves the repositories under `served` to `accounts` (each a login and its token); the
  /// server runs in `sandbox`'s environment plus `environment`.
  init(
    served: String, accounts: [(login: String, token: String)], in sandbox: GitSandbox,
    environment: [String: String] = [:]
  ) throws {
    certificates = try TestCertificates.directory()
    process = try ChildProcess(
      executable: HarnessPaths.python3,
      arguments: [
        HarnessPaths.packageRoot + "/Tests/Scripts/git_http_server.py", served, certificates + "/server.pem",
        certificates + "/server.key",
      ] + accounts.flatMap { [$0.login, $0.token] },
      environment: sandbox.environment(environment))
    let line = try process.waitForLine(.stdout, timeout: 30) { $0.hasPrefix("PORT ") }
    host = "127.0.0.1:" + line.dropFirst("PORT ".count)
  }

  /// The narrowed-token tests' server: `acme/api` and `acme/secret` (README `readme`) under
  /// `sandbox`'s `served`, with no account of its own: every token is checked with `fake`, which
  /// says what a narrowed or installation token may see and do.
  static func acme(readme: String, in sandbox: GitSandbox, fake: FakeGitHub) throws -> GitHTTPServer {
    let root = sandbox.home + "/served"
    try makeRepositories(["acme/api", "acme/secret"], readme: readme, served: root, in: sandbox)
    return try GitHTTPServer(
      served: root, accounts: [("nobody", "gho_unused000000000000000000000000000000")], in: sandbox,
      environment: ["GIT_SERVER_FAKE_CONTROL": String(fake.controlPort)])
  }

  /// What git needs to trust the server.
  var tls: [String: String] { ["GIT_SSL_CAINFO": certificates + "/ca.pem", "SSL_CERT_FILE": certificates + "/ca.pem"] }

  /// `served/NAME.git` for each of `names` (`acme/api` makes `served/acme/api.git`): bare
  /// clones of one commit on `main` whose `README` is `readme`.
  static func makeRepositories(_ names: [String], readme: String, served: String, in sandbox: GitSandbox) throws {
    let source = sandbox.home + "/source"
    let identity = [
      "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com", "GIT_COMMITTER_NAME": "Test",
      "GIT_COMMITTER_EMAIL": "test@example.com",
    ]
    func git(_ arguments: [String]) throws {
      let result = try sandbox.git(arguments, env: identity)
      guard result.status == 0 else { throw HarnessError("git \(arguments): \(result.stderr)") }
    }
    try git(["init", "-q", "-b", "main", source])
    try readme.write(toFile: source + "/README", atomically: false, encoding: .utf8)
    try git(["-C", source, "add", "README"])
    try git(["-C", source, "commit", "-q", "-m", "first"])
    for name in names {
      let bare = served + "/" + name + ".git"
      try FileManager.default.createDirectory(
        atPath: (bare as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try git(["clone", "-q", "--bare", source, bare])
    }
  }
}
