import Synchronization
import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// An in-memory keyring that records every call and can be made to fail.
final class MemorySecretStore: SecretStore, @unchecked Sendable {
  struct State {
    var items: [SecretItem: String] = [:]
    var calls: [String] = []
    var failure: KeyringError?
  }

  let state = TestLock(State())

  var items: [SecretItem: String] { state.withLock { $0.items } }
  var calls: [String] { state.withLock { $0.calls } }
  func fail(with error: KeyringError?) { state.withLock { $0.failure = error } }

  func checkUsable() throws(KeyringError) {
    try state.withLock { (state: inout State) throws(KeyringError) in
      state.calls.append("check")
      if let failure = state.failure { throw failure }
    }
  }

  func read(_ item: SecretItem) throws(KeyringError) -> String? {
    try state.withLock { (state: inout State) throws(KeyringError) -> String? in
      state.calls.append("read \(item.kind.rawValue)")
      if let failure = state.failure { throw failure }
      return state.items[item]
    }
  }

  func write(_ secret: String, to item: SecretItem) throws(KeyringError) {
    try state.withLock { (state: inout State) throws(KeyringError) in
      state.calls.append("write \(item.kind.rawValue)")
      if let failure = state.failure { throw failure }
      state.items[item] = secret
    }
  }

  func delete(_ item: SecretItem, holding secret: String) throws(KeyringError) {
    try state.withLock { (state: inout State) throws(KeyringError) in
      state.calls.append("delete \(item.kind.rawValue)")
      if let failure = state.failure { throw failure }
      if state.items[item] == secret { state.items[item] = nil }
    }
  }
}

/// The credential store with accounts kept in the keyring: what goes where, in which order,
/// and that a failing keyring changes nothing.
@Suite struct KeyringStoreTests {
  let fixture: StoreFixture
  let keyring = MemorySecretStore()
  static let token = "gho_16C7e42F292c6912E7710c838347Ae178B4a"
  static let refresh = "ghr_1B4a2e77838347a7E420ce178F2E7c6912E169"

  init() throws { fixture = try StoreFixture() }

  var store: CredentialStore { CredentialStore(paths: fixture.paths, secrets: keyring) }

  func keyringAccount(refresh: String? = nil) -> Credential {
    var account = sampleCredential(token: Self.token)
    account.refreshToken = refresh
    account.storage = .keyring
    return account
  }

  var fileText: String { String(decoding: readFile(fixture.file) ?? [], as: UTF8.self) }

