import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// An in-memory keyring that keeps narrowed tokens too, records every call and can be made to
/// fail on the narrowed items.
final class NarrowedMemoryKeyring: SecretStore, @unchecked Sendable {
  struct State {
    var items: [SecretItem: String] = [:]
    var narrowed: [NarrowedSecretItem: String] = [:]
    var calls: [String] = []
    var narrowedFailure: KeyringError?
  }

  let state = TestLock(State())

  var narrowed: [NarrowedSecretItem: String] { state.withLock { $0.narrowed } }
  var calls: [String] { state.withLock { $0.calls } }

  func checkUsable() throws(KeyringError) {}

  func read(_ item: SecretItem) throws(KeyringError) -> String? {
    state.withLock { $0.items[item] }
  }

  func write(_ secret: String, to item: SecretItem) throws(KeyringError) {
    state.withLock { $0.items[item] = secret }
  }

  func delete(_ item: SecretItem, holding secret: String) throws(KeyringError) {
    state.withLock { if $0.items[item] == secret { $0.items[item] = nil } }
  }

  var keepsNarrowedTokens: Bool { true }

  func readNarrowed(_ item: NarrowedSecretItem) throws(KeyringError) -> String? {
    try state.withLock { (state: inout State) throws(KeyringError) -> String? in
      state.calls.append("read \(item.recordID)")
      if let failure = state.narrowedFailure { throw failure }
      return state.narrowed[item]
    }
  }

  func writeNarrowed(_ secret: String, to item: NarrowedSecretItem) throws(KeyringError) {
    try state.withLock { (state: inout State) throws(KeyringError) in
      state.calls.append("write \(item.recordID)")
      if let failure = state.narrowedFailure { throw failure }
      state.narrowed[item] = secret
    }
  }

  func deleteNarrowed(_ item: NarrowedSecretItem, holding secret: String) throws(KeyringError) {
    try state.withLock { (state: inout State) throws(KeyringError) in
      state.calls.append("delete \(item.recordID)")
      if let failure = state.narrowedFailure { throw failure }
      if state.narrowed[item] == secret { state.narrowed[item] = nil }
    }
  }
}

/// Issue 34 §1: the narrowed tokens of a login kept in the keyring are keyring items; the file
/// keeps their records without the tokens; the store writes, reads and deletes the items with
/// the login's, in the order that loses nothing.
@Suite struct NarrowedKeyringStoreTests {
  let fixture: StoreFixture
  let keyring = NarrowedMemoryKeyring()
  static let narrowedToken = "ghu_narrowedInTheKeyring000000000000001"

  init() throws { fixture = try StoreFixture() }

  var store: CredentialStore { CredentialStore(paths: fixture.paths, secrets: keyring) }
  var fileText: String { String(decoding: readFile(fixture.file) ?? [], as: UTF8.self) }

  static func record(id: String = "0123456789abcdef", token: String = narrowedToken) throws -> NarrowedRecord {
    NarrowedRecord(
      id: id, token: token, expiresAt: 1_900_000_000,
      narrowing: try Narrowing(repositories: ["acme/web", "acme/api"], permissions: ["contents:read"]),
      consumer: .cache, createdAt: 1_700_000_000)
  }

  func account(_ storage: TokenStorage, records: [NarrowedRecord]) -> Credential {
    var account = sampleCredential()
    account.clientID = "Iv1.appA"
    account.storage = storage
    account.narrowed = records
    return account
  }

  var item: NarrowedSecretItem {
    NarrowedSecretItem(
      host: "github.com", login: "octocat", userID: 583_231, clientID: "Iv1.appA",
      narrowing: "acme/api,acme/web contents:read", recordID: "0123456789abcdef")
  }

