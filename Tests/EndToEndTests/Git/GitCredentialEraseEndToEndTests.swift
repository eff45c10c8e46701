import Foundation
import Testing

/// `git-credential erase` on the built binary against the fake (R102): the
/// login is forgotten only when `GET /user` with that token answers 401 now.
@Suite struct GitCredentialEraseEndToEndTests {
  static let token = "gho_e2eERASEtoken000000000000000000000001"
  static let input = "protocol=https\nhost=github.test\nusername=octocat\npassword=\(token)\n\n"

  func loggedIn() throws -> (FakeGitHub, Sandbox) { try FakeGitHub.loggedIn(token: Self.token) }

  /// Go's GOAUTH=git after an unrelated 401: the token still works, so the file stays byte-identical.
  @Test func eraseOfAWorkingTokenKeepsTheLogin() throws {
    let (fake, sandbox) = try loggedIn()
    let before = try #require(sandbox.credentialsBytes())
    let result = try runGHLogin(["git-credential", "erase"], env: sandbox.environment(), stdin: Self.input)
    #expect(result.status == 0)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "ghlogin: git reported the token of octocat on github.test as rejected, but github.test still accepts it; "
        + "kept the login.\n")
    #expect(sandbox.credentialsBytes() == before)
    let checks = try fake.requests(path: "/user")
    #expect(checks.count == 1)
    #expect(checks.first?.header("Authorization") == "Bearer \(Self.token)")
  }

  @Test func eraseOfARevokedTokenRemovesTheLogin() throws {
    let (fake, sandbox) = try loggedIn()
    try fake.revoke(Self.token)
    let result = try runGHLogin(["git-credential", "erase"], env: sandbox.environment(), stdin: Self.input)
    #expect(result.status == 0)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "ghlogin: git reported the token of octocat on github.test as rejected; removed it. "
        + "Run 'ghlogin auth --host github.test' to log in again.\n")
    #expect(sandbox.storedAccounts().isEmpty)
    #expect(!String(decoding: sandbox.credentialsBytes() ?? [], as: UTF8.self).contains(Self.token))
  }

  /// The API down (500): the login stays, and the line says why.
  @Test func eraseWhileTheAPIFailsKeepsTheLogin() throws {
    let (fake, sandbox) = try loggedIn()
    try fake.script(["responses": ["user": [500]]])
    let before = try #require(sandbox.credentialsBytes())
    let result = try runGHLogin(["git-credential", "erase"], env: sandbox.environment(), stdin: Self.input)
    #expect(result.status == 0)
    #expect(
      result.stderr
        == "ghlogin: git reported the token of octocat on github.test as rejected, but it could not be checked "
        + "(identity check at api_url \(fake.apiBase)/: the server answered HTTP 500 for /user; try again later); "
        + "kept the login.\n")
    #expect(sandbox.credentialsBytes() == before)
  }
}
