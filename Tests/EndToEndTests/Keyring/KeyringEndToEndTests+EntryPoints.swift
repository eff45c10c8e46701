import Foundation
import Testing

/// Entry points against a real gnome-keyring-daemon: `auth --with-token` keeps its
/// token where the browser login would (R97), a keyring that cannot take a token stops every
/// login before GitHub is asked anything, and items ghlogin did not write are never read,
/// chosen or deleted (R101).
extension KeyringEndToEndTests {
  static let pat = "ghp_keyringWithTokenPAT0123456789abcdefgh"
  static let planted = "ghp_plantedByAnotherProgram0123456789abc"

  static let fileWay =
    "To keep tokens out of the keyring instead, set \"store\": \"file\" in the config and run "
    + "'ghlogin migrate --to file' once the keyring can be read. Nothing was written\n"
  static let lockedMessage =
    "ghlogin: the keyring (Secret Service) is locked, and the unlock prompt was dismissed or could not be shown. "
    + "Unlock it (log in to your desktop session, or open seahorse) and try again. " + fileWay
  static let unavailablePrefix = "ghlogin: the keyring (Secret Service) is not available: "
  static let unavailableSuffix =
    ". Start a keyring (gnome-keyring, KeePassXC) in your desktop session and try again. " + fileWay

  /// The attributes ghlogin gives octocat's access token on the fake's host.
  static let accessAttributes = [
    "application", "ghlogin", "host", "github.test", "login", "octocat", "user_id", "1", "kind", "access_token",
  ]

  var noBus: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(keyring.directory)/no-such-bus"] }

