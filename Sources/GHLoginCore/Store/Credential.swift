/// One logged-in account on one host: its token and what is known about it.
package struct Credential: Sendable, Equatable {
  package var login: String
  package var userID: Int64
  /// The access token, opaque (R30): never parsed, never shown in messages.
  package var token: String
  /// Usually `bearer`.
  var tokenType: String
  /// The scopes the server granted (not the ones asked for).
  package var scopes: [String]
  /// When the token was obtained, in Unix seconds.
  package var createdAt: Double
  /// When the access token expires, in Unix seconds; nil when it does not.
  package var expiresAt: Double?
  package var refreshToken: String?
  /// When the refresh token expires, in Unix seconds.
  package var refreshTokenExpiresAt: Double?
  /// Whether the token came from the device flow (refreshes need no client secret then).
  package var viaDeviceFlow: Bool
  /// Set when a refresh failed for good: the account must log in again.
  package var isExpired: Bool
  /// Where `token` and `refreshToken` are kept (written to the file as `"store"`).
  package var storage: TokenStorage = .file
  /// When GitHub says the token stops working (its `GitHub-Authentication-Token-Expiration`
  /// header, seen by `auth --with-token`, `whoami` or `status`), in Unix seconds: a personal
  /// access token's own expiry, which no refresh extends (unlike ``expiresAt``).
  package var gitHubExpiration: Double?
  /// The client ID of the OAuth app that issued this login (written as `"client_id"`): its
  /// refresh token is only ever sent with that app (``Refresher``), and a library caller with its
  /// own app sees only its app's logins (``Workspace/isVisible(_:)``). Nil for a token stored with
  /// `auth --with-token` (no app issued it to ghlogin) and for logins stored before it was kept.
  /// A refresh replaces the tokens and keeps it.
  package var clientID: String?
  /// Set on reading when the keyring lacks one of this account's items (never written):
  /// `token` (and, for a missing refresh token, `refreshToken`) are then empty or nil.
  package var missingSecret: SecretItem.Kind?
  /// Set on reading when one of this account's keyring items cannot be used (it does not hold a
  /// valid token, or two items match): only a command that needs this account reports it, and
  /// `auth` replaces the item, `logout` removes it (never written).
  package var secretError: KeyringError?
  /// The values read from this account's keyring items that are not valid tokens, by kind: a
  /// `logout` deletes only items still holding them (R101; never written).
  var unusableSecrets: [SecretItem.Kind: String] = [:]

  /// Throws what reading this account's keyring items found wrong: an unusable item
  /// (``secretError``), else a missing one (``missingSecret``).
  package func checkSecrets(on host: String) throws(KeyringError) {
    if let secretError { throw secretError }
    if let missingSecret { throw KeyringError.itemMissing(host: host, login: login, kind: missingSecret) }
  }

  package init(
    login: String, userID: Int64, token: String, tokenType: String = "bearer", scopes: [String] = [],
    createdAt: Double, expiresAt: Double? = nil, refreshToken: String? = nil, refreshTokenExpiresAt: Double? = nil,
    viaDeviceFlow: Bool = false, isExpired: Bool = false
  ) {
    self.login = login
    self.userID = userID
    self.token = token
    self.tokenType = tokenType
    self.scopes = scopes
    self.createdAt = createdAt
    self.expiresAt = expiresAt
    self.refreshToken = refreshToken
    self.refreshTokenExpiresAt = refreshTokenExpiresAt
    self.viaDeviceFlow = viaDeviceFlow
    self.isExpired = isExpired
  }

  /// Whether this login is one the OAuth app `clientID` may use (SECURITY.md, "Two apps on one host"): that app issued
  /// it, or no app is recorded (a token stored with `auth --with-token`, or a login stored before
  /// client IDs were kept). The one comparison behind every rule about it: a refresh token is sent
  /// only with its own app (``Refresher``), tokens are revoked only with it
  /// (``Workspace/revoke(token:refreshToken:issuedTo:on:)``), and a library caller with its own
  /// app sees only these logins (``Workspace/isVisible(_:)``).
  func isUsable(byApp clientID: String) -> Bool { Self.mayBeUsed(issuedTo: self.clientID, byApp: clientID) }

  /// ``isUsable(byApp:)`` for a login issued to `issuer` (nil: not recorded); revocation asks it.
  static func mayBeUsed(issuedTo issuer: String?, byApp clientID: String) -> Bool {
    issuer.map { $0 == clientID } ?? true
  }

  /// The keyring item holding `kind` for this account on `host`.
  package func secretItem(_ kind: SecretItem.Kind, on host: String) -> SecretItem {
    SecretItem(host: host, login: login, userID: userID, kind: kind)
  }

  /// Whether `token` can be stored and sent: an RFC 6750 `b64token` (``BearerToken``; R30:
  /// tokens go into HTTP headers and the git credential protocol). No length limit.
  package static func isAcceptableToken(_ token: String) -> Bool { BearerToken.isValid(token) }
}

/// The accounts of one host, and which one is active.
package struct HostEntry: Sendable, Equatable {
  /// The login used when none is named; nil when no account is active.
  package var activeLogin: String?
  /// The accounts, in the order they were added.
  package var accounts: [Credential]

  package init(activeLogin: String? = nil, accounts: [Credential] = []) {
    self.activeLogin = activeLogin
    self.accounts = accounts
  }

  /// The account with `login` (GitHub logins ignore case).
  package func account(_ login: String) -> Credential? {
    let wanted = login.lowercased()
    return accounts.first { $0.login.lowercased() == wanted }
  }

  /// The active account, if any.
  package var active: Credential? { activeLogin.flatMap(account) }

  /// Whether `account` is stale (R92): another account earlier in the list has its login, so
  /// the login answers to that one (GitHub renamed; see ``Credentials/save(_:on:)``). A stale
  /// account is never chosen by `--user` and is never active.
  package func isStale(_ account: Credential) -> Bool {
    guard let answering = self.account(account.login) else { return false }
    return answering.userID != account.userID || answering.token != account.token
  }

  /// Whether `account` is the active one (the account the active login answers to).
  package func isActive(_ account: Credential) -> Bool {
    guard let active else { return false }
    return active.userID == account.userID && active.token == account.token
  }
}

/// Everything in the credentials file: host name → accounts.
package struct Credentials: Sendable, Equatable {
  /// The newest file format version this ghlogin reads and writes: 2 adds an account's
  /// `"client_id"`. A file is written as the oldest version that holds it (``formatVersion``),
  /// so an older ghlogin keeps reading the files that do not need the new key.
  static let currentVersion = 2

  /// The version these credentials are written as: 2 when an account has a client ID, else 1.
  var formatVersion: Int {
    hosts.values.contains { $0.accounts.contains { $0.clientID != nil } } ? 2 : 1
  }

  /// Keyed by host name; written sorted by key.
  package var hosts: [String: HostEntry]

  package init(hosts: [String: HostEntry] = [:]) { self.hosts = hosts }
}
