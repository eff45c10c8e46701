/// One secret ghlogin keeps outside the credentials file: the access or refresh token of one
/// account on one host.
package struct SecretItem: Sendable, Hashable {
  /// Which of an account's two tokens.
  package enum Kind: String, Sendable, CaseIterable {
    case accessToken = "access_token"
    case refreshToken = "refresh_token"
  }

  package var host: String
  package var login: String
  package var userID: Int64
  package var kind: Kind
  /// The client ID of the app that issued the login (nil: none, a token stored as given): the
  /// sixth attribute, `client_id` ("" for none), that keeps two apps' items of one user apart
  /// (R111).
  package var clientID: String?
  /// Whether the item was written before items carried `client_id` (five attributes; the
  /// credentials file records it): it is found on those five, and items that carry a
  /// `client_id` are never it (``absentAttribute``). The next write of the login replaces it
  /// with a six-attribute item.
  package var predatesClientID = false

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

  /// What the keyring shows for the item (seahorse, `secret-tool search`).
  package var label: String {
    "\(ProductNames.keyringLabelPrefix)\(kind == .accessToken ? "token" : "refresh token") for \(login) on \(host)"
  }

  /// The attributes an item is written and found with: `application` (ghlogin), `host`,
  /// `login`, `user_id`, `kind` and `client_id` (not on an item that predates it).
  package var attributes: [(String, String)] {
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
/// ``SecretItem/attributes`` and never one carrying ``SecretItem/absentAttribute``, and two items
/// for one ``SecretItem`` throw ``KeyringError/ambiguous(_:count:)`` rather than one being chosen.
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
package enum SecretStores {
  /// The keyring of this platform: the Secret Service on Linux. Creating it loads nothing;
  /// a backend connects on its first call.
  package static var platform: any SecretStore { SecretServiceStore() }
}
