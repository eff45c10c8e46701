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
  /// own app sees only its app's logins (``Workspace/isVisible(_:toApp:)``). Nil for a token stored with
  /// `auth --with-token` (no app issued it to ghlogin) and for logins stored before it was kept.
  /// A refresh replaces the tokens and keeps it.
  package var clientID: String?
  /// The narrowed tokens minted from this login (issue 34 §1, file version 4): cached ones and
  /// those of runs and forwards. A refresh drops (and revokes) the cached ones; a logout all.
  package var narrowed: [NarrowedRecord] = []
  /// Whether this login's keyring items were written before items carried `client_id` (five
  /// attributes, ``GitHubLoginKeyringItem/predatesClientID``): true for every keyring login of a version-1
  /// or -2 file, and in version 3 where `"keyring_attributes": 5` says so. The next write of the
  /// login's items replaces them with six-attribute ones (``SecretSync``).
  package var keyringItemsPredateClientID = false
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
  /// app sees only these logins (``Workspace/isVisible(_:toApp:)``).
  package func isUsable(byApp clientID: String) -> Bool { Self.mayBeUsed(issuedTo: self.clientID, byApp: clientID) }

  /// ``isUsable(byApp:)`` for a login issued to `issuer` (nil: not recorded); revocation asks it.
  static func mayBeUsed(issuedTo issuer: String?, byApp clientID: String) -> Bool {
    issuer.map { $0 == clientID } ?? true
  }

  /// Whether `other` is the same stored login (R111): the same user id and the same issuing app
  /// (``clientID``; logins without one are one app for this). Two apps' logins of one user are
  /// two logins: saved, refreshed, revoked and removed apart.
  package func isSameLogin(as other: Credential) -> Bool { userID == other.userID && clientID == other.clientID }

  /// The keyring item holding `kind` for this account on `host`.
  package func secretItem(_ kind: SecretItem.Kind, on host: String) -> SecretItem {
    SecretItem(
      host: host, login: login, userID: userID, kind: kind, clientID: clientID,
      predatesClientID: keyringItemsPredateClientID)
  }

  /// Whether `token` can be stored and sent: an RFC 6750 `b64token` (``BearerToken``; R30:
  /// tokens go into HTTP headers and the git credential protocol). No length limit.
  package static func isAcceptableToken(_ token: String) -> Bool { BearerToken.isValid(token) }
}

/// The accounts of one host, and which one is the default of each app.
package struct HostEntry: Sendable, Equatable {
  /// The login used when none is named (written as `"active"`): the default of every caller
  /// whose app has no entry in ``defaults``, and of callers without an app; nil when none is set.
  package var activeLogin: String?
  /// The default login of each app (by client ID) whose default is not ``activeLogin``
  /// (written as `"defaults"`, version 3): a login or `switch` by one app sets its own entry,
  /// never another app's default (issue 33 §1).
  package var defaults: [String: String] = [:]
  /// The accounts, in the order they were added.
  package var accounts: [Credential]

  package init(activeLogin: String? = nil, accounts: [Credential] = [], defaults: [String: String] = [:]) {
    self.activeLogin = activeLogin
    self.accounts = accounts
    self.defaults = defaults
  }

  /// The account with `login` (GitHub logins ignore case).
  package func account(_ login: String) -> Credential? {
    let wanted = login.lowercased()
    return accounts.first { $0.login.lowercased() == wanted }
  }

  /// The active account, if any.
  package var active: Credential? { activeLogin.flatMap(account) }

  /// Whether `account` is stale (R92): another user's account earlier in the list has its
  /// login, so the login answers to that one (GitHub renamed; see ``Credentials/save(_:on:)``).
  /// A stale account is never chosen by `--user` and is never active. Two apps' logins of one
  /// user are not stale (R111).
  package func isStale(_ account: Credential) -> Bool {
    guard let answering = self.account(account.login) else { return false }
    return answering.userID != account.userID
  }

  /// Whether `account` is the active one for a caller without an app (``defaultAccount(forApp:)`` of nil).
  package func isActive(_ account: Credential) -> Bool { isDefault(account, forApp: nil) }

  /// Whether `account` is the default of the caller whose app is `app`.
  package func isDefault(_ account: Credential, forApp app: String?) -> Bool {
    defaultAccount(forApp: app).map { $0.isSameLogin(as: account) } ?? false
  }

  /// The login that is the default of the caller whose app is `app` (client ID; nil: a caller
  /// without one): its entry in ``defaults``, else ``activeLogin``.
  package func defaultLogin(forApp app: String?) -> String? {
    app.flatMap { defaults[$0] } ?? activeLogin
  }

  /// The account the default login of `app` answers to for that caller
  /// (``account(_:forApp:)``); nil when there is none it may use.
  package func defaultAccount(forApp app: String?) -> Credential? {
    defaultLogin(forApp: app).flatMap { account($0, forApp: app) }
  }

  /// The login of the account `login` answers to (never a stale entry, R92) that the caller whose
  /// app is `app` may use (``Credential/isUsable(byApp:)``): its own app's login of that user
  /// first, else one without a client ID. A caller without an app takes the first.
  package func account(_ login: String, forApp app: String?) -> Credential? {
    let wanted = login.lowercased()
    let candidates = accounts.filter { $0.login.lowercased() == wanted && !isStale($0) }
    guard let app else { return candidates.first }
    return candidates.first { $0.clientID == app } ?? candidates.first { $0.clientID == nil }
  }

  /// Makes `login` the default of the caller whose app is `app` (issue 33 §1) and of no other
  /// app: it becomes ``activeLogin``, and every other app with a login here that followed the
  /// previous active login keeps it (an entry in ``defaults``). With one app on the host, that
  /// is just the active login, and the file keeps its version.
  package mutating func makeDefault(_ login: String, forApp app: String?) {
    if let previous = activeLogin, previous.lowercased() != login.lowercased() {
      // Only an app that could use the previous login keeps it: for any other it named nothing.
      for other in Set(accounts.compactMap(\.clientID))
      where other != app && defaults[other] == nil && account(previous, forApp: other) != nil {
        defaults[other] = previous
      }
    }
    activeLogin = login
    if let app { defaults[app] = nil }
    normalizeDefaults()
  }

  /// Drops the entries of ``defaults`` that say what ``activeLogin`` says already, so a file
  /// needs version 3 only when an app's default really differs.
  package mutating func normalizeDefaults() {
    let active = activeLogin?.lowercased()
    defaults = defaults.filter { $0.value.lowercased() != active }
  }

  /// Whether writing this entry needs file version 4: an account holds narrowed tokens.
  package var needsVersion4: Bool { accounts.contains { !$0.narrowed.isEmpty } }

  /// Whether writing this entry needs file version 3: an app's own default, two logins of one
  /// user (two apps', R111), which an older ghlogin would merge on its next write, or a login
  /// whose keyring items carry `client_id`.
  package var needsVersion3: Bool {
    guard defaults.isEmpty else { return true }
    // Six-attribute keyring items: an older file says nothing of them, so it means five.
    if accounts.contains(where: { $0.storage == .keyring && !$0.keyringItemsPredateClientID }) { return true }
    var seen = Set<Int64>()
    for account in accounts where !seen.insert(account.userID).inserted { return true }
    return false
  }
}

