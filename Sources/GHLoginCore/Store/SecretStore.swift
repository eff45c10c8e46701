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
}

/// The keyring backends this build has.
enum SecretStores {
  /// The keyring of this platform: the Secret Service on Linux. Creating it loads nothing;
  /// a backend connects on its first call.
  package static var platform: any SecretStore { SecretServiceStore() }
}
