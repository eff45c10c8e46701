/// Accounts kept in the keyring: their tokens are read from ``CredentialStore/secrets`` when
/// the file is read, and written there before the file is, under the same lock.
extension CredentialStore {
  /// Fails when the keyring cannot be reached (no service, libsecret missing) or stays locked,
  /// before a login whose token would have nowhere to go.
  func checkKeyring() throws(KeyringError) { try secrets.checkUsable() }

  /// What every login checks before it prints a URL or a code, or sends a token anywhere
  /// (R97): the credentials file can be read (an unusable one is refused now, not after the
  /// approval), and with `store` (the config's) the keyring, that it is reachable and unlocked
  /// (its unlock prompt, when one can be shown). A login that passes has somewhere to keep its
  /// token, so an approval is not wasted (R96 revokes a token that still cannot be stored).
  func checkReadyForNewLogin(store: TokenStorage) throws {
    _ = try load()
    if store == .keyring { try checkKeyring() }
  }

  /// Fills in the tokens of every account kept in the keyring (``resolvedSecrets(of:on:)``):
  /// what the commands that change the file, and those that list every login, read. The
  /// commands that use one login read only its items (``Workspace`` through
  /// ``resolvedSecrets(of:on:)``). Accounts in the file are not touched, and with none in the
  /// keyring the keyring is never contacted.
  func resolveSecrets(_ credentials: inout Credentials) throws(KeyringError) {
    for (host, entry) in credentials.hosts {
      for index in entry.accounts.indices where entry.accounts[index].storage == .keyring {
        var account = try resolvedSecrets(of: entry.accounts[index], on: host)
        try resolveNarrowed(of: &account, on: host)
        credentials.hosts[host]?.accounts[index] = account
      }
    }
  }

  /// Fills in the tokens of `account`'s narrowed records from their keyring items (issue 34
  /// §1), when it is kept in the keyring: a record whose item is missing, or holds no valid
  /// token, or is doubled (R101: never chosen between), keeps an empty token, so it is never
  /// handed out (a cached one is minted again and replaced). A keyring that cannot be used
  /// throws.
  package func resolveNarrowed(of account: inout Credential, on host: String) throws(KeyringError) {
    guard account.storage == .keyring else { return }
    for index in account.narrowed.indices where account.narrowed[index].token.isEmpty {
      account.narrowed[index] = try resolvedNarrowed(account.narrowed[index], of: account, on: host)
    }
  }

  /// `record` of `account` with its token read from its keyring item (see
  /// ``resolveNarrowed(of:on:)``).
  package func resolvedNarrowed(_ record: NarrowedRecord, of account: Credential, on host: String) throws(KeyringError)
    -> NarrowedRecord
  {
    guard account.storage == .keyring, record.token.isEmpty, record.unusableSecret == nil else { return record }
    var record = record
    let value: String?
    do {
      value = try secrets.readNarrowed(account.narrowedItem(record, on: host))
    } catch {
      // Two matching items: not chosen between, and not used.
      guard case .ambiguousNarrowed = error else { throw error }
      return record
    }
    guard let value else { return record }
    if Credential.isAcceptableToken(value) { record.token = value } else { record.unusableSecret = value }
    return record
  }

  /// `account` with its tokens read from the keyring (unchanged when it is kept in the file or
  /// was read already). A missing item is recorded in ``Credential/missingSecret``, an item
  /// that does not hold a valid token or two matching items in ``Credential/secretError``:
  /// only a command that needs this account reports them, so one bad item of one login never
  /// stops the others, and `auth` or `logout` for it can repair it. A keyring that cannot be
  /// used (no service, locked) throws.
  package func resolvedSecrets(of account: Credential, on host: String) throws(KeyringError) -> Credential {
    guard account.storage == .keyring, account.token.isEmpty, account.missingSecret == nil,
      account.secretError == nil
    else { return account }
    var account = account
    do {
      switch try read(.accessToken, of: account, on: host) {
      case .some(.valid(let token)): account.token = token
      case .some(.unusable(let value)):
        account.unusableSecrets[.accessToken] = value
        account.secretError = .invalidItem(host: host, login: account.login, kind: .accessToken)
      case nil: account.missingSecret = .accessToken
      }
      if account.refreshToken != nil {
        switch try read(.refreshToken, of: account, on: host) {
        case .some(.valid(let refresh)): account.refreshToken = refresh
        case .some(.unusable(let value)):
          account.unusableSecrets[.refreshToken] = value
          account.refreshToken = nil
          account.secretError =
            account.secretError ?? .invalidItem(host: host, login: account.login, kind: .refreshToken)
        case nil:
          account.refreshToken = nil
          account.missingSecret = account.missingSecret ?? .refreshToken
        }
      }
    } catch {
      guard case .ambiguous = error else { throw error }
      account.secretError = error
    }
    return account
  }