  @Test func aKeyringAccountsTokensGoToTheKeyringAndNotTheFile() throws {
    try store.update { $0 = sampleCredentials(keyringAccount(refresh: Self.refresh)) }
    let item = SecretItem(host: "github.com", login: "octocat", userID: 583_231, kind: .accessToken)
    #expect(keyring.items[item] == Self.token)
    #expect(
      keyring.items[SecretItem(host: "github.com", login: "octocat", userID: 583_231, kind: .refreshToken)]
        == Self.refresh)
    #expect(!fileText.contains(Self.token))
    #expect(!fileText.contains(Self.refresh))
    #expect(fileText.contains("\"store\": \"keyring\""))
    #expect(fileText.contains("\"has_refresh_token\": true"))
    #expect(permissions(fixture.file) == 0o600)
    // Each write is read back before the file is written.
    #expect(keyring.calls == ["write access_token", "read access_token", "write refresh_token", "read refresh_token"])
    // Reading gives the tokens back from the keyring.
    let loaded = try store.load()
    #expect(loaded.hosts["github.com"]?.accounts.first?.token == Self.token)
    #expect(loaded.hosts["github.com"]?.accounts.first?.refreshToken == Self.refresh)
  }

  @Test func fileAccountsNeverTouchTheKeyring() throws {
    try store.update { $0 = sampleCredentials() }
    _ = try store.load()
    #expect(keyring.calls.isEmpty)
    #expect(fileText.contains(Self.token))
  }

  @Test func aFailingKeyringWritesNothing() throws {
    try store.update { $0 = sampleCredentials() }
    let before = readFile(fixture.file)
    keyring.fail(with: .locked)
    #expect(throws: KeyringError.locked) {
      try store.update { $0.hosts["github.com"]?.accounts[0].storage = .keyring }
    }
    #expect(readFile(fixture.file) == before)
    #expect(keyring.items.isEmpty)
  }

  @Test func aMissingItemIsReportedForThatAccountOnly() throws {
    var other = sampleCredential("hubot", token: "gho_other0000000000000000000000000000000")
    other.userID = 2
    var credentials = sampleCredentials(keyringAccount())
    credentials.hosts["github.com"]?.accounts.append(other)
    try store.update { $0 = credentials }
    keyring.state.withLock { $0.items = [:] }
    let loaded = try store.load()
    #expect(loaded.hosts["github.com"]?.accounts[0].missingSecret == .accessToken)
    #expect(loaded.hosts["github.com"]?.accounts[1].token == "gho_other0000000000000000000000000000000")
  }

  /// Issue 29 §5: recorded for that account only (the command that needs it reports it); a
  /// removal deletes the item only while it holds what was read (R101).
  @Test func anItemThatIsNotATokenIsRefusedForThatAccountOnly() throws {
    var other = sampleCredential("hubot", token: "gho_other0000000000000000000000000000000")
    other.userID = 2
    var credentials = sampleCredentials(keyringAccount())
    credentials.hosts["github.com"]?.accounts.append(other)
    try store.update { $0 = credentials }
    let item = SecretItem(host: "github.com", login: "octocat", userID: 583_231, kind: .accessToken)
    keyring.state.withLock { $0.items[item] = "x; rm -rf ~" }
    let loaded = try store.load()
    let bad = try #require(loaded.hosts["github.com"]?.accounts[0])
    #expect(bad.token == "")
    #expect(throws: KeyringError.invalidItem(host: "github.com", login: "octocat", kind: .accessToken)) {
      try bad.checkSecrets(on: "github.com")
    }
    #expect(loaded.hosts["github.com"]?.accounts[1].token == "gho_other0000000000000000000000000000000")
    try store.update { $0.remove(login: "octocat", from: "github.com") }
    #expect(keyring.items[item] == nil, "the bad item is removed with its login")
  }

  @Test func removingAnAccountDeletesItsItems() throws {
    try store.update { $0 = sampleCredentials(keyringAccount(refresh: Self.refresh)) }
    try store.update { $0.remove(login: "octocat", from: "github.com") }
    #expect(keyring.items.isEmpty)
  }

  @Test func movingToTheFileWritesTheFileBeforeDeletingItems() throws {
    try store.update { $0 = sampleCredentials(keyringAccount(refresh: Self.refresh)) }
    try store.update { $0.hosts["github.com"]?.accounts[0].storage = .file }
    #expect(keyring.items.isEmpty)
    #expect(fileText.contains(Self.token) && fileText.contains(Self.refresh))
  }

  @Test func aRefreshReplacesBothItems() throws {
    try store.update { $0 = sampleCredentials(keyringAccount(refresh: Self.refresh)) }
    try store.update { credentials in
      credentials.hosts["github.com"]?.accounts[0].token = "ghu_new"
      credentials.hosts["github.com"]?.accounts[0].refreshToken = "ghr_new"
    }
    #expect(Set(keyring.items.values) == ["ghu_new", "ghr_new"])
    #expect(!fileText.contains("ghu_new"))
  }

  @Test func switchingTheActiveAccountWritesNoItem() throws {
    try store.update { $0 = sampleCredentials(keyringAccount()) }
    let writes = keyring.calls.filter { $0.hasPrefix("write") }.count
    try store.update { $0.hosts["github.com"]?.activeLogin = nil }
    #expect(keyring.calls.filter { $0.hasPrefix("write") }.count == writes)
  }

  @Test(arguments: [
    (
      #"{"login":"a","user_id":1,"token":"t1","store":"keyring","token_type":"bearer","scopes":[],"created_at":1}"#,
      "\"hosts.h.accounts[0].token\" must not be in the file for an account kept in the keyring"
    ),
    (
      #"{"login":"a","user_id":1,"token":"t1","has_refresh_token":true,"token_type":"bearer","scopes":[],"created_at":1}"#,
      "\"hosts.h.accounts[0].has_refresh_token\" needs \"store\": \"keyring\""
    ),
    (
      #"{"login":"a","user_id":1,"store":"vault","token_type":"bearer","scopes":[],"created_at":1}"#,
      "\"hosts.h.accounts[0].store\" must be \"file\" or \"keyring\""
    ),
  ])
  func badStoreEntriesAreRefused(account: String, detail: String) {
    let bytes = Array(#"{"version":1,"hosts":{"h":{"accounts":["#.utf8) + Array(account.utf8) + Array("]}}}".utf8)
    #expect(throws: CredentialCoding.Failure.invalid(detail)) { try CredentialCoding.decode(bytes) }
  }

  /// The one rule for where a new login's tokens go (R97): the config's store, except that an
  /// account already in the keyring stays there.
  @Test func aNewLoginGoesWhereTheConfigSaysUnlessItsAccountIsInTheKeyring() {
    var credentials = sampleCredentials(keyringAccount())
    let relogin = sampleCredential(token: "gho_relogin0000000000000000000000000000")
    #expect(credentials.addNewLogin(relogin, on: "github.com", store: .file, defaultFor: nil).saved.storage == .keyring)
    #expect(credentials.hosts["github.com"]?.accounts.map(\.storage) == [.keyring])
    var other = sampleCredential("hubot", token: "gho_other0000000000000000000000000000000")
    other.userID = 2
    #expect(credentials.addNewLogin(other, on: "github.com", store: .file, defaultFor: nil).saved.storage == .file)
    #expect(
      credentials.addNewLogin(other, on: "ghe.example.com", store: .keyring, defaultFor: nil).saved.storage == .keyring)
    var fileOnly = sampleCredentials()
    #expect(fileOnly.addNewLogin(relogin, on: "github.com", store: .keyring, defaultFor: nil).saved.storage == .keyring)
  }

  /// Every login's early check: a keyring that cannot be used stops it with the store's error;
  /// with the file store the keyring is never contacted.
  @Test func theEarlyCheckAsksTheKeyringOnlyForTheKeyringStore() throws {
    keyring.fail(with: .locked)
    #expect(throws: KeyringError.locked) { try store.checkReadyForNewLogin(store: .keyring) }
    try store.checkReadyForNewLogin(store: .file)
    #expect(keyring.calls == ["check"])
  }

  @Test func theConfigChoosesTheStore() throws {
    let keyring = try Config.parse(bytes: Array(#"{"store":"keyring"}"#.utf8), file: "c", variables: [:])
    #expect(keyring.store == .keyring)
    #expect(try Config.parse(bytes: Array("{}".utf8), file: "c", variables: [:]).store == .file)
    #expect(throws: ConfigError.invalidValue(file: "c", key: "store", reason: "must be \"file\" or \"keyring\"")) {
      try Config.parse(bytes: Array(#"{"store":"plaintext"}"#.utf8), file: "c", variables: [:])
    }
  }
}
