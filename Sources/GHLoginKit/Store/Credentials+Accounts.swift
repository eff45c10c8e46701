extension Credentials {
  /// Adds `credential` to `host`, replacing the account with the same user id (or login), and
  /// makes it the active one. Returns the replaced account, whose token the caller may revoke.
  @discardableResult
  mutating func save(_ credential: Credential, on host: String) -> Credential? {
    var entry = hosts[host] ?? HostEntry()
    let index = entry.accounts.firstIndex {
      $0.userID == credential.userID || $0.login.lowercased() == credential.login.lowercased()
    }
    var replaced: Credential?
    if let index {
      replaced = entry.accounts[index]
      entry.accounts[index] = credential
    } else {
      entry.accounts.append(credential)
    }
    entry.activeLogin = credential.login
    hosts[host] = entry
    return replaced
  }

  /// Removes the account `login` from `host`. When it was the active one, the first account
  /// left becomes active; a host with no accounts left is removed.
  mutating func remove(login: String, from host: String) {
    guard var entry = hosts[host] else { return }
    let wanted = login.lowercased()
    entry.accounts.removeAll { $0.login.lowercased() == wanted }
    if entry.accounts.isEmpty {
      hosts[host] = nil
      return
    }
    if entry.activeLogin?.lowercased() == wanted { entry.activeLogin = entry.accounts.first?.login }
    hosts[host] = entry
  }
}
