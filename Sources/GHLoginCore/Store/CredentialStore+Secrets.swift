/// Accounts kept in the keyring: their tokens are read from ``CredentialStore/secrets`` when
/// the file is read, and written there before the file is, under the same lock.
extension CredentialStore {
  /// Fails when the keyring cannot be reached (no service, libsecret missing) or stays locked,
  /// before a login whose token would have nowhere to go.
  package func checkKeyring() throws(KeyringError) { try secrets.checkUsable() }

  /// What every login checks before it prints a URL or a code, or sends a token anywhere
  /// (R97): the credentials file can be read (an unusable one is refused now, not after the
  /// approval), and with `store` (the config's) the keyring, that it is reachable and unlocked
  /// (its unlock prompt, when one can be shown). A login that passes has somewhere to keep its
  /// token, so an approval is not wasted (R96 revokes a token that still cannot be stored).
  package func checkReadyForNewLogin(store: TokenStorage) throws {
    _ = try load()
    if store == .keyring { try checkKeyring() }
  }

  /// Stores a new login under the lock (``Credentials/saveNewLogin(_:on:store:)``: where its
  /// tokens go is decided there); returns the replaced account and the credential as saved.
  package func saveNewLogin(
    _ credential: Credential, on host: String, store: TokenStorage
  ) throws -> (replaced: Credential?, saved: Credential) {
    try update { credentials in credentials.saveNewLogin(credential, on: host, store: store) }
  }

  /// Fills in the tokens of every account kept in the keyring. A missing item is recorded in
  /// ``Credential/missingSecret`` (the command that needs that account reports it); a keyring
  /// that cannot be used (no service, locked) throws. Accounts in the file are not touched,
  /// and with none in the keyring the keyring is never contacted.
  package func resolveSecrets(_ credentials: inout Credentials) throws(KeyringError) {
    for (host, entry) in credentials.hosts {
      for index in entry.accounts.indices where entry.accounts[index].storage == .keyring {
        var account = entry.accounts[index]
        if let token = try secrets.read(account.secretItem(.accessToken, on: host)) {
          guard Credential.isAcceptableToken(token) else {
            throw .invalidItem(host: host, login: account.login, kind: .accessToken)
          }
          account.token = token
        } else {
          account.missingSecret = .accessToken
        }
        if account.refreshToken != nil {
          if let refresh = try secrets.read(account.secretItem(.refreshToken, on: host)) {
            guard Credential.isAcceptableToken(refresh) else {
              throw .invalidItem(host: host, login: account.login, kind: .refreshToken)
            }
            account.refreshToken = refresh
          } else {
            account.refreshToken = nil
            account.missingSecret = account.missingSecret ?? .refreshToken
          }
        }
        credentials.hosts[host]?.accounts[index] = account
      }
    }
  }
}

/// What the keyring must do for the credentials to go from `current` to `updated`, in the
/// order that keeps every account readable from the file or the keyring at every moment.
package struct SecretSync {
  /// Items to write (each read back) before the file is written.
  package var writes: [(SecretItem, String)] = []
  /// Items to delete before the file is written: of accounts that are gone (logout), and
  /// refresh tokens an account no longer has. An interruption after these leaves an account
  /// whose item is missing, which `logout` and `auth` repair. Each with the secret read from
  /// it: only an item still holding that is deleted (R101).
  package var deletesBefore: [(SecretItem, String)] = []
  /// Items to delete once the file is written: of accounts whose tokens moved to the file,
  /// and the old items of a renamed login; each with the secret read from it.
  package var deletesAfter: [(SecretItem, String)] = []

  package init(from current: Credentials, to updated: Credentials) {
    let old = Self.accounts(current)
    let new = Self.accounts(updated)
    for (key, account) in new where account.storage == .keyring && account.missingSecret == nil {
      let before = old[key].flatMap { $0.storage == .keyring && $0.missingSecret == nil ? $0 : nil }
      let renamed = before.map { $0.login != account.login } ?? false
      if !account.token.isEmpty && (before?.token != account.token || renamed) {
        writes.append((account.secretItem(.accessToken, on: key.host), account.token))
      }
      if let refresh = account.refreshToken {
        if !refresh.isEmpty && (before?.refreshToken != refresh || renamed) {
          writes.append((account.secretItem(.refreshToken, on: key.host), refresh))
        }
      } else if let before, let refresh = before.refreshToken, !refresh.isEmpty {
        deletesBefore.append((before.secretItem(.refreshToken, on: key.host), refresh))
      }
      if let before, renamed { deletesAfter += Self.items(of: before, on: key.host) }
    }
    for (key, account) in old where account.storage == .keyring {
      guard let after = new[key] else {
        deletesBefore += Self.items(of: account, on: key.host)
        continue
      }
      if after.storage == .file { deletesAfter += Self.items(of: account, on: key.host) }
    }
  }

  package var isEmpty: Bool { writes.isEmpty && deletesBefore.isEmpty && deletesAfter.isEmpty }

  /// Writes and reads back the new items, then deletes what no account needs any more.
  package func applyBeforeFile(_ secrets: any SecretStore) throws(KeyringError) {
    for (item, secret) in writes {
      try secrets.write(secret, to: item)
      guard try secrets.read(item) == secret else { throw .readBackMismatch(host: item.host, login: item.login) }
    }
    for (item, secret) in deletesBefore { try secrets.delete(item, holding: secret) }
  }

  /// Deletes the items the file no longer points to.
  package func applyAfterFile(_ secrets: any SecretStore) throws(KeyringError) {
    do {
      for (item, secret) in deletesAfter { try secrets.delete(item, holding: secret) }
    } catch {
      throw .oldItemsLeft(deletesAfter.map { $0.0 }, reason: error.message)
    }
  }

  private struct Key: Hashable {
    package var host: String
    package var userID: Int64
  }

  private static func accounts(_ credentials: Credentials) -> [Key: Credential] {
    var result: [Key: Credential] = [:]
    for (host, entry) in credentials.hosts {
      for account in entry.accounts { result[Key(host: host, userID: account.userID)] = account }
    }
    return result
  }

  /// The items of `account` whose secrets were read (an item found missing is not deleted:
  /// whatever holds its attributes now was not read by ghlogin).
  private static func items(of account: Credential, on host: String) -> [(SecretItem, String)] {
    var items: [(SecretItem, String)] = []
    if !account.token.isEmpty { items.append((account.secretItem(.accessToken, on: host), account.token)) }
    if let refresh = account.refreshToken, !refresh.isEmpty {
      items.append((account.secretItem(.refreshToken, on: host), refresh))
    }
    return items
  }
}
