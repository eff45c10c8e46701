extension Credentials {
  /// Adds `credential` to `host`, replacing the login with the same user id and client ID
  /// (a login is identified by host, user and the app that issued it: R92, R111; another app's
  /// login of the same user stays beside it), and makes it the default of the caller whose app
  /// is `app` (``HostEntry/makeDefault(_:forApp:)``: no other app's default changes). Returns
  /// the replaced login, whose token the caller may revoke.
  ///
  /// A rename on GitHub can give the login to another id than the one stored under it: the new
  /// account is then placed before the old entry, so the login answers to it alone and the old
  /// entry is stale (``HostEntry/isStale(_:)``) until that account logs in again or is removed.
  ///
  /// With `replacingUnrecorded`, an app's login of a user who has none of that app's but one
  /// that records no app (a login an earlier release stored, or a token stored with
  /// `--with-token`) replaces that one, as every login did before logins were told apart by app
  /// (R92's one login per user; its token is revoked as a replaced one's).
  @discardableResult
  package mutating func save(
    _ credential: Credential, on host: String, defaultFor app: String?, replacingUnrecorded: Bool = false
  ) -> Credential? {
    var entry = hosts[host] ?? HostEntry()
    var replaced: Credential?
    let index = Self.replacedIndex(of: credential, in: entry, replacingUnrecorded: replacingUnrecorded)
    if let index { replaced = entry.accounts.remove(at: index) }
    let wanted = credential.login.lowercased()
    if let clash = entry.accounts.firstIndex(where: {
      $0.login.lowercased() == wanted && $0.userID != credential.userID
    }) {
      entry.accounts.insert(credential, at: clash)  // before the entry that is stale from now on
    } else {
      entry.accounts.insert(credential, at: index ?? entry.accounts.endIndex)
    }
    entry.makeDefault(credential.login, forApp: app)
    hosts[host] = entry
    return replaced
  }

  /// The index of the login `credential` replaces in `entry` (``save(_:on:defaultFor:replacingUnrecorded:)``).
  private static func replacedIndex(of credential: Credential, in entry: HostEntry, replacingUnrecorded: Bool) -> Int? {
    if let same = entry.accounts.firstIndex(where: { $0.isSameLogin(as: credential) }) { return same }
    guard replacingUnrecorded, credential.clientID != nil else { return nil }
    return entry.accounts.firstIndex { $0.userID == credential.userID && $0.clientID == nil }
  }

  /// ``save(_:on:defaultFor:replacingUnrecorded:)`` as the app that issued `credential` (none: a caller without an app).
  @discardableResult
  package mutating func save(_ credential: Credential, on host: String) -> Credential? {
    save(credential, on: host, defaultFor: credential.clientID)
  }

  /// Adds a new login's `credential` as ``save(_:on:defaultFor:replacingUnrecorded:)`` does, its tokens kept where
  /// ``TokenStorage/forNewLogin(configured:replacing:)`` says (`store` is the config's). Every
  /// login is added through this, under the store's lock (the login pipeline's one save), by the
  /// caller whose app is `app`, whose default it becomes. Returns the replaced login and the
  /// credential as saved.
  package mutating func addNewLogin(
    _ credential: Credential, on host: String, store: TokenStorage, defaultFor app: String?,
    replacingUnrecorded: Bool = false
  ) -> (replaced: Credential?, saved: Credential) {
    var credential = credential
    let existing = hosts[host].flatMap { entry in
      Self.replacedIndex(of: credential, in: entry, replacingUnrecorded: replacingUnrecorded).map { entry.accounts[$0] }
    }
    credential.storage = TokenStorage.forNewLogin(configured: store, replacing: existing)
    return (save(credential, on: host, defaultFor: app, replacingUnrecorded: replacingUnrecorded), credential)
  }

  /// Removes the account `login` answers to on `host` (one account; a stale entry with the same
  /// login is left, and answers to it next). When it was the active one, the first account left
  /// becomes active; a host with no accounts left is removed.
  package mutating func remove(login: String, from host: String) {
    guard let account = hosts[host]?.account(login) else { return }
    remove(from: host) { $0.isSameLogin(as: account) && $0.token == account.token }
  }

  /// Removes the first account of `host` that `matches`. A default that named it (``HostEntry/activeLogin``,
  /// an app's entry in ``HostEntry/defaults``) and that no other login of the same user can
  /// answer to any more is given up: the active one becomes the first account left, an app's
  /// entry is dropped (that app follows the active one). A host with no accounts left is removed.
  package mutating func remove(from host: String, where matches: (Credential) -> Bool) {
    guard var entry = hosts[host], let index = entry.accounts.firstIndex(where: matches) else { return }
    let removed = entry.accounts.remove(at: index)
    if entry.accounts.isEmpty {
      hosts[host] = nil
      return
    }
    let name = removed.login.lowercased()
    // Another app's login of the same user still answers to the login: the defaults stay.
    let userRemains = entry.accounts.contains { $0.userID == removed.userID && $0.login.lowercased() == name }
    if entry.active == nil || (!userRemains && entry.activeLogin?.lowercased() == name) {
      entry.activeLogin = entry.accounts.first { !entry.isStale($0) }?.login ?? entry.accounts.first?.login
    }
    if !userRemains { entry.defaults = entry.defaults.filter { $0.value.lowercased() != name } }
    entry.normalizeDefaults()
    hosts[host] = entry
  }
}
