/// One narrowed token kept beside the login it was minted from (issue 34 §1): in the
/// credentials file under the account's `"narrowed"` (file version 4); for a login kept in the
/// keyring the file has the record without its token, which is the record's keyring item
/// (``NarrowedSecretItem``; an item that is missing leaves ``token`` empty: no token to hand
/// out, a new one is minted). Its token is opaque (R30) and never shown whole; `status` lists
/// the record redacted.
///
/// Who holds it is its ``consumer``: `cache` (shared by `token --repo` and `env --repo`, one per
/// exact narrowing, reused until five minutes before it expires), `run` (one `ghlogin run`'s,
/// named by `GHLOGIN_RUN`) or `forward` (an agent forward's). Every record's token is revoked
/// when the record is dropped by ghlogin (a parent's refresh drops the cached ones; a logout
/// all of them).
package struct NarrowedRecord: Sendable, Equatable {
  /// Who the token was minted for.
  package enum Consumer: String, Sendable, Equatable, CaseIterable {
    case cache
    case run
    case forward
  }

  /// A random identifier of this record: 16 lowercase hex digits.
  package var id: String
  package var token: String
  /// GitHub's `expires_at`, in Unix seconds; nil when GitHub's answer gave none that could be
  /// read (such a cached token is never reused).
  package var expiresAt: Double?
  /// The repositories' owner, as given.
  package var owner: String
  /// The repository names, without the owner, sorted (lowercased: GitHub's names ignore case).
  package var repositories: [String]
  /// The permissions asked for; empty: the login's own on the repositories.
  package var permissions: [String: String]
  package var consumer: Consumer
  /// The run's or forward's identifier (`GHLOGIN_RUN`); nil for `cache`.
  package var consumerID: String?
  /// When it was minted, in Unix seconds.
  package var createdAt: Double
  /// For a login kept in the keyring: what its item held when that is not a valid token (then
  /// ``token`` is empty), so that only an item still holding it is deleted (R101; never written).
  var unusableSecret: String?

  package init(
    id: String = NarrowedRecord.newID(), token: String, expiresAt: Double?, narrowing: Narrowing,
    consumer: Consumer, consumerID: String? = nil, createdAt: Double
  ) {
    self.id = id
    self.token = token
    self.expiresAt = expiresAt
    self.owner = narrowing.owner
    self.repositories = Self.key(narrowing.repositories)
    self.permissions = narrowing.permissions
    self.consumer = consumer
    self.consumerID = consumerID
    self.createdAt = createdAt
  }

  package init(
    id: String, token: String, expiresAt: Double?, owner: String, repositories: [String],
    permissions: [String: String], consumer: Consumer, consumerID: String?, createdAt: Double
  ) {
    self.id = id
    self.token = token
    self.expiresAt = expiresAt
    self.owner = owner
    self.repositories = repositories
    self.permissions = permissions
    self.consumer = consumer
    self.consumerID = consumerID
    self.createdAt = createdAt
  }

  /// Repository names as records keep them: lowercased and sorted.
  static func key(_ repositories: [String]) -> [String] { repositories.map { $0.lowercased() }.sorted() }

  /// Whether this record was minted for exactly `narrowing` (owner and names ignoring case).
  package func isFor(_ narrowing: Narrowing) -> Bool {
    owner.lowercased() == narrowing.owner.lowercased() && repositories == Self.key(narrowing.repositories)
      && permissions == narrowing.permissions
  }

  /// The narrowing this record was minted for (a run's own, when its token is minted again).
  package var narrowing: Narrowing? {
    try? Narrowing(
      repositories: repositories.map { owner + "/" + $0 },
      permissions: permissions.keys.sorted().map { "\($0):\(permissions[$0] ?? "")" })
  }

  /// How long before its expiry a cached token stops being handed out: five minutes, the
  /// margin a login's own token is refreshed at.
  package static let reuseMargin = 300.0

  /// Whether a cached token can still be handed out at `now`: it expires more than
  /// ``reuseMargin`` later.
  package func isReusable(now: Double) -> Bool {
    guard let expiresAt else { return false }
    return expiresAt - now > Self.reuseMargin
  }

  /// The keyring item's `narrowing` attribute: `OWNER/NAME,…` and, when permissions were
  /// asked, a space and `NAME:LEVEL,…` (sorted), as `--repo` and `--permission` spell them.
  package var narrowingAttribute: String {
    let names = permissions.keys.sorted().map { "\($0):\(permissions[$0] ?? "")" }
    return repositoriesDescription + (names.isEmpty ? "" : " " + names.joined(separator: ","))
  }

  /// What to delete the record's keyring item holding: its token, else what the item held
  /// that was not one; nil when nothing was read from it.
  var keyringSecret: String? { token.isEmpty ? unusableSecret : token }

  /// `OWNER/NAME,…` for `status`.
  package var repositoriesDescription: String { repositories.map { owner + "/" + $0 }.joined(separator: ",") }

  /// 16 lowercase hex digits from `SystemRandomNumberGenerator` (`getrandom(2)` on Linux).
  package static func newID() -> String {
    let digits = String(UInt64.random(in: .min ... .max), radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// Whether `text` can be a record's or a consumer's id: 1 to 64 ASCII letters, digits, `-`, `_`.
  package static func isValidID(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    return (1...64).contains(bytes.count)
      && bytes.allSatisfy { byte in
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x2D || byte == 0x5F
      }
  }

  /// GitHub's `expires_at` (`2026-12-06T10:00:00Z`) in Unix seconds; nil for any other form.
  package static func parseExpiry(_ text: String?) -> Double? {
    guard let text else { return nil }
    let bytes = Array(text.utf8)
    guard bytes.count == 20, bytes[10] == UInt8(ascii: "T"), bytes[19] == UInt8(ascii: "Z") else { return nil }
    let date = String(decoding: bytes[0..<10], as: UTF8.self)
    let time = String(decoding: bytes[11..<19], as: UTF8.self)
    return TokenExpirationHeader.parse(date + " " + time + " UTC")
  }
}

extension Credential {
  /// The cached record (``NarrowedRecord/Consumer/cache``) for exactly `narrowing`, if any.
  package func cachedNarrowed(for narrowing: Narrowing) -> NarrowedRecord? {
    narrowed.first { $0.consumer == .cache && $0.isFor(narrowing) }
  }

  /// The record of the run or forward `id`, if any.
  package func narrowedRecord(consumer: NarrowedRecord.Consumer, id: String) -> NarrowedRecord? {
    narrowed.first { $0.consumer == consumer && $0.consumerID == id }
  }

  /// The keyring item of `record` of this login on `host` (``NarrowedSecretItem``).
  package func narrowedItem(_ record: NarrowedRecord, on host: String) -> NarrowedSecretItem {
    NarrowedSecretItem(
      host: host, login: login, userID: userID, clientID: clientID, narrowing: record.narrowingAttribute,
      recordID: record.id)
  }
}
