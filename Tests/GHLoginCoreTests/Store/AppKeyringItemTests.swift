import Foundation
import Testing

import GHLoginTestSupport
@testable import GHLoginCore

/// Issue 33 §1, R101, R111: keyring items carry `client_id`; items written before keep their five
/// attributes, are found on them (never a newer item), and are replaced by the login's next write.
@Suite struct AppKeyringItemTests {
  let fixture: StoreFixture
  let keyring = MemorySecretStore()
  static let token = "gho_16C7e42F292c6912E7710c838347Ae178B4a"
  static let newToken = "gho_newNewNew2c6912E7710c838347Ae178B4a"
  static let refresh = "ghr_1B4a2e77838347a7E420ce178F2E7c6912E169"

  init() throws { fixture = try StoreFixture() }

  var store: CredentialStore { CredentialStore(paths: fixture.paths, secrets: keyring) }
  var fileText: String { String(decoding: readFile(fixture.file) ?? [], as: UTF8.self) }

  static func item(_ kind: SecretItem.Kind, clientID: String?, legacy: Bool = false) -> SecretItem {
    SecretItem(
      host: "github.com", login: "octocat", userID: 583_231, kind: kind, clientID: clientID, predatesClientID: legacy)
  }

  @Test func newItemsCarryTheClientIDOrAnEmptyOne() {
    #expect(
      Self.item(.accessToken, clientID: "Iv1.a").orderedAttributes.map { "\($0.0)=\($0.1)" }
        == [
          "application=ghlogin", "host=github.com", "login=octocat", "user_id=583231", "kind=access_token",
          "client_id=Iv1.a",
        ])
    #expect(Self.item(.refreshToken, clientID: nil).orderedAttributes.last.map { "\($0.0)=\($0.1)" } == "client_id=")
    #expect(Self.item(.accessToken, clientID: nil).absentAttribute == nil)
    let old = Self.item(.accessToken, clientID: "Iv1.a", legacy: true)
    #expect(old.orderedAttributes.count == 5 && !old.orderedAttributes.contains { $0.0 == "client_id" })
    #expect(old.absentAttribute == "client_id")
  }

  @Test func twoAppsLoginsOfOneUserHaveTheirOwnItems() throws {
    var a = sampleCredential(token: Self.token)
    a.clientID = "Iv1.a"
    a.storage = .keyring
    var b = sampleCredential(token: Self.newToken)
    b.clientID = "Iv1.b"
    b.storage = .keyring
    try store.update { credentials in
      credentials.save(a, on: "github.com", defaultFor: "Iv1.a")
      credentials.save(b, on: "github.com", defaultFor: "Iv1.b")
    }
    #expect(keyring.items[Self.item(.accessToken, clientID: "Iv1.a")] == Self.token)
    #expect(keyring.items[Self.item(.accessToken, clientID: "Iv1.b")] == Self.newToken)
    #expect(fileText.contains("\"version\": 3,"))
    #expect(!fileText.contains("keyring_attributes"))
    let loaded = try store.load().hosts["github.com"]?.accounts.map(\.token)
    #expect(loaded == [Self.token, Self.newToken])
  }

  /// A version-2 file's keyring login is read from its five-attribute items; its next write
  /// puts six-attribute items in their place and deletes the old ones, and the file becomes
  /// version 3.
  @Test func anOlderLoginsItemsAreFoundOnFiveAttributesAndReplacedOnItsNextWrite() throws {
    try writeVersion2File(hasRefreshToken: true)
    keyring.state.withLock {
      $0.items[Self.item(.accessToken, clientID: "Iv1.a", legacy: true)] = Self.token
      $0.items[Self.item(.refreshToken, clientID: "Iv1.a", legacy: true)] = Self.refresh
    }
    let loaded = try #require(try store.load().hosts["github.com"]?.accounts.first)
    #expect(loaded.token == Self.token && loaded.refreshToken == Self.refresh)
    #expect(loaded.keyringItemsPredateClientID)
    // An unrelated write (another host's login) leaves it as it is, still version 2.
    try store.update { credentials in
      credentials.save(Credential(login: "hubot", userID: 2, token: "ghp_x", createdAt: 1), on: "ghe.example.com")
    }
    #expect(keyring.items.count == 2)
    #expect(fileText.contains("\"version\": 2,"))
    // A refresh of it writes six-attribute items and removes the five-attribute ones.
    try store.update { credentials in credentials.hosts["github.com"]?.accounts[0].token = Self.newToken }
    #expect(
      keyring.items == [
        Self.item(.accessToken, clientID: "Iv1.a"): Self.newToken,
        Self.item(.refreshToken, clientID: "Iv1.a"): Self.refresh,
      ])
    #expect(fileText.contains("\"version\": 3,"))
    #expect(try store.load().hosts["github.com"]?.accounts.first?.keyringItemsPredateClientID == false)
  }

  /// In a version-3 file, a login whose items predate `client_id` says so; the file is version
  /// 3 for another reason (here another app's login of the same user).
  @Test func aVersion3FileRecordsFiveAttributeItems() throws {
    try writeVersion2File(hasRefreshToken: false)
    keyring.state.withLock { $0.items[Self.item(.accessToken, clientID: "Iv1.a", legacy: true)] = Self.token }
    var b = sampleCredential(token: Self.newToken)
    b.clientID = "Iv1.b"
    b.storage = .keyring
    try store.update { credentials in credentials.save(b, on: "github.com", defaultFor: "Iv1.b") }
    #expect(fileText.contains("\"keyring_attributes\": 5"))
    let accounts = try store.load().hosts["github.com"]?.accounts
    #expect(accounts?.map(\.keyringItemsPredateClientID) == [true, false])
    #expect(accounts?.map(\.token) == [Self.token, Self.newToken])
  }

  /// Two items that still match an older login's five attributes are an error that says so (R101),
  /// with the command that lists them; a six-attribute item's command names its `client_id`.
  @Test func twoMatchingItemsAreAnErrorNamingTheSearch() {
    let old = KeyringError.ambiguous(Self.item(.accessToken, clientID: "Iv1.a", legacy: true), count: 2)
    #expect(
      old.message
        == "the keyring (Secret Service) holds 2 items for the token of octocat on github.com in its default "
        + "collection, where the login keeps one; it will not choose between them. List them with 'secret-tool "
        + "search --all application ghlogin host github.com user_id 583231 kind access_token', remove the one "
        + "the login did not write (seahorse shows both) and try again. Nothing was written")
    let new = KeyringError.ambiguous(Self.item(.refreshToken, clientID: nil), count: 3)
    #expect(
      new.message
        == "the keyring (Secret Service) holds 3 items for the refresh token of octocat on github.com in its default "
        + "collection, where the login keeps one; it will not choose between them. List them with 'secret-tool "
        + "search --all application ghlogin host github.com user_id 583231 kind refresh_token client_id \"\"', "
        + "remove the one the login did not write (seahorse shows both) and try again. Nothing was written")
  }

  @Test func keyringAttributesIsOnlyFiveAndOnlyForAKeyringLogin() {
    let text = """
      {"version": 3, "hosts": {"github.com": {"accounts": [{"login": "o", "user_id": 1, "token": "t",
      "token_type": "bearer", "scopes": [], "created_at": 1, "keyring_attributes": 5}]}}}
      """
    #expect(
      throws: CredentialCoding.Failure.invalid(
        "\"hosts.github.com.accounts[0].keyring_attributes\" must be 5, for an account kept in the keyring")
    ) { try CredentialCoding.decode(Array(text.utf8)) }
    let v2 = text.replacingOccurrences(of: "\"version\": 3", with: "\"version\": 2")
    #expect(throws: CredentialCoding.Failure.invalid("unknown key \"hosts.github.com.accounts[0].keyring_attributes\""))
    {
      try CredentialCoding.decode(Array(v2.utf8))
    }
  }

  private func writeVersion2File(hasRefreshToken: Bool) throws {
    let refresh = hasRefreshToken ? #", "has_refresh_token": true"# : ""
    let text = """
      {"version": 2, "hosts": {"github.com": {"active": "octocat", "accounts": [{"login": "octocat",
      "user_id": 583231, "store": "keyring"\(refresh), "token_type": "bearer", "scopes": [], "created_at": 1700000000,
      "client_id": "Iv1.a"}]}}}
      """
    try fixture.makeConfigDirectory()
    try writeFile(fixture.file, text)
  }
}