  /// `auth --with-token` with `token` on standard input, once the fake knows it as octocat's.
  func withToken(_ token: String = Self.pat, extra: [String: String] = [:]) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    try fake.register(["tokens": [["access_token": token, "login": "octocat", "scopes": "repo"]]])
    try fake.clearLog()
    return try runGHLogin(["auth", "--with-token"], env: env.merging(extra) { $1 }, stdin: token + "\n", timeout: 60)
  }

  // MARK: §1 --with-token honours "store": "keyring"

  /// The keyring up: the token is in the keyring and nowhere in the file's bytes.
  @Test func withTokenKeepsTheTokenInTheKeyring() throws {
    let result = try withToken()
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.hasPrefix("Logged in to github.test as octocat (token from standard input)\n"))
    #expect(try keyring.lookup(host: "github.test", login: "octocat", userID: 1, kind: "access_token") == Self.pat)
    #expect(try keyring.attributes(kind: "access_token")?["user_id"] == "1")
    let bytes = try #require(sandbox.credentialsBytes())
    #expect(!String(decoding: bytes, as: UTF8.self).contains(Self.pat))
    #expect(sandbox.storedAccounts().first?["store"] as? String == "keyring")
    #expect(try run(["token"]).stdout == Self.pat + "\n")
  }

  /// No session bus: exit 1 with the keyring's message, no credentials file, GitHub never asked.
  @Test func withTokenWithNoBusWritesNothingAndAsksNothing() throws {
    let result = try withToken(extra: noBus)
    #expect(result.status == 1, "\(result)")
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix(Self.unavailablePrefix), "\(result.stderr)")
    #expect(result.stderr.hasSuffix(Self.unavailableSuffix), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(!result.stderr.contains(Self.pat))
    #expect(sandbox.credentialsBytes() == nil)
    #expect(try fake.requests().isEmpty)
  }

  /// A locked collection (its unlock prompt cannot be shown here): exit 1, the exact message,
  /// the existing file byte-identical, GitHub never asked.
  @Test func withTokenWithALockedKeyringWritesNothingAndAsksNothing() throws {
    try sandbox.writeCredentials(host: "ghe.test", [["login": "hubot", "token": "ghp_otherHostFileToken000000000000"]])
    let before = sandbox.credentialsBytes()
    try keyring.lock()
    let result = try withToken()
    #expect(result.status == 1, "\(result)")
    #expect(result.stdout.isEmpty)
    #expect(result.stderr == Self.lockedMessage)
    #expect(sandbox.credentialsBytes() == before)
    #expect(try fake.requests().isEmpty)
  }

  /// A token given with --with-token for an account the app has in the keyring is a login of its
  /// own beside it (R111: the app's login and items are untouched, its item carries `client_id`
  /// ""); given again, it replaces that login and stays in the keyring (with "store": "keyring",
  /// and also with "store": "file": only `migrate` moves tokens out).
  @Test func aKeyringAccountReloggedWithATokenStaysInTheKeyring() throws {
    let first = try login()
    let relog = try withToken()
    #expect(relog.status == 0, "\(relog)")
    func lookup(_ clientID: String) throws -> String? {
      try keyring.lookup(host: "github.test", login: "octocat", userID: 1, kind: "access_token", clientID: clientID)
    }
    #expect(try lookup("") == Self.pat)
    #expect(try lookup("Iv1.testclient") == first)
    #expect(!fileText.contains(Self.pat) && !fileText.contains(first))
    #expect(sandbox.storedAccounts().map { $0["store"] as? String } == ["keyring", "keyring"])

    try sandbox.writeConfig(["store": "file"])
    let second = "ghp_keyringWithTokenSecondPAT0123456789ab"
    let again = try withToken(second)
    #expect(again.status == 0, "\(again)")
    #expect(try lookup("") == second)
    #expect(try lookup("Iv1.testclient") == first)
    #expect(!fileText.contains(second))
    #expect(sandbox.storedAccounts().map { $0["store"] as? String } == ["keyring", "keyring"])
  }

  // MARK: §12 a locked keyring stops every login before GitHub is asked

  /// The browser flow prints no URL and the device flow shows no code: exit 1, the exact
  /// message, nothing written, and the fake received no request at all.
  @Test func aLockedKeyringStopsBrowserAndDeviceLoginsBeforeAnyRequest() throws {
    try keyring.lock()
    for args in [["auth", "--no-browser"], ["auth", "--device"]] {
      let result = try run(args)
      #expect(result.status == 1, "\(args) \(result)")
      #expect(result.stderr == Self.lockedMessage, "\(args)")
      #expect(!result.stderr.contains("https://"))
      #expect(sandbox.credentialsBytes() == nil)
    }
    #expect(try fake.requests().isEmpty)
  }

  // MARK: §9 items ghlogin did not write (R101)

  /// An item with ghlogin's attributes in another collection (gnome-keyring's session
  /// collection) is never read: `token` prints ghlogin's own; `migrate --to file` imports
  /// ghlogin's and deletes only it; `logout` leaves the other item too.
  @Test func anItemInAnotherCollectionIsNeverReadOrDeleted() throws {
    let token = try login()
    try keyring.plant(Self.planted, attributes: Self.accessAttributes, collection: "session")
    #expect(try keyring.allSecrets() == [Self.planted, token].sorted())

    #expect(try run(["token"]).stdout == token + "\n")
    let migrate = try run(["migrate", "--to", "file"])
    #expect(migrate.status == 0, "\(migrate)")
    #expect(sandbox.storedAccounts().first?["token"] as? String == token)
    #expect(!fileText.contains(Self.planted))
    #expect(try keyring.allSecrets() == [Self.planted], "only the item it read back is deleted")

    #expect(try run(["migrate", "--to", "keyring"]).status == 0)
    #expect(try run(["logout", "--local-only"]).status == 0)
    #expect(try keyring.allSecrets() == [Self.planted])
  }

  /// A second item in ghlogin's collection with all of ghlogin's attributes and one more:
  /// `token` refuses to choose (exit 1, the exact message, nothing printed); `migrate --to file`
  /// fails the same way, the file byte-identical and both items kept.
  @Test func twoMatchingItemsAreAnErrorThatSaysSo() throws {
    let token = try login()
    try keyring.plant(
      Self.planted, attributes: Self.accessAttributes + ["client_id", "Iv1.testclient", "note", "extra"])
    let message =
      "ghlogin: the keyring (Secret Service) holds 2 items for the token of octocat on github.test in its "
      + "default collection, where ghlogin keeps one; it will not choose between them. List them with "
      + "'secret-tool search --all application ghlogin host github.test user_id 1 kind access_token client_id "
      + "Iv1.testclient', remove the one ghlogin did not write (seahorse shows both) and try again. "
      + "Nothing was written\n"
    let result = try run(["token"])
    #expect(result.status == 1, "\(result)")
    #expect(result.stdout.isEmpty)
    #expect(result.stderr == message)

    let before = sandbox.credentialsBytes()
    let migrate = try run(["migrate", "--to", "file"])
    #expect(migrate.status == 1, "\(migrate)")
    #expect(migrate.stderr == message)
    #expect(sandbox.credentialsBytes() == before)
    #expect(try keyring.allSecrets() == [Self.planted, token].sorted())
  }
}
