/// The store's name for ``GitHubLoginKeyringItem``: one type, the library's and the store's
/// (issue 32 §3).
package typealias SecretItem = GitHubLoginKeyringItem

/// One token the library keeps in a keyring: the access or refresh token of one account on
/// one host.
public struct GitHubLoginKeyringItem: Sendable, Hashable {
  /// Which of an account's two tokens.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// The token sent to the API.
    case accessToken = "access_token"
    /// The token that gets a new access token when it expires.
    case refreshToken = "refresh_token"
  }

  /// The GitHub host (`github.com`, an Enterprise host).
  public let host: String
  /// The account's login.
  public let login: String
  /// The account's numeric user ID.
  public let userID: Int64
  /// The access or the refresh token.
  public let kind: Kind
  /// The client ID of the OAuth app that issued the login; nil for a token stored as it was
  /// given. Two apps' logins of one user are two items (R111): it is the sixth attribute,
  /// `client_id` (empty for none).
  public let clientID: String?
  /// Whether the item was written before items carried `client_id` (five attributes; the
  /// credentials file records it): it is found on those five, and items that carry a
  /// `client_id` are never it (``absentAttribute``). The next write of the login replaces it
  /// with a six-attribute item.
  package let predatesClientID: Bool

  package init(
    host: String, login: String, userID: Int64, kind: Kind, clientID: String? = nil, predatesClientID: Bool = false
  ) {
    self.host = host
    self.login = login
    self.userID = userID
    self.kind = kind
    self.clientID = clientID
    self.predatesClientID = predatesClientID
  }

  /// What a keyring's window shows for the item ("ghlogin: token for octocat on github.com").
  public var label: String {
    "\(ProductNames.keyringLabelPrefix)\(kind == .accessToken ? "token" : "refresh token") for \(login) on \(host)"
  }

  /// The attributes the item is written and found with: `application` (`ghlogin`), `host`,
  /// `login`, `user_id`, `kind` and `client_id` (the client ID, or empty for none), as the Secret
  /// Service stores them; an item written before `client_id` was kept has the first five only.
  public var attributes: [String: String] { Dictionary(orderedAttributes) { first, _ in first } }

  /// ``attributes`` in the order they are given to the keyring.
  package var orderedAttributes: [(String, String)] {
    let five = [
      ("application", ProductNames.keyringApplication), ("host", host), ("login", login), ("user_id", String(userID)),
      ("kind", kind.rawValue),
    ]
    return predatesClientID ? five : five + [("client_id", clientID ?? "")]
  }

  /// The `client_id` words of a `secret-tool` command naming this item (none for an item that
  /// predates it), so that it never names another app's items of the same user.
  package var secretToolClientID: String {
    guard !predatesClientID else { return "" }
    let value = clientID ?? ""
    if value.isEmpty { return " client_id \"\"" }
    let plain = value.utf8.allSatisfy { byte in
      (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x2E || byte == 0x2D
        || byte == 0x5F
    }
    return " client_id " + (plain ? value : ShellQuoting.quote(value, for: .sh))
  }

  /// The attribute an item that matches must not carry: `client_id` for an item that predates
  /// it (a newer item of the same user has the five attributes too), else none.
  package var absentAttribute: String? { predatesClientID ? "client_id" : nil }
}

/// A place for secrets outside the credentials file: an OS keyring.
///
/// The one seam for keyring backends: ``CredentialStore`` calls only these functions, so
/// another backend is one new conforming type returned by ``SecretStores/platform``. Calls may
/// block (D-Bus, an unlock prompt); no ``KeyringError`` carries a secret. Items live where
/// `write` puts them (R101): `read` and `delete` never look elsewhere, match an item on all of
/// ``GitHubLoginKeyringItem/attributes`` and never one carrying ``GitHubLoginKeyringItem/absentAttribute``, and two items
/// for one ``GitHubLoginKeyringItem`` throw ``KeyringError/ambiguous(_:count:)`` rather than one being chosen.
package protocol SecretStore: Sendable {
  /// Whether the keyring can be used now: reachable, and unlocked (after the keyring's own
  /// unlock prompt, when it can show one). Called before a login asks the server anything.
  func checkUsable() throws(KeyringError)
  /// The secret of `item`; nil when there is no such item.
  func read(_ item: SecretItem) throws(KeyringError) -> String?
  /// Creates or replaces `item` with `secret`.
  func write(_ secret: String, to item: SecretItem) throws(KeyringError)
  /// Removes `item` if it holds `secret` (what was read from it); an item holding anything
  /// else is left alone, and no such item is not an error.
  func delete(_ item: SecretItem, holding secret: String) throws(KeyringError)
  /// Whether narrowed tokens of keyring logins can be kept here (``NarrowedSecretItem``).
  var keepsNarrowedTokens: Bool { get }
  /// The token of the narrowed record `item`; nil when there is no such item.
  func readNarrowed(_ item: NarrowedSecretItem) throws(KeyringError) -> String?
  /// Creates or replaces the narrowed record's item with `secret`.
  func writeNarrowed(_ secret: String, to item: NarrowedSecretItem) throws(KeyringError)
  /// Removes the narrowed record's item if it holds `secret`, as ``delete(_:holding:)`` does.
  func deleteNarrowed(_ item: NarrowedSecretItem, holding secret: String) throws(KeyringError)
}

