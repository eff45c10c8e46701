import Testing

import GHLoginTestSupport
@testable import GHLoginCore

/// Issue 34 §1: narrowed tokens kept beside their login in the credentials file (version 4);
/// a file without them keeps the lowest version that holds it, and older files still read.
@Suite struct NarrowedRecordCodingTests {
  static func login(narrowed: [NarrowedRecord] = [], clientID: String? = "Iv1.appA") -> Credential {
    var credential = Credential(
      login: "alice", userID: 7, token: "ghu_parent1", createdAt: 1_700_000_000, expiresAt: 1_700_028_800,
      refreshToken: "ghr_parent1")
    credential.clientID = clientID
    credential.narrowed = narrowed
    return credential
  }

  static func narrowing(_ repositories: [String], _ permissions: [String] = []) throws -> Narrowing {
    try Narrowing(repositories: repositories, permissions: permissions)
  }

  static func cached() throws -> NarrowedRecord {
    NarrowedRecord(
      id: "0123456789abcdef", token: "ghu_narrowed1", expiresAt: 1_700_010_000,
      narrowing: try narrowing(["Acme/Web", "acme/api"], ["contents:read"]), consumer: .cache,
      createdAt: 1_700_000_100)
  }

  static func run() throws -> NarrowedRecord {
    NarrowedRecord(
      id: "fedcba9876543210", token: "ghu_narrowed2", expiresAt: nil, narrowing: try narrowing(["acme/api"]),
      consumer: .run, consumerID: "r-1", createdAt: 1_700_000_200)
  }

  static func decode(_ text: String) throws(CredentialCoding.Failure) -> Credentials {
    try CredentialCoding.decode(Array(text.utf8))
  }