  @Test func theItemHasTheNarrowingAndTheRecordsID() {
    #expect(
      item.orderedAttributes.map { "\($0.0)=\($0.1)" } == [
        "application=ghlogin", "host=github.com", "user_id=583231", "client_id=Iv1.appA", "kind=narrowed-token",
        "narrowing=acme/api,acme/web contents:read", "record=0123456789abcdef",
      ])
    #expect(item.label == "ghlogin: narrowed token (acme/api,acme/web contents:read) for octocat on github.com")
  }

  @Test func aKeyringLoginsNarrowedTokenIsAnItemAndNotInTheFile() throws {
    try store.update { $0 = sampleCredentials(account(.keyring, records: [try Self.record()])) }
    #expect(keyring.narrowed == [item: Self.narrowedToken])
    #expect(keyring.calls == ["write 0123456789abcdef", "read 0123456789abcdef"])
    #expect(!fileText.contains(Self.narrowedToken))
    #expect(fileText.contains("0123456789abcdef"))
    // Read back with its token; the file alone has none.
    #expect(try store.load().hosts["github.com"]?.accounts.first?.narrowed.first?.token == Self.narrowedToken)
    #expect(try store.loadFile().hosts["github.com"]?.accounts.first?.narrowed.first?.token == "")
  }

  @Test func aMissingItemIsAnEmptyTokenAndDroppingItDeletesNothing() throws {
    try store.update { $0 = sampleCredentials(account(.keyring, records: [try Self.record()])) }
    keyring.state.withLock { $0.narrowed = [:] }
    let loaded = try store.load()
    #expect(loaded.hosts["github.com"]?.accounts.first?.narrowed.first?.token == "")
    try store.update { $0.hosts["github.com"]?.accounts[0].narrowed = [] }
    #expect(!keyring.calls.contains("delete 0123456789abcdef"))
  }

  @Test func droppingARecordDeletesItsItem() throws {
    try store.update { $0 = sampleCredentials(account(.keyring, records: [try Self.record()])) }
    try store.update { $0.hosts["github.com"]?.accounts[0].narrowed = [] }
    #expect(keyring.narrowed.isEmpty)
    #expect(!fileText.contains("0123456789abcdef"))
  }

  @Test func aLogoutDeletesTheItems() throws {
    try store.update { $0 = sampleCredentials(account(.keyring, records: [try Self.record()])) }
    try store.update { $0.remove(login: "octocat", from: "github.com") }
    #expect(keyring.narrowed.isEmpty)
  }

  @Test func movingTheLoginMovesItsNarrowedTokensBothWays() throws {
    try store.update { $0 = sampleCredentials(account(.file, records: [try Self.record()])) }
    #expect(fileText.contains(Self.narrowedToken))
    try store.update { $0.hosts["github.com"]?.accounts[0].storage = .keyring }
    #expect(keyring.narrowed == [item: Self.narrowedToken])
    #expect(!fileText.contains(Self.narrowedToken))
    try store.update { $0.hosts["github.com"]?.accounts[0].storage = .file }
    #expect(keyring.narrowed.isEmpty)
    #expect(fileText.contains(Self.narrowedToken))
    #expect(keyring.calls.last == "delete 0123456789abcdef")
  }

  /// A failed write of a narrowed item stops the move before the file: the token stays in it.
  @Test func aFailedItemWriteLeavesTheFileAsItWas() throws {
    try store.update { $0 = sampleCredentials(account(.file, records: [try Self.record()])) }
    let before = readFile(fixture.file)
    keyring.state.withLock { $0.narrowedFailure = .failed(operation: "store", reason: "refused") }
    #expect(throws: KeyringError.self) {
      try store.update { $0.hosts["github.com"]?.accounts[0].storage = .keyring }
    }
    #expect(readFile(fixture.file) == before)
  }

  /// A token replaced under the same record (a run's token minted again) rewrites the one item.
  @Test func aReplacedTokenRewritesTheSameItem() throws {
    try store.update { $0 = sampleCredentials(account(.keyring, records: [try Self.record()])) }
    let replacement = "ghu_replacementNarrowed00000000000000002"
    try store.update { $0.hosts["github.com"]?.accounts[0].narrowed[0].token = replacement }
    #expect(keyring.narrowed == [item: replacement])
    #expect(!keyring.calls.contains("delete 0123456789abcdef"))
  }
}
