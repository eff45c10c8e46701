/// A stored login's token in use: read, refreshed when due or when asked, and whose it is. The
/// one reason this file changes is when a stored token is refreshed and how a reader gets it.
extension Workspace {
  /// The host and account a command works on (see ``host(_:credentials:)`` and
  /// ``account(on:user:in:)``), with a token that is good for at least five more minutes:
  /// refreshed first when it is due (R40–R44); from `credentials` when the caller has just
  /// loaded them (the file is not read again). A refresh that failed while the current token
  /// still works comes back as `warning` and the current token is used (R44): the command line
  /// prints it, the library returns it (``AccessToken/refreshWarning``), each in its voice.
  package func usableCredentialReport(
    _ selection: AccountSelection, in credentials: Credentials? = nil
  ) throws -> (host: GitHubHost, credential: Credential, warning: RefreshWarning?) {
    let (host, account) = try select(selection, in: credentials ?? self.credentials(for: selection.host))
    try account.checkSecrets(on: host.name)
    // The common case, a token that is not due, needs no refresher (endpoints, app, transport):
    // `token` and `git-credential get` stay a file read. Refresher.usable decides the same way.
    switch RefreshPolicy.decide(account, now: environment.clock.now()) {
    case .use, .useUntilExpiry: return (host, account, nil)
    case .refresh, .sessionOver: break
    }
    let outcome = try refresher(for: host).usable(account)
    return (host, outcome.credential, outcome.warning(now: environment.clock.now()))
  }

  /// Stores GitHub's expiry of `credential`'s token (from a `GitHub-Authentication-Token-Expiration`
  /// header) when it is new or changed, under the lock, on exactly that account (same id and
  /// token: a refresh or login meanwhile is left alone). Best effort: the command's own answer
  /// does not depend on it, so a store that cannot be written is not an error here.
  package func recordGitHubExpiration(_ expiration: Double?, of credential: Credential, on host: String) {
    guard let expiration, expiration.isFinite, credential.gitHubExpiration != expiration else { return }
    _ = try? store.update { credentials in
      guard var entry = credentials.hosts[host],
        let index = entry.accounts.firstIndex(where: { $0.userID == credential.userID && $0.token == credential.token })
      else { return }
      entry.accounts[index].gitHubExpiration = expiration
      credentials.hosts[host] = entry
    }
  }
}

extension Workspace {
  /// A token for `selection` that is good for at least five more minutes, refreshed first
  /// when due (``usableCredentialReport(_:in:)``): what `ghlogin token`, the helpers and the
  /// library's `token()` return; its refresh warning said with `remedies`.
  package func accessToken(_ selection: AccountSelection, remedies: Remedies) throws -> AccessToken {
    let usable = try usableCredentialReport(selection)
    return AccessToken(
      usable.credential, host: usable.host.name, api: endpoints(for: usable.host).api,
      refreshWarning: usable.warning?.text(remedies))
  }

  /// Who the token of `selection` belongs to (`GET /user`), refreshed first when due; GitHub's
  /// expiry of the token is recorded on the way. `warning`: a refresh that failed while the
  /// token still works (``usableCredentialReport(_:in:)``).
  package func identity(_ selection: AccountSelection) throws -> (identity: GitHubIdentity, warning: RefreshWarning?) {
    let (chosen, credential, warning) = try usableCredentialReport(selection)
    let user = try api(for: chosen).user(token: credential.token)
    recordGitHubExpiration(user.tokenExpiration, of: credential, on: chosen.name)
    return (GitHubIdentity(user, host: chosen.name), warning)
  }

}

extension Workspace {
  /// The stored token of `selection` when it needs no refresh (no network, no lock); nil when
  /// one is due, so that an async caller can refresh off the cooperative pool.
  package func freshToken(_ selection: AccountSelection) throws -> AccessToken? {
    let (host, account) = try select(selection, in: store.loadFile())
    try account.checkSecrets(on: host.name)
    switch RefreshPolicy.decide(account, now: environment.clock.now()) {
    case .use, .useUntilExpiry: return AccessToken(account, host: host.name, api: endpoints(for: host).api)
    case .refresh, .sessionOver: return nil
    }
  }

  /// A new token for `selection` now, whether or not one was due (`ghlogin refresh`'s rule:
  /// under the lock, with the app that is configured for the host).
  package func refreshedToken(_ selection: AccountSelection) throws -> AccessToken {
    let (host, account) = try select(selection, in: store.loadFile())
    try account.checkSecrets(on: host.name)
    if account.refreshToken == nil { throw NoRefreshToken(host: host, login: account.login) }
    let outcome = try refresher(for: host).refresh(account, force: true)
    if let kept = outcome.warning(now: environment.clock.now()) { throw ForcedRefreshFailed(kept) }
    return AccessToken(outcome.credential, host: host.name, api: endpoints(for: host).api)
  }
}

/// A forced refresh of a login that has no refresh token (an OAuth app's token, or one stored
/// with `--with-token`): only a new login gives a new token.
struct NoRefreshToken: ReportableError, Equatable {
  package var host: GitHubHost
  package var login: String

  package var message: String {
    "the token for \(host) (\(Sanitize.terminal(login))) cannot be refreshed: it came without a refresh token; "
      + "log in again for a new one"
  }

  package var exitStatus: ExitStatus { .failure }
  package var errorKind: ErrorKind { .tokenRejected }
}

/// A forced refresh (`ghlogin refresh`, the library's `refreshedToken`) could not refresh a
/// token that still works: exit with the failure's status and kind (1 for the network), saying
/// the stored token was kept.
package struct ForcedRefreshFailed: ReportableError, Equatable {
  /// The failure, and how long the kept token is still valid.
  package var kept: RefreshWarning

  package init(_ kept: RefreshWarning) { self.kept = kept }

  package var message: String { message(.words) }

  package func message(_ remedies: Remedies) -> String {
    "could not refresh the token for \(kept.failure.host): \(kept.failure.reason(remedies)). The current token was "
      + "kept; it expires in \(DurationText.describe(kept.validFor))"
  }

  package var exitStatus: ExitStatus { kept.failure.exitStatus }
  package var errorKind: ErrorKind { kept.failure.errorKind }
}