  private enum ReadSecret { case valid(String), unusable(String) }

  private func read(_ kind: SecretItem.Kind, of account: Credential, on host: String) throws(KeyringError)
    -> ReadSecret?
  {
    guard let value = try secrets.read(account.secretItem(kind, on: host)) else { return nil }
    return Credential.isAcceptableToken(value) ? .valid(value) : .unusable(value)
  }
}

/// What the keyring must do for the credentials to go from `current` to `updated`, in the
/// order that keeps every account readable from the file or the keyring at every moment.
struct SecretSync {
  /// Items to write (each read back) before the file is written.
  package var writes: [(SecretItem, String)] = []
  /// Items to delete before the file is written: of accounts that are gone (logout), and
  /// refresh tokens an account no longer has. An interruption after these leaves an account
  /// whose item is missing, which `logout` and `auth` repair. Each with the secret read from
  /// it: only an item still holding that is deleted (R101).
  var deletesBefore: [(SecretItem, String)] = []
  /// Items to delete once the file is written: of accounts whose tokens moved to the file,
  /// and the old items of a renamed login; each with the secret read from it.
  var deletesAfter: [(SecretItem, String)] = []
  /// Items of accounts that are gone but could not be deleted: two items match, and ghlogin
  /// never picks one (R101). The file is written, then the error names the `secret-tool clear`
  /// line.
  var itemsLeft: [SecretItem] = []
  /// The narrowed tokens' items (issue 34 §1), in the same three steps as the login's: new or
  /// changed records of keyring logins written (read back) before the file; items of records
  /// dropped from a keyring login (a refresh, a logout, a run's end) deleted before it; items of
  /// records whose login moved to the file deleted after it. Each delete with the secret read.
  var narrowedWrites: [(NarrowedSecretItem, String)] = []
  var narrowedDeletesBefore: [(NarrowedSecretItem, String)] = []
  var narrowedDeletesAfter: [(NarrowedSecretItem, String)] = []

