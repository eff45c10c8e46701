extension Workspace {
  /// A token for `selection` that is good for at least five more minutes, refreshed first
  /// when due (``usableCredentialReport(_:in:)``): what `ghlogin token`, the helpers and the
  /// library's `token()` return.
  package func accessToken(_ selection: AccountSelection) throws -> AccessToken {
    let usable = try usableCredentialReport(selection)
    return AccessToken(
      usable.credential, host: usable.host.name, api: endpoints(for: usable.host).api, refreshWarning: usable.warning)
  }

  /// Who the token of `selection` belongs to (`GET /user`), refreshed first when due; GitHub's
  /// expiry of the token is recorded on the way.
  package func identity(_ selection: AccountSelection) throws -> GitHubIdentity {
    let (chosen, credential) = try usableCredential(selection)
    let user = try api(for: chosen).user(token: credential.token)
    recordGitHubExpiration(user.tokenExpiration, of: credential, on: chosen.name)
    return GitHubIdentity(user, host: chosen.name)
  }

  /// Logs the account of `selection` out: revokes its tokens when `revoke` (at the configured RFC
  /// 7009 `revocation_url`, else at GitHub when a client secret is configured) and removes it
  /// from the store, whatever the revocation did, in one locked update (R46), so a refresh in
  /// another process cannot swap in a new token between the two.
  package func logout(_ selection: AccountSelection, revoke: Bool) throws -> LogoutOutcome {
    let (chosen, account, revocation, wasActive) = try store.update { credentials in
      let (chosen, account) = try select(selection, in: credentials)
      let wasActive = credentials.hosts[chosen.name]?.isActive(account) ?? false
      let revocation = revoke ? self.revocation(of: account, on: chosen) : .skipped
      // Exactly the account whose token was revoked (R92): never a stale entry with the same login.
      credentials.remove(from: chosen.name) { $0.userID == account.userID && $0.token == account.token }
      return (chosen, account, revocation, wasActive)
    }
    return LogoutOutcome(
      host: chosen.name, login: account.login, revocation: revocation,
      manualRevocationURL: manualRevocationURL(for: chosen, issuedTo: account.clientID), wasActive: wasActive)
  }

  /// Revokes `account`'s tokens where its host can (``revoke(token:refreshToken:on:)``); never throws.
  private func revocation(of account: Credential, on host: GitHubHost) -> LogoutOutcome.Revocation {
    if account.token.isEmpty { return .failed("its token is missing from the keyring") }
    switch revoke(token: account.token, refreshToken: account.refreshToken, issuedTo: account.clientID, on: host) {
    case .revoked: return .revoked
    case .alreadyInvalid: return .alreadyInvalid
    case .notConfigured: return .notConfigured
    case .failed(let reason): return .failed(reason)
    }
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
    let outcome = try refresher(for: host).refresh(login: account.login, force: true)
    if let failure = outcome.deferredFailure {
      throw ForcedRefreshFailed(
        host: host, reason: failure.reason, status: failure.exitStatus, errorKind: failure.errorKind,
        validFor: (outcome.credential.expiresAt ?? 0) - environment.clock.now())
    }
    return AccessToken(outcome.credential, host: host.name, api: endpoints(for: host).api)
  }
}

/// A forced refresh of a login that has no refresh token (an OAuth app's token, or one stored
/// with `--with-token`): only a new login gives a new token.
package struct NoRefreshToken: ReportableError, Equatable {
  package var host: GitHubHost
  package var login: String

  package var message: String {
    "the token for \(host) (\(Sanitize.terminal(login))) cannot be refreshed: it came without a refresh token; "
      + "log in again for a new one"
  }

  package var exitStatus: ExitStatus { .failure }
  package var errorKind: ErrorKind { .tokenRejected }
}

/// A forced refresh (`ghlogin refresh`, the library's `refreshedToken`) could not refresh a token that still works: exit with the failure's status
/// (1 for the network), saying the stored token was kept.
package struct ForcedRefreshFailed: ReportableError, Equatable {
  package var host: GitHubHost
  package var reason: String
  package var status: ExitStatus
  /// The refresh failure's kind.
  package var errorKind: ErrorKind
  /// Seconds the kept token is still valid.
  package var validFor: Double

  package init(host: GitHubHost, reason: String, status: ExitStatus, errorKind: ErrorKind, validFor: Double) {
    self.host = host
    self.reason = reason
    self.status = status
    self.errorKind = errorKind
    self.validFor = validFor
  }

  package var message: String {
    "could not refresh the token for \(host): \(reason). The current token was kept; it expires in "
      + "\(DurationText.describe(validFor))"
  }

  package var exitStatus: ExitStatus { status }
}
