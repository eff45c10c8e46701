/// The narrowed tokens of `ghlogin run` (issue 34 §1): minted for one run, recorded beside
/// their login with consumer `run` and the run's ID (`GHLOGIN_RUN`), handed out inside the run
/// instead of any other token, and revoked when it ends. The one reason this file changes is
/// the rules of a run's token.
extension Workspace {
  /// Mints a token narrowed to `narrowing` from the account `selection` chooses and records it
  /// for the run `id`, under the store's lock. For a login kept in the keyring, the record's
  /// token is its keyring item (``NarrowedSecretItem``); a keyring that keeps no narrowed tokens
  /// (a library caller's) is ``RunRefused`` (exit 2).
  package func startRun(
    _ selection: AccountSelection, _ narrowing: Narrowing, id: String
  ) throws -> (token: NarrowedToken, warning: RefreshWarning?) {
    try mintRecorded(selection, narrowing, consumer: .run, id: id)
  }

  /// Mints a token narrowed to `narrowing` from the account `selection` chooses and records it
  /// beside the login with `consumer` and `id` (a run's, an agent forward's), under the store's
  /// lock. A login kept in the keyring cannot hold one yet (``RunRefused``, exit 2).
  package func mintRecorded(
    _ selection: AccountSelection, _ narrowing: Narrowing, consumer: NarrowedRecord.Consumer, id: String
  ) throws -> (token: NarrowedToken, warning: RefreshWarning?) {
    let (host, credential, warning) = try usableCredentialReport(selection)
    let client = try scopedTokenClient(for: credential, on: host)
    guard canKeepNarrowed(credential) else { throw RunRefused(.keyringLogin(login: credential.login), host: host) }
    let token = try store.update { credentials -> NarrowedToken in
      guard let index = credentials.hosts[host.name]?.accounts.firstIndex(where: { $0.isSameLogin(as: credential) }),
        let current = credentials.hosts[host.name]?.accounts[index], canKeepNarrowed(current)
      else { throw NotLoggedIn(host: host.name, user: selection.user) }
      let minted = try mint(narrowing, from: current.token, client: client, login: current.login)
      credentials.hosts[host.name]?.accounts[index].narrowed.append(
        NarrowedRecord(
          token: minted.token, expiresAt: NarrowedRecord.parseExpiry(minted.expiresAt), narrowing: narrowing,
          consumer: consumer, consumerID: id, createdAt: environment.clock.now()))
      return minted
    }
    return (token, warning)
  }

  /// The current token of the run `id` (`GHLOGIN_RUN` in a run's child): the only token
  /// ghlogin hands out there, never its login's own and never a new one. An unknown or ended
  /// run is ``RunRefused`` (exit 4). `host`: the host asked about, when a helper names one; a
  /// run's token is for its own host only.
  package func runToken(id: String, host: String? = nil) throws -> (host: GitHubHost, token: String, login: String) {
    let credentials = try store.loadFile()
    for name in credentials.hosts.keys.sorted() {
      for account in credentials.hosts[name]?.accounts ?? [] {
        // A keyring login's record: its one item read now (missing: the run has no token).
        guard let stored = account.narrowedRecord(consumer: .run, id: id) else { continue }
        let record = try store.resolvedNarrowed(stored, of: account, on: name)
        guard !record.token.isEmpty else { continue }
        let runHost = try GitHubHost(storedName: name)
        if let host, host.lowercased() != name { throw RunRefused(.otherHost(id: id, asked: host), host: runHost) }
        return (runHost, record.token, account.login)
      }
    }
    throw RunRefused(.notRunning(id: id), host: nil)
  }