  @Test func roundTripsAsVersion4() throws {
    let credentials = Credentials(hosts: [
      "github.com": HostEntry(
        activeLogin: "alice", accounts: [Self.login(narrowed: [try Self.cached(), try Self.run()])])
    ])
    #expect(credentials.formatVersion == 4)
    try CredentialCoding.validate(credentials)
    let bytes = CredentialCoding.encode(credentials)
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.contains("\"version\": 4"))
    #expect(text.contains("\"repositories\": [\n"))
    let decoded = try CredentialCoding.decode(bytes)
    #expect(decoded == credentials)
    let record = try #require(decoded.hosts["github.com"]?.accounts.first?.narrowed.first)
    #expect(record.repositories == ["api", "web"])
    #expect(record.owner == "Acme")
    #expect(record.isFor(try Self.narrowing(["acme/WEB", "acme/api"], ["contents:read"])))
    #expect(!record.isFor(try Self.narrowing(["acme/api"], ["contents:read"])))
    #expect(!record.isFor(try Self.narrowing(["acme/api", "acme/web"])))
  }

  @Test func withoutNarrowedTokensTheLowestVersionIsWritten() throws {
    let credentials = Credentials(hosts: ["github.com": HostEntry(activeLogin: "alice", accounts: [Self.login()])])
    #expect(credentials.formatVersion == 2)
    let plain = Credentials(hosts: [
      "github.com": HostEntry(activeLogin: "alice", accounts: [Self.login(clientID: nil)])
    ])
    #expect(plain.formatVersion == 1)
    // Dropping the last narrowed token writes the file back at its old version.
    var dropped = Credentials(hosts: [
      "github.com": HostEntry(activeLogin: "alice", accounts: [Self.login(narrowed: [try Self.cached()])])
    ])
    dropped.hosts["github.com"]?.accounts[0].narrowed = []
    #expect(String(decoding: CredentialCoding.encode(dropped), as: UTF8.self).contains("\"version\": 2"))
  }

  @Test func olderVersionsStillRead() throws {
    let account = #"{"login": "alice", "user_id": 7, "token": "ghu_a", "token_type": "bearer", "scopes": [], "#
    for version in 1...3 {
      let credentials = try Self.decode(
        #"{"version": \#(version), "hosts": {"github.com": {"accounts": [\#(account)"created_at": 1}]}}}"#)
      #expect(credentials.hosts["github.com"]?.accounts.first?.narrowed == [])
    }
  }

  @Test func narrowedIsRefusedBeforeVersion4() {
    let text =
      #"{"version": 3, "hosts": {"github.com": {"accounts": [{"login": "alice", "user_id": 7, "token": "ghu_a", "#
      + #""token_type": "bearer", "scopes": [], "created_at": 1, "narrowed": []}]}}}"#
    #expect(throws: CredentialCoding.Failure.invalid("unknown key \"hosts.github.com.accounts[0].narrowed\"")) {
      try Self.decode(text)
    }
  }

  /// Each bad record is refused with its key path, never its token.
  @Test(arguments: [
    (
      #""owner": "acme", "repositories": ["api"], "permissions": {}, "consumer": "run", "created_at": 1"#,
      "\"hosts.github.com.accounts[0].narrowed[0].consumer_id\" is needed for a run's or forward's token, and only then"
    ),
    (
      #""owner": "acme", "repositories": ["api"], "permissions": {}, "consumer": "cache", "consumer_id": "x", "created_at": 1"#,
      "\"hosts.github.com.accounts[0].narrowed[0].consumer_id\" is needed for a run's or forward's token, and only then"
    ),
    (
      #""owner": "acme", "repositories": ["web", "api"], "permissions": {}, "consumer": "cache", "created_at": 1"#,
      "\"hosts.github.com.accounts[0].narrowed[0].repositories\" must hold 1 to 500 repository names, lowercase, sorted, each once"
    ),
    (
      #""owner": "acme", "repositories": ["api"], "permissions": {"contents": "admin"}, "consumer": "cache", "created_at": 1"#,
      "\"hosts.github.com.accounts[0].narrowed[0].permissions.contents\" is not a GitHub App permission level"
    ),
    (
      #""owner": "acme", "repositories": ["api"], "permissions": {}, "consumer": "agent", "created_at": 1"#,
      "\"hosts.github.com.accounts[0].narrowed[0].consumer\" must be \"cache\", \"run\" or \"forward\""
    ),
    (
      #""owner": "-acme", "repositories": ["api"], "permissions": {}, "consumer": "cache", "created_at": 1"#,
      "\"hosts.github.com.accounts[0].narrowed[0].owner\" is not a GitHub account name"
    ),
  ])
  func aBadRecordIsRefused(fields: String, message: String) {
    let text =
      #"{"version": 4, "hosts": {"github.com": {"accounts": [{"login": "alice", "user_id": 7, "token": "ghu_a", "#
      + #""token_type": "bearer", "scopes": [], "created_at": 1, "narrowed": [{"id": "abc", "token": "ghu_secret123", "#
      + fields + "}]}]}}}"
    #expect(throws: CredentialCoding.Failure.invalid(message)) { try Self.decode(text) }
  }

  @Test func aBadNarrowedTokenIsRefusedWithoutQuotingIt() {
    let text =
      #"{"version": 4, "hosts": {"github.com": {"accounts": [{"login": "alice", "user_id": 7, "token": "ghu_a", "#
      + #""token_type": "bearer", "scopes": [], "created_at": 1, "narrowed": [{"id": "abc", "token": "ghu bad 1", "#
      + #""owner": "acme", "repositories": ["api"], "permissions": {}, "consumer": "cache", "created_at": 1}]}]}}}"#
    #expect(
      throws: CredentialCoding.Failure.invalid(
        "\"hosts.github.com.accounts[0].narrowed[0].token\" is not a valid token")
    ) {
      try Self.decode(text)
    }
  }

  /// A keyring login's records are written without their tokens (those are keyring items)
  /// and read back with empty ones; a token in the file for one is refused.
  @Test func aKeyringLoginsRecordsAreWrittenWithoutTheirTokens() throws {
    var account = Self.login(narrowed: [try Self.cached(), try Self.run()])
    account.storage = .keyring
    let credentials = Credentials(hosts: ["github.com": HostEntry(activeLogin: "alice", accounts: [account])])
    try CredentialCoding.validate(credentials)
    let bytes = CredentialCoding.encode(credentials)
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(!text.contains("ghu_narrowed") && !text.contains("ghu_parent1"))
    let decoded = try CredentialCoding.decode(bytes)
    let records = try #require(decoded.hosts["github.com"]?.accounts.first?.narrowed)
    #expect(records.map(\.id) == ["0123456789abcdef", "fedcba9876543210"])
    #expect(records.allSatisfy { $0.token.isEmpty })
    #expect(records.map(\.consumerID) == [nil, "r-1"])

    let withToken =
      #"{"version": 4, "hosts": {"github.com": {"accounts": [{"login": "alice", "user_id": 7, "store": "keyring", "#
      + #""token_type": "bearer", "scopes": [], "created_at": 1, "narrowed": [{"id": "abc", "token": "ghu_a", "#
      + #""owner": "acme", "repositories": ["api"], "permissions": {}, "consumer": "cache", "created_at": 1}]}]}}}"#
    #expect(
      throws: CredentialCoding.Failure.invalid(
        "\"hosts.github.com.accounts[0].narrowed[0].token\" must not be in the file for an account kept in the keyring")
    ) {
      try Self.decode(withToken)
    }
  }

  @Test func reuseEndsFiveMinutesBeforeExpiry() throws {
    let record = try Self.cached()
    #expect(record.isReusable(now: 1_700_010_000 - 301))
    #expect(!record.isReusable(now: 1_700_010_000 - 300))
    #expect(!(try Self.run()).isReusable(now: 0))
  }

  @Test func parsesGitHubsExpiry() {
    #expect(NarrowedRecord.parseExpiry("2023-11-14T22:13:20Z") == 1_700_000_000)
    #expect(NarrowedRecord.parseExpiry("2023-11-14 22:13:20 UTC") == nil)
    #expect(NarrowedRecord.parseExpiry(nil) == nil)
  }
}
