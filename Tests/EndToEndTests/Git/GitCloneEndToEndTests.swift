import Foundation
import Testing

/// A real `git clone` over HTTPS from `git http-backend` behind a Basic-auth server on
/// 127.0.0.1 (Tests/Scripts/git_http_server.py, TLS with the test CA) that accepts only the
/// stored token: it works with ghlogin as the helper and fails without it.
@Suite struct GitCloneEndToEndTests {
  static let token = "gho_E2Eclone00000000000000000000000000042"

  let sandbox: GitSandbox
  let server: ChildProcess
  /// `127.0.0.1:PORT`: the host git and the credentials file name.
  let host: String
  let certificates: String

  init() throws {
    sandbox = try GitSandbox()
    let root = sandbox.home + "/served"
    try GitHTTPServer.makeRepositories(["repo"], readme: "hello from the server\n", served: root, in: sandbox)
    let server = try GitHTTPServer(served: root, accounts: [("octocat", Self.token)], in: sandbox)
    (self.server, host, certificates) = (server.process, server.host, server.certificates)
  }

  func clone(into name: String) throws -> (status: Int32, stdout: String, stderr: String) {
    try sandbox.git(
      ["clone", "https://\(host)/repo.git", sandbox.home + "/" + name],
      env: ["GIT_SSL_CAINFO": certificates + "/ca.pem", "SSL_CERT_FILE": certificates + "/ca.pem"])
  }

  func serverLog() -> [String] {
    server.text(.stderr).split(separator: "\n").map(String.init)
  }

  @Test func cloneSucceedsWithTheHelperAndFailsWithoutIt() throws {
    try sandbox.seed([.init(host: host, login: "octocat", token: Self.token)])

    let without = try clone(into: "without")
    #expect(without.status != 0)
    #expect(!FileManager.default.fileExists(atPath: sandbox.home + "/without/README"))
    #expect(serverLog().allSatisfy { $0.hasPrefix("401 ") })

    let setup = try sandbox.ghlogin(["setup-git", "--host", host])
    #expect(setup.status == 0, "\(setup.stderr)")
    let with = try clone(into: "with")
    #expect(with.status == 0, "\(with.stderr)")
    let readme = try String(contentsOfFile: sandbox.home + "/with/README", encoding: .utf8)
    #expect(readme == "hello from the server\n")
    #expect(serverLog().contains { $0.hasPrefix("200 POST /repo.git/git-upload-pack auth=ok") })
    // Nothing was stored anywhere else by git (store is a no-op; no other helper).
    #expect(!FileManager.default.fileExists(atPath: sandbox.home + "/.git-credentials"))
  }

  /// A token the server rejects: git reports it with `erase`, ghlogin asks the host's API
  /// (`GET /api/v3/user`, which rejects it too: R102), and forgets exactly it.
  @Test func aRejectedTokenIsErased() throws {
    try sandbox.seed([
      .init(host: host, login: "octocat", token: "gho_REVOKED000000000000000000000000000042"),
      .init(host: "github.test", login: "octocat", token: Self.token),
    ])
    #expect(try sandbox.ghlogin(["setup-git", "--host", host]).status == 0)
    let rejected = try clone(into: "rejected")
    #expect(rejected.status != 0)
    #expect(serverLog().contains { $0.contains("auth=wrong") })
    #expect(serverLog().contains { $0.hasPrefix("401 GET /api/v3/user auth=wrong") })
    let status = try sandbox.ghlogin(["status", "--json"])
    let document = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
    let hosts = document?["hosts"] as? [String: Any]
    #expect(hosts?[host] == nil)
    #expect(hosts?["github.test"] != nil)
  }
}
