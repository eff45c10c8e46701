import Foundation
import Testing

/// Issue 29 §5 against a real gnome-keyring-daemon: one bad keyring item of host B stops only
/// the commands that need B's login; `auth --with-token` for it replaces it and
/// `logout --local-only` removes it.
@Suite(.enabled(if: KeyringSession.isAvailable, Comment(rawValue: KeyringSession.unavailableReason ?? "")))
struct KeyringBadItemEndToEndTests {
  static let tokenA = "gho_keyringHostA0123456789abcdefghijk"
  static let tokenB = "gho_keyringHostB0123456789abcdefghijk"
  static let tokenB2 = "gho_keyringHostB2123456789abcdefghijk"

  let fake: FakeGitHub
  let sandbox: Sandbox
  let keyring: KeyringSession
  let hostB: String

  init() throws {
    fake = try FakeGitHub.start()
    sandbox = try Sandbox(fake: fake)
    keyring = try KeyringSession()
    try sandbox.writeConfig(["store": "keyring"])
    hostB = "ghe.test:\(fake.port)"
  }

  var env: [String: String] { sandbox.environment(keyring.environment) }

  func run(_ args: [String], stdin: String = "") throws -> (status: Int32, stdout: String, stderr: String) {
    try runGHLogin(args, env: env, stdin: stdin, timeout: 60)
  }

  func withToken(_ token: String, host: String, login: String) throws -> (status: Int32, stdout: String, stderr: String)
  {
    try fake.register(["tokens": [["access_token": token, "login": login, "scopes": "repo"]]])
    return try run(["auth", "--with-token", "--host", host], stdin: token + "\n")
  }

  /// Logins on both hosts in the keyring, then B's token item replaced by one that is not a token
  /// (`secret-tool store` replaces ghlogin's item), and the daemon's keyring file read again, as
  /// after a restart. The item then has another schema than ghlogin's; ghlogin's next write must
  /// still replace it (it once left it beside the new one: two items, which every command after
  /// refused to choose between).
  func breakB() throws {
    try keyring.plant(
      "not a token; rm -rf ~",
      attributes: [
        "application", "ghlogin", "host", hostB, "login", "hubot", "user_id", "2", "kind", "access_token",
        "client_id", "",
      ])
    try keyring.reloadFromDisk()
  }

  var invalidB: String {
    "ghlogin: the keyring (Secret Service) item for the token of hubot on \(hostB) does not hold a valid token; "
      + "it was left untouched. Log in again with 'ghlogin auth --host \(hostB)'\n"
  }

  @Test func aBadItemOfOneHostStopsOnlyThatHostAndAuthOrLogoutRepairIt() throws {
    #expect(try withToken(Self.tokenA, host: "github.test", login: "octocat").status == 0)
    #expect(try withToken(Self.tokenB, host: hostB, login: "hubot").status == 0)
    try breakB()

    // Host A: unaffected, and its commands never read B's items.
    let token = try run(["token", "--host", "github.test"])
    #expect(token.status == 0, "\(token.stderr)")
    #expect(token.stdout == Self.tokenA + "\n")
    #expect(token.stderr == "")
    let get = try run(["git-credential", "get"], stdin: "protocol=https\nhost=github.test\n\n")
    #expect(get.status == 0, "\(get.stderr)")
    #expect(get.stdout == "username=octocat\npassword=\(Self.tokenA)\n")

    // Host B: the command that needs it says so; nothing on stdout.
    let bad = try run(["token", "--host", hostB])
    #expect(bad.status == 1)
    #expect(bad.stdout == "")
    #expect(bad.stderr == invalidB, "\(bad.stderr)")

    // Its own advice works: a new login replaces the item.
    let again = try withToken(Self.tokenB2, host: hostB, login: "hubot")
    #expect(again.status == 0, "\(again.stderr)")
    #expect(try run(["token", "--host", hostB]).stdout == Self.tokenB2 + "\n")
    #expect(try keyring.lookup(host: hostB, login: "hubot", userID: 2, kind: "access_token") == Self.tokenB2)
    #expect(try keyring.itemCount() == 2, "one item a host")

    // Broken again, logout --local-only forgets the login and deletes the item it read.
    try breakB()
    let logout = try run(["logout", "--host", hostB, "--local-only"])
    #expect(logout.status == 0, "\(logout.stderr)")
    #expect(try keyring.lookup(host: hostB, login: "hubot", userID: 2, kind: "access_token") == nil)
    #expect(!String(decoding: sandbox.credentialsBytes() ?? [], as: UTF8.self).contains(hostB))
    #expect(try run(["token", "--host", "github.test"]).stdout == Self.tokenA + "\n")
  }
}
