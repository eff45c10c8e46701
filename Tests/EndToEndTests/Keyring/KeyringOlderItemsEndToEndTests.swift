import Foundation
import GHLoginTestSupport
import Testing

/// Issue 33 §1, R101, R111 against a real gnome-keyring-daemon: keyring items written before
/// items carried `client_id` (five attributes, recorded by a version-2 file) keep being found on
/// those five, never mixed up with a newer six-attribute item of the same user (another app's);
/// two that still match are an error that says so; the login's next write replaces them.
@Suite(.enabled(if: KeyringSession.isAvailable, Comment(rawValue: KeyringSession.unavailableReason ?? "")))
struct KeyringOlderItemsEndToEndTests {
  static let old = "gho_olderFiveAttributeItem000000000001"
  static let otherApp = "gho_anotherAppsSixAttributeItem0000001"
  static let given = "ghp_givenTokenForOctocat0000000000000001"
  static let five = [
    "application", "ghlogin", "host", "github.test", "login", "octocat", "user_id", "1", "kind", "access_token",
  ]

  let fake: FakeGitHub
  let sandbox: Sandbox
  let keyring: KeyringSession

  init() throws {
    fake = try FakeGitHub.start()
    sandbox = try Sandbox(fake: fake)
    keyring = try KeyringSession()
    try sandbox.writeConfig(["store": "keyring"])
    // A version-2 file (an earlier release): octocat's login of the configured app, in the keyring.
    let account: [String: Any] = [
      "login": "octocat", "user_id": 1, "store": "keyring", "token_type": "bearer", "scopes": [String](),
      "created_at": 1_700_000_000, "client_id": "Iv1.testclient",
    ]
    try CredentialsFile.write(
      hosts: ["github.test": ["active": "octocat", "accounts": [account]]], to: sandbox.credentialsFile, version: 2)
    try keyring.plant(Self.old, attributes: Self.five)
    // Another app's item of the same user, with all five attributes and a `client_id`.
    try keyring.plant(Self.otherApp, attributes: Self.five + ["client_id", "Iv1.otherapp"])
  }

  var env: [String: String] { sandbox.environment(keyring.environment) }

  func run(_ args: [String], stdin: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
    try runGHLogin(args, env: env, stdin: stdin, timeout: 60)
  }

  @Test func anOlderItemIsFoundOnItsFiveAttributesAndNeverAnotherAppsItem() throws {
    let before = sandbox.credentialsBytes()
    let token = try run(["token"])
    #expect(token.status == 0, "\(token.stderr)")
    #expect(token.stdout == Self.old + "\n")
    #expect(token.stderr == "")
    #expect(sandbox.credentialsBytes() == before)
    #expect(try keyring.allSecrets() == [Self.old, Self.otherApp].sorted())
  }

  /// A second item with the five attributes and no `client_id`: ghlogin refuses to choose, with
  /// the exact message (R101), and prints nothing.
  @Test func twoOlderItemsThatMatchAreAnError() throws {
    try keyring.plant("gho_plantedFiveAttributeTwin000000000001", attributes: Self.five + ["note", "extra"])
    let token = try run(["token"])
    #expect(token.status == 1, "\(token)")
    #expect(token.stdout == "")
    #expect(
      token.stderr
        == "ghlogin: the keyring (Secret Service) holds 2 items for the token of octocat on github.test in its "
        + "default collection, where ghlogin keeps one; it will not choose between them. List them with "
        + "'secret-tool search --all application ghlogin host github.test user_id 1 kind access_token', remove the "
        + "one ghlogin did not write (seahorse shows both) and try again. Nothing was written\n")
  }

  /// The login's next write (here a token given for it: the same login, no app) is a
  /// six-attribute item; a refresh of the app's login replaces its five-attribute item the same
  /// way, and the file records that no item of it has five any more.
  @Test func theNextWriteOfTheLoginReplacesItsOlderItem() throws {
    // The app's login logged in again: its item is written with `client_id` and the old one deleted.
    let child = try startGHLogin(["auth", "--no-browser"], env: env, stdin: "")
    let url = try child.waitForLine(.stderr, timeout: 30) { $0.hasPrefix("https://") }
    _ = try runBrowser(url: url, fake: fake)
    let result = try child.finish(timeout: 60)
    #expect(result.status == 0, "\(result.stderr)")
    let token = try #require(
      try keyring.lookup(
        host: "github.test", login: "octocat", userID: 1, kind: "access_token", clientID: "Iv1.testclient"))
    #expect(try keyring.allSecrets() == [token, Self.otherApp].sorted())
    #expect(sandbox.credentialsJSON()?["version"] as? Int == 3)
    #expect(sandbox.storedAccounts().first?["keyring_attributes"] == nil)
    #expect(try run(["token"]).stdout == token + "\n")
  }
}