  /// git's `erase` of `token` inside the run `id` (its helper reporting the run's token as
  /// rejected): checked as R102 checks a login's (`GET /user` with it now). Accepted: kept.
  /// Rejected: the run's token is dropped and, in the same locked update, a new one minted from
  /// the login for the run's own narrowing, so the run's next request has a token (issue 34 §1).
  /// Returns the line to print on stderr (without the prefix); nil when `token` is not the run's.
  package func eraseRunToken(id: String, token: String, on host: GitHubHost) throws -> String? {
    let credentials = try store.loadFile()
    guard
      let account = credentials.hosts[host.name]?.accounts.first(where: { account in
        account.narrowedRecord(consumer: .run, id: id).map {
          // A keyring login's record: its item read now.
          let record = (try? store.resolvedNarrowed($0, of: account, on: host.name)) ?? $0
          return CredentialHostMatch.constantTimeEqual(record.token, token)
        } ?? false
      })
    else { return nil }
    do {
      _ = try api(for: host, timeout: Self.rejectionCheckTimeout).user(token: token)
      return "git reported the token of the run \(Sanitize.terminal(id)) as rejected, but \(host) still accepts it; "
        + "kept it."
    } catch let error as GitHubAPIError where error.kind == .tokenRejected {
      // Rejected: replaced below.
    } catch {
      return "git reported the token of the run \(Sanitize.terminal(id)) as rejected, but it could not be checked "
        + "(\((error as? any ReportableError)?.message ?? "\(error)")); kept it."
    }
    let client = try scopedTokenClient(for: account, on: host)
    try store.update { credentials in
      guard let index = credentials.hosts[host.name]?.accounts.firstIndex(where: { $0.isSameLogin(as: account) }),
        let current = credentials.hosts[host.name]?.accounts[index],
        let recordIndex = current.narrowed.firstIndex(where: {
          $0.consumer == .run && $0.consumerID == id && CredentialHostMatch.constantTimeEqual($0.token, token)
        }),
        let narrowing = current.narrowed[recordIndex].narrowing
      else { return }
      let minted = try mint(narrowing, from: current.token, client: client, login: current.login)
      var record = current.narrowed[recordIndex]
      record.token = minted.token
      record.expiresAt = NarrowedRecord.parseExpiry(minted.expiresAt)
      record.createdAt = environment.clock.now()
      credentials.hosts[host.name]?.accounts[index].narrowed[recordIndex] = record
    }
    return "git reported the token of the run \(Sanitize.terminal(id)) as rejected, and \(host) rejects it; "
      + "dropped it and minted a new one for the run."
  }

  /// Ends the run `id`: revokes its token and drops its record (best effort: a failure is a
  /// warning; the token expires on its own).
  package func endRun(id: String) {
    dropNarrowed(what: "the token of this run") { $0.consumer == .run && $0.consumerID == id }
  }

  /// Drops every narrowed record `isDropped` picks from the store and revokes its token (best
  /// effort: a failure is a warning naming `what`; the token expires on its own). Returns how
  /// many were dropped.
  @discardableResult
  package func dropNarrowed(what: String, where isDropped: (NarrowedRecord) -> Bool) -> Int {
    let dropped: [(GitHubHost, String?, NarrowedRecord)]
    do {
      dropped = try store.update { credentials in
        var found: [(GitHubHost, String?, NarrowedRecord)] = []
        for (name, entry) in credentials.hosts {
          for (index, account) in entry.accounts.enumerated() {
            let records = account.narrowed.filter(isDropped)
            guard !records.isEmpty, let host = try? GitHubHost(storedName: name) else { continue }
            credentials.hosts[name]?.accounts[index].narrowed.removeAll(where: isDropped)
            found += records.map { (host, account.clientID, $0) }
          }
        }
        return found
      }
    } catch {
      cleanupWarning(
        "could not drop \(what) from the store: " + ((error as? any ReportableError)?.message ?? "\(error)"),
        environment)
      return 0
    }
    for (host, issuer, record) in dropped { revokeDropped([record], issuedTo: issuer, on: host) }
    return dropped.count
  }
}

/// A run's token could not be given or made: exit 4 for a run that is not running (nothing
/// else is handed out inside a run), exit 2 for a login that cannot hold one.
package struct RunRefused: ReportableError, Equatable {
  package enum Reason: Sendable, Equatable {
    case notRunning(id: String)
    case otherHost(id: String, asked: String)
    case keyringLogin(login: String)
    /// `ghlogin run` inside a run: it would mint a new token.
    case nested(id: String)
  }

  package var reason: Reason
  package var host: GitHubHost?

  package init(_ reason: Reason, host: GitHubHost?) {
    self.reason = reason
    self.host = host
  }

  package var exitStatus: ExitStatus {
    if case .keyringLogin = reason { return .usage }
    if case .nested = reason { return .usage }
    return .notLoggedIn
  }

  package var errorKind: ErrorKind { .notLoggedIn }

  package var message: String {
    switch reason {
    case .notRunning(let id):
      return "GHLOGIN_RUN names the run \(Sanitize.terminal(id)), which is not running (it ended, or was never "
        + "started); inside a run, only the run's token is handed out, never another one"
    case .otherHost(let id, let asked):
      return "the run \(Sanitize.terminal(id)) has a token for \(host?.name ?? "another host") only, not for "
        + "\(Sanitize.terminal(asked)); inside a run, only the run's token is handed out"
    case .nested(let id):
      return "GHLOGIN_RUN is set (the run \(Sanitize.terminal(id))): a run inside a run would mint a new token; "
        + "inside a run, only the run's token is handed out"
    case .keyringLogin(let login):
      return "the login \(Sanitize.terminal(login))\(host.map { " on \($0)" } ?? "") keeps its tokens in a "
        + "keyring that cannot hold a run's token; move the login to the credentials file or the Secret Service first"
    }
  }
}
