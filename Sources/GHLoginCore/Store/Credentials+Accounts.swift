extension Credentials {
  /// Adds `credential` to `host`, replacing the account with the same user id (accounts are
  /// keyed by id, R92), and makes it the active one. Returns the replaced account, whose token
  /// the caller may revoke.
  ///
  /// A rename on GitHub can give the login to another id than the one stored under it: the new
  /// account is then placed before the old entry, so the login answers to it alone and the old
  /// entry is stale (``HostEntry/isStale(_:)``) until that account logs in again or is removed.
  @discardableResult
  package mutating func save(_ credential: Credential, on host: String) -> Credential? {
    var entry = hosts[host] ?? HostEntry()
    var replaced: Credential?
    let index = entry.accounts.firstIndex { $0.userID == credential.userID }
    if let index { replaced = entry.accounts.remove(at: index) }
    let wanted = credential.login.lowercased()
    if let clash = entry.accounts.firstIndex(where: { $0.login.lowercased() == wanted }) {
      entry.accounts.insert(credential, at: clash)  // before the entry that is stale from now on
    } else {
      entry.accounts.insert(credential, at: index ?? entry.accounts.endIndex)
    }
    entry.activeLogin = credential.login
    hosts[host] = entry
    return replaced
  }

  /// Adds a new login's `credential` as ``save(_:on:)`` does, its tokens kept where
  /// ``TokenStorage/forNewLogin(configured:replacing:)`` says (`store` is the config's). Every
  /// login is added through this, under the store's lock (the login pipeline's one save). Returns
  /// the replaced account and the credential as saved.
  mutating func addNewLogin(
    _ credential: Credential, on host: String, store: TokenStorage
  ) -> (replaced: Credential?, saved: Credential) {
    var credential = credential
    let existing = hosts[host]?.accounts.first { $0.userID == credential.userID }
    credential.storage = TokenStorage.forNewLogin(configured: store, replacing: existing)
    return (save(credential, on: host), credential)
  }

  /// Removes the account `login` answers to on `host` (one account; a stale entry with the same
  /// login is left, and answers to it next). When it was the active one, the first account left
  /// becomes active; a host with no accounts left is removed.
  package mutating func remove(login: String, from host: String) {
    guard let account = hosts[host]?.account(login) else { return }
    remove(from: host) { $0.userID == account.userID && $0.token == account.token }
  }

  /// Removes the first account of `host` that `matches`; the active one is then the first account
  /// left when the removed one was active; a host with no accounts left is removed.
  package mutating func remove(from host: String, where matches: (Credential) -> Bool) {
    guard var entry = hosts[host], let index = entry.accounts.firstIndex(where: matches) else { return }
    let removed = entry.accounts.remove(at: index)
    if entry.accounts.isEmpty {
      hosts[host] = nil
      return
    }
    if entry.active == nil || entry.activeLogin?.lowercased() == removed.login.lowercased() {
      entry.activeLogin = entry.accounts.first { !entry.isStale($0) }?.login ?? entry.accounts.first?.login
    }
    hosts[host] = entry
  }
}
