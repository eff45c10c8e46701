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

  /// What the keyring shows for the item (seahorse, `secret-tool search`).
  package var label: String {
    "\(ProductNames.keyringLabelPrefix)\(kind == .accessToken ? "token" : "refresh token") for \(login) on \(host)"
  }

  /// The attributes an item is written and found with: `application` (ghlogin), `host`,
  /// `login`, `user_id` and `kind`.
  package var attributes: [(String, String)] {
    [
      ("application", ProductNames.keyringApplication), ("host", host), ("login", login), ("user_id", String(userID)),
      ("kind", kind.rawValue),
    ]
  }
}

/// A place for secrets outside the credentials file: an OS keyring.
///
/// The one seam for keyring backends: ``CredentialStore`` calls only these functions, so
/// another backend is one new conforming type returned by ``SecretStores/platform``. Calls may
/// block (D-Bus, an unlock prompt); no ``KeyringError`` carries a secret. Items live where
/// `write` puts them (R101): `read` and `delete` never look elsewhere, and two items for one
/// ``SecretItem`` throw ``KeyringError/ambiguous(_:count:)`` rather than one being chosen.
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
