import Foundation
import Testing

/// `ghlogin app key import FILE --app APP` stores a GitHub App's private key in a real Secret
/// Service (gnome-keyring-daemon), `app token --key-from-keyring` signs with it, and `migrate`
/// never moves it (issue 34 §1, R114).
@Suite(.enabled(if: KeyringSession.isAvailable, Comment(rawValue: KeyringSession.unavailableReason ?? "")))
struct AppKeyKeyringEndToEndTests {
  static let app = "Iv23liTestAppKey"
  static let loginToken = "gho_appKeyKeyringLogin0123456789abcdefg"

  let fake: FakeGitHub
  let sandbox: Sandbox
  let keyring: KeyringSession
  let keyFile: String

  init() throws {
    fake = try FakeGitHub.start()
    sandbox = try Sandbox(fake: fake)
    keyring = try KeyringSession()
    try sandbox.writeConfig(["store": "keyring"])
    keyFile = sandbox.home + "/app.pem"
    try #require(AppTokenEndToEndTests.openssl(["genrsa", "-out", keyFile, "2048"]).status == 0)
    #expect(chmod(keyFile, 0o600) == 0)
    try fake.script([
      "installations": [
        "public_key": try AppTokenEndToEndTests.publicKey(keyFile),
        "list": [
          [
            "id": 7, "account": "acme", "permissions": ["contents": "read", "metadata": "read"],
            "repositories": ["acme/api"],
          ]
        ],
      ]
    ])
  }

  func run(_ args: [String], stdin: String = "") throws -> (status: Int32, stdout: String, stderr: String) {
    try runGHLogin(args, env: sandbox.environment(keyring.environment), stdin: stdin, timeout: 60)
  }

  var pem: String { (try? String(contentsOfFile: keyFile, encoding: .utf8)) ?? "?" }

  @Test func anImportedKeySignsFromTheKeyring() throws {
    let imported = try run(["app", "key", "import", keyFile, "--app", Self.app])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(
      imported.stdout
        == "Stored the private key of the GitHub App \(Self.app) in the keyring (Secret Service).\n"
        + "Use it with: ghlogin app token --app \(Self.app) --key-from-keyring --owner OWNER\n"
        + "You may now delete \(keyFile).\n")
    #expect(imported.stderr.isEmpty)
    #expect(
      try keyring.attributes(kind: "app-key") == ["application": "ghlogin", "kind": "app-key", "app": Self.app])
    #expect(try keyring.allSecrets().count == 1)

    // The file is gone; the keyring's copy signs.
    try FileManager.default.removeItem(atPath: keyFile)
    let minted = try run(["app", "token", "--app", Self.app, "--key-from-keyring", "--owner", "acme"])
    #expect(minted.status == 0, "\(minted.stderr)")
    let token = try #require(
      (try fake.state()["tokens"] as? [[String: Any]])?.first { $0["kind"] as? String == "installation" }?[
        "access_token"] as? String)
    #expect(minted.stdout == token + "\n")
    #expect(minted.stderr.isEmpty)
    #expect(try fake.counter("installation_jwt_refused") == 0)
  }

  @Test func aKeyFileOthersCanReadIsNotImported() throws {
    #expect(chmod(keyFile, 0o644) == 0)
    let imported = try run(["app", "key", "import", keyFile, "--app", Self.app])
    #expect(imported.status == 1)
    #expect(imported.stdout.isEmpty)
    #expect(
      imported.stderr
        == "ghlogin: refusing to read the app's private key \(keyFile): its permissions 0644 let group or others "
        + "read it; run chmod 600 \(keyFile)\n")
    #expect(try keyring.itemCount() == 0)
  }

  @Test func aFileThatIsNoKeyIsNotImported() throws {
    let text = sandbox.home + "/notes.txt"
    try "not a key\n".write(toFile: text, atomically: false, encoding: .utf8)
    #expect(chmod(text, 0o600) == 0)
    let imported = try run(["app", "key", "import", text, "--app", Self.app])
    #expect(imported.status == 2)
    #expect(imported.stdout.isEmpty)
    #expect(
      imported.stderr
        == "ghlogin: the app's private key \(text) is not a PEM private key that can be read without a passphrase "
        + "(GitHub gives a .pem file beginning with -----BEGIN RSA PRIVATE KEY-----)\n")
    #expect(try keyring.itemCount() == 0)
  }

  @Test func noKeyInTheKeyringSendsNothing() throws {
    let minted = try run(["app", "token", "--app", Self.app, "--key-from-keyring", "--owner", "acme"])
    #expect(minted.status == 2)
    #expect(minted.stdout.isEmpty)
    #expect(
      minted.stderr
        == "ghlogin: the keyring holds no private key of the app \(Self.app); store it with "
        + "'ghlogin app key import FILE --app \(Self.app)', or give --key FILE\n")
    #expect(try fake.requests().isEmpty)
  }

  /// `migrate` moves logins' items only: the app key stays in the keyring, never in the file.
  @Test func migrateNeverMovesAppKeys() throws {
    try fake.register(["tokens": [["access_token": Self.loginToken, "login": "octocat", "scopes": "repo"]]])
    #expect(try run(["auth", "--with-token"], stdin: Self.loginToken + "\n").status == 0)
    #expect(try run(["app", "key", "import", keyFile, "--app", Self.app]).status == 0)
    let migrate = try run(["migrate", "--to", "file"])
    #expect(migrate.status == 0, "\(migrate)")
    let file = String(decoding: sandbox.credentialsBytes() ?? [], as: UTF8.self)
    #expect(file.contains(Self.loginToken))
    #expect(!file.contains("PRIVATE KEY"))
    #expect(!migrate.stdout.contains("PRIVATE KEY") && !migrate.stderr.contains("PRIVATE KEY"))
    #expect(try keyring.attributes(kind: "app-key")?["app"] == Self.app)
    #expect(try keyring.allSecrets().count == 1)
    #expect(try run(["migrate", "--to", "keyring"]).status == 0)
    #expect(try keyring.attributes(kind: "app-key")?["app"] == Self.app)
    #expect(try keyring.allSecrets().count == 2)
  }
}