  package init(from current: Credentials, to updated: Credentials) {
    let old = Self.accounts(current)
    let new = Self.accounts(updated)
    for (key, account) in new where account.storage == .keyring && account.missingSecret == nil {
      // An account whose items could not be read (R101 forbids guessing) is written afresh.
      let before = old[key].flatMap {
        $0.storage == .keyring && $0.missingSecret == nil && $0.secretError == nil ? $0 : nil
      }
      // A renamed login's items, and items that predate `client_id`, are written anew and the
      // old ones deleted once the file no longer points to them.
      let renamed =
        before.map {
          $0.login != account.login || $0.keyringItemsPredateClientID != account.keyringItemsPredateClientID
        }
        ?? false
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
        if case .ambiguous(let item, _) = account.secretError { itemsLeft.append(item) }
        continue
      }
      if after.storage == .file { deletesAfter += Self.items(of: account, on: key.host) }
    }
    planNarrowed(old: old, new: new)
  }

  /// The narrowed tokens' part of the plan (``narrowedWrites`` and the deletes).
  private mutating func planNarrowed(old: [Key: Credential], new: [Key: Credential]) {
    for (key, account) in new where account.storage == .keyring {
      let before = old[key].flatMap { $0.storage == .keyring ? $0 : nil }
      for record in account.narrowed where !record.token.isEmpty {
        let previous = before?.narrowed.first { $0.id == record.id }
        // The same record id names the same item: writing replaces it.
        if previous?.token != record.token || previous?.narrowingAttribute != record.narrowingAttribute {
          narrowedWrites.append((account.narrowedItem(record, on: key.host), record.token))
        }
      }
    }
    for (key, account) in old where account.storage == .keyring {
      let after = new[key]
      for record in account.narrowed {
        guard let secret = record.keyringSecret else { continue }
        let item = account.narrowedItem(record, on: key.host)
        guard let after else {
          narrowedDeletesBefore.append((item, secret))
          continue
        }
        let kept = after.narrowed.first { $0.id == record.id && $0.narrowingAttribute == record.narrowingAttribute }
        if after.storage == .file {
          narrowedDeletesAfter.append((item, secret))
        } else if kept == nil {
          narrowedDeletesBefore.append((item, secret))
        }
      }
    }
  }

  /// Gives every keyring login of `updated` whose items are about to be written (new, or a
  /// token changed) six-attribute items: its next write replaces items that predate `client_id`
  /// (issue 33 §1). Called on the credentials to be written, before ``init(from:to:)``.
  package static func upgradeItems(of updated: inout Credentials, from current: Credentials) {
    let old = accounts(current)
    for (host, entry) in updated.hosts {
      for index in entry.accounts.indices {
        let account = entry.accounts[index]
        guard account.storage == .keyring, account.keyringItemsPredateClientID, account.missingSecret == nil,
          !account.token.isEmpty
        else { continue }
        let before = old[Key(host: host, userID: account.userID, clientID: account.clientID)]
        let written =
          before.map {
            $0.storage != .keyring || $0.token != account.token || $0.refreshToken != account.refreshToken
              || $0.login != account.login
          } ?? true
        if written { updated.hosts[host]?.accounts[index].keyringItemsPredateClientID = false }
      }
    }
  }

  package var isEmpty: Bool {
    writes.isEmpty && deletesBefore.isEmpty && deletesAfter.isEmpty && itemsLeft.isEmpty && narrowedWrites.isEmpty
      && narrowedDeletesBefore.isEmpty && narrowedDeletesAfter.isEmpty
  }

  /// Whether anything is to be deleted once the file is written.
  var hasDeletesAfter: Bool { !deletesAfter.isEmpty || !narrowedDeletesAfter.isEmpty }

  /// Writes and reads back the new items, then deletes what no account needs any more.
  func applyBeforeFile(_ secrets: any SecretStore) throws(KeyringError) {
    for (item, secret) in writes {
      try secrets.write(secret, to: item)
      guard try secrets.read(item) == secret else { throw .readBackMismatch(host: item.host, login: item.login) }
    }
    for (item, secret) in narrowedWrites {
      try secrets.writeNarrowed(secret, to: item)
      guard try secrets.readNarrowed(item) == secret else {
        throw .readBackMismatch(host: item.host, login: item.login)
      }
    }
    for (item, secret) in deletesBefore { try secrets.delete(item, holding: secret) }
    for (item, secret) in narrowedDeletesBefore { try secrets.deleteNarrowed(item, holding: secret) }
  }

  /// Deletes the items the file no longer points to.
  func applyAfterFile(_ secrets: any SecretStore) throws(KeyringError) {
    do {
      for (item, secret) in deletesAfter { try secrets.delete(item, holding: secret) }
      for (item, secret) in narrowedDeletesAfter { try secrets.deleteNarrowed(item, holding: secret) }
    } catch {
      throw .oldItemsLeft(
        deletesAfter.map { $0.0 } + itemsLeft, narrowed: narrowedDeletesAfter.map { $0.0 }, reason: error.message)
    }
    if !itemsLeft.isEmpty {
      throw .oldItemsLeft(itemsLeft, reason: "more than one item matches, and none is chosen between them")
    }
  }

  /// A login's identity (R111): host, user id and the app that issued it.
  private struct Key: Hashable {
    package var host: String
    package var userID: Int64
    package var clientID: String?
  }

  private static func accounts(_ credentials: Credentials) -> [Key: Credential] {
    var result: [Key: Credential] = [:]
    for (host, entry) in credentials.hosts {
      for account in entry.accounts {
        result[Key(host: host, userID: account.userID, clientID: account.clientID)] = account
      }
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
    for (kind, value) in account.unusableSecrets.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      items.append((account.secretItem(kind, on: host), value))
    }
    return items
  }
}