/// The keyring backends this build has.
enum SecretStores {
  /// The keyring of this platform: the Secret Service on Linux. Creating it loads nothing;
  /// a backend connects on its first call.
  package static var platform: any SecretStore { SecretServiceStore() }
}

/// The keyring item holding the token of one narrowed record (``NarrowedRecord``) of a login
/// kept in the keyring (issue 34 §1): the record's metadata stays in the credentials file, its
/// token only here. Attributes: `application` (`ghlogin`), `host`, `user_id` and `client_id`
/// (the parent login's, `client_id` empty for none), `kind` (`narrowed-token`), `narrowing`
/// (``NarrowedRecord/narrowingAttribute``: `OWNER/NAME,…` and, when permissions were asked,
/// a space and `NAME:LEVEL,…`) and `record` (the record's id). A login's items carry neither
/// `narrowing` nor `record` and another `kind`, an app key's `app`: no lookup of one kind ever
/// matches another (R101).
package struct NarrowedSecretItem: Sendable, Hashable {
  /// The item kind of a narrowed token.
  package static let kind = "narrowed-token"

  package var host: String
  /// The parent login (in the label only: a renamed login's items keep their attributes).
  package var login: String
  package var userID: Int64
  package var clientID: String?
  /// ``NarrowedRecord/narrowingAttribute``.
  package var narrowing: String
  /// ``NarrowedRecord/id``.
  package var recordID: String

  package init(host: String, login: String, userID: Int64, clientID: String?, narrowing: String, recordID: String) {
    self.host = host
    self.login = login
    self.userID = userID
    self.clientID = clientID
    self.narrowing = narrowing
    self.recordID = recordID
  }

  /// The attributes, in the order they are given to the keyring.
  package var orderedAttributes: [(String, String)] {
    [
      ("application", ProductNames.keyringApplication), ("host", host), ("user_id", String(userID)),
      ("client_id", clientID ?? ""), ("kind", Self.kind), ("narrowing", narrowing), ("record", recordID),
    ]
  }

  /// What a keyring's window shows ("ghlogin: narrowed token (acme/api) for octocat on github.com").
  package var label: String {
    "\(ProductNames.keyringLabelPrefix)narrowed token (\(narrowing)) for \(login) on \(host)"
  }

  /// The `secret-tool` words that name this item alone.
  package var secretToolWords: String {
    "application \(ProductNames.keyringApplication) kind \(Self.kind) record \(recordID)"
  }
}

/// Narrowed tokens in the keyring (issue 34 §1). A backend that cannot keep them (a library
/// caller's `GitHubLoginKeyring` holds only ``GitHubLoginKeyringItem``s) keeps the defaults:
/// ``keepsNarrowedTokens`` false, nothing found, nothing written; a keyring login then mints a
/// new narrowed token on every call and cannot hold a run's.
extension SecretStore {
  package var keepsNarrowedTokens: Bool { false }

  package func readNarrowed(_ item: NarrowedSecretItem) throws(KeyringError) -> String? { nil }

  package func writeNarrowed(_ secret: String, to item: NarrowedSecretItem) throws(KeyringError) {
    throw .failed(
      operation: "store a narrowed token of \(item.login) on \(item.host)",
      reason: "this keyring keeps no narrowed tokens")
  }

  package func deleteNarrowed(_ item: NarrowedSecretItem, holding secret: String) throws(KeyringError) {}
}
