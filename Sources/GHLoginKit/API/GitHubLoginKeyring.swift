import GHLoginCore

/// Where the library keeps the tokens of logins stored in a keyring (``GitHubLoginConfiguration/tokenStore``
/// `.keyring`, or `"store": "keyring"` in the config file): the credentials file then holds the
/// account and no token.
///
/// The default (``GitHubLoginEnvironment/keyring`` nil) is the Secret Service, as `ghlogin`
/// uses; a test passes one that keeps items in memory. Calls may block (an unlock prompt).
///
/// Items live in one place: ``read(_:)`` and ``delete(_:holding:)`` look only where
/// ``write(_:to:)`` puts items. An item is found by all of its ``GitHubLoginKeyringItem/attributes``,
/// and an item whose attributes have no `client_id` (written before items carried one) never
/// matches an item that has one; when two items match, throw
/// ``GitHubLoginKeyringError/failed(reason:)`` rather than choose.
public protocol GitHubLoginKeyring: Sendable {
  /// Throws when the keyring cannot be used now (``GitHubLoginKeyringError/unavailable(reason:)``,
  /// ``GitHubLoginKeyringError/locked``). A login calls it before it asks the server anything,
  /// so that a token is never issued with nowhere to keep it.
  func checkUsable() throws
  /// The secret of `item`, or nil when there is no such item.
  func read(_ item: GitHubLoginKeyringItem) throws -> String?
  /// Creates or replaces `item` with `secret`.
  func write(_ secret: String, to item: GitHubLoginKeyringItem) throws
  /// Removes `item` if it holds `secret` (what was read from it); leave an item that holds
  /// anything else, and do not throw when there is none.
  func delete(_ item: GitHubLoginKeyringItem, holding secret: String) throws
}

/// Why a ``GitHubLoginKeyring`` could not do what it was asked. Any other error a keyring
/// throws is reported as ``failed(reason:)`` with its description (so keep secrets out of it).
/// Each becomes a ``GitHubLoginError`` of kind ``GitHubLoginErrorKind/keyring``.
public enum GitHubLoginKeyringError: Error, Sendable, Hashable {
  /// There is no keyring to talk to (no daemon, no session bus, no library); `reason` says which.
  case unavailable(reason: String)
  /// The keyring is locked and was not unlocked.
  case locked
  /// The keyring refused or failed the operation.
  case failed(reason: String)
}

/// A ``GitHubLoginKeyring`` as the store's keyring: each failure is a ``KeyringError``.
struct KeyringAdapter: SecretStore {
  let keyring: any GitHubLoginKeyring

  func checkUsable() throws(KeyringError) {
    try Self.mapping(operation: "reach the keyring") { try keyring.checkUsable() }
  }

  func read(_ item: SecretItem) throws(KeyringError) -> String? {
    try Self.mapping(operation: "read \(Self.describe(item))") { try keyring.read(item) }
  }

  func write(_ secret: String, to item: SecretItem) throws(KeyringError) {
    try Self.mapping(operation: "store \(Self.describe(item))") {
      try keyring.write(secret, to: item)
    }
  }

  func delete(_ item: SecretItem, holding secret: String) throws(KeyringError) {
    try Self.mapping(operation: "delete \(Self.describe(item))") {
      try keyring.delete(item, holding: secret)
    }
  }

  private static func describe(_ item: SecretItem) -> String {
    "the \(item.kind == .accessToken ? "token" : "refresh token") of \(item.login) on \(item.host)"
  }

  private static func mapping<T>(operation: String, _ body: () throws -> T) throws(KeyringError) -> T {
    do {
      return try body()
    } catch let error as GitHubLoginKeyringError {
      switch error {
      case .unavailable(let reason): throw .unavailable(reason: Sanitize.terminal(reason, maxCharacters: 200))
      case .locked: throw .locked
      case .failed(let reason):
        throw .failed(operation: operation, reason: Sanitize.terminal(reason, maxCharacters: 200))
      }
    } catch {
      throw .failed(operation: operation, reason: Sanitize.terminal("\(error)", maxCharacters: 200))
    }
  }
}