/// Everything in the credentials file: host name → accounts.
package struct Credentials: Sendable, Equatable {
  /// The newest file format version this ghlogin reads and writes: 2 adds an account's
  /// `"client_id"`; 3 two logins of one user on one host (two apps', R111) and a host's
  /// per-app `"defaults"`. A file is written as the oldest version that holds it
  /// (``formatVersion``), so an older ghlogin keeps reading the files that do not need the new
  /// keys, and refuses the others with its "upgrade" message rather than losing a login.
  /// 4 adds an account's `"narrowed"` tokens (issue 34 §1).
  package static let currentVersion = 4

  /// The version these credentials are written as: 4 when an account holds narrowed tokens
  /// (``HostEntry/needsVersion4``), else 3 when a host needs it (``HostEntry/needsVersion3``),
  /// else 2 when an account has a client ID, else 1.
  package var formatVersion: Int {
    if hosts.values.contains(where: { $0.needsVersion4 }) { return 4 }
    if hosts.values.contains(where: { $0.needsVersion3 }) { return 3 }
    return hosts.values.contains { $0.accounts.contains { $0.clientID != nil } } ? 2 : 1
  }

  /// Keyed by host name; written sorted by key.
  package var hosts: [String: HostEntry] {
    get { only.map { [$0.name: $0.entry] } ?? table }
    _modify {
      if let only {
        table = [only.name: only.entry]
        self.only = nil
      }
      yield &table
    }
  }

  /// The entries, by host name, unless ``only`` holds the one entry.
  private var table: [String: HostEntry]
  /// The entry of credentials read for one host
  /// (``CredentialCoding/decode(_:host:)-(UnsafeBufferPointer<UInt8>,_)``, what `token` and the
  /// helpers read), kept out of ``table``: a dictionary of entries is a generic type the runtime
  /// builds on first use (and checks `String: Hashable` for), on every run of `token` and the
  /// helpers until then (bench/NOTES.md, issue 30). The readers on that path ask ``entry(for:)``
  /// and ``hostNames``; any use of ``hosts`` works too, through a dictionary.
  private var only: (name: String, entry: HostEntry)?

  package init(hosts: [String: HostEntry] = [:]) { table = hosts }

  /// Credentials of the one host `name`.
  init(host name: String, entry: HostEntry) {
    table = [:]
    only = (name, entry)
  }

  /// The entry of `host`, if the credentials have one.
  package func entry(for host: String) -> HostEntry? {
    guard let only else { return table[host] }
    return only.name == host ? only.entry : nil
  }

  /// The names of the hosts, sorted.
  package var hostNames: [String] { only.map { [$0.name] } ?? table.keys.sorted() }

  package static func == (lhs: Credentials, rhs: Credentials) -> Bool { lhs.hosts == rhs.hosts }
}
