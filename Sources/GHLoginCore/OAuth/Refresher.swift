/// Hands out a usable token for one account of one host, refreshing it first when it expires
/// within ``RefreshPolicy/margin`` (R40–R44).
///
/// A refresh happens under the credential store's exclusive lock: ``CredentialStore/update(_:)``
/// takes the `flock` and re-reads the file, the decision is made again on what it holds
/// (another process may have refreshed meanwhile, R43), and only then is the refresh token
/// spent, exactly once. The new pair is written before it is returned (R42). Nothing here
/// prints; the caller reports ``Outcome/deferredFailure``.
package struct Refresher: Sendable {
  /// What a caller gets back.
  package struct Outcome: Sendable, Equatable {
    /// The account with the token to use.
    package var credential: Credential
    /// Whether this call refreshed the token (false when it was fresh, or another process had
    /// just refreshed it).
    package var refreshed: Bool
    /// Why a due refresh failed while the current token is still valid, so it is used anyway
    /// (R44); ``warning(now:)`` is for a warning.
    package var deferredFailure: RefreshError?
    /// The cached narrowed tokens this refresh dropped from the store (issue 34 §1): the caller
    /// revokes them (``Workspace/revokeDropped(_:issuedTo:on:)``).
    package var droppedNarrowed: [NarrowedRecord] = []

    package init(credential: Credential, refreshed: Bool = false, deferredFailure: RefreshError? = nil) {
      self.credential = credential
      self.refreshed = refreshed
      self.deferredFailure = deferredFailure
    }
  }

  package var host: GitHubHost
  package var store: CredentialStore
  /// The token endpoint of `host`.
  package var endpoint: TokenEndpoint
  /// The app to refresh as; nil when no `client_id` is configured for `host`.
  package var app: OAuthApp?
  /// The config file, named when `app` is missing.
  package var configFile: String
  /// Whether a config layer set the host's `token_url`: only then does a network failure's
  /// message name the key (``EndpointRequestError/keyIsSet``).
  var tokenURLIsSet = true
  /// Revokes the cached narrowed tokens a refresh dropped (issue 34 §1), once the new token is
  /// stored, best effort; the login's client ID is the second argument.
  var revokeDropped: (@Sendable ([NarrowedRecord], String?) -> Void)?
  /// Wall-clock time for expiry decisions and for the new expiry times.
  package var clock: any TimeSource
  package var margin: Double

  package init(
    host: GitHubHost, store: CredentialStore, endpoint: TokenEndpoint, app: OAuthApp?, configFile: String,
    clock: any TimeSource, margin: Double = RefreshPolicy.margin
  ) {
    self.host = host
    self.store = store
    self.endpoint = endpoint
    self.app = app
    self.configFile = configFile
    self.clock = clock
    self.margin = margin
  }

  /// The token to use for `credential` (as read without the lock): returned as it is when
  /// no refresh is due, else refreshed under the lock.
  ///
  /// Throws ``RefreshError`` (`.sessionExpired` after marking the account expired, `.failed`,
  /// `.noClientID`, `.otherApp`, `.accountGone`) or a ``StoreError``.
  package func usable(_ credential: Credential) throws -> Outcome {
    switch RefreshPolicy.decide(credential, now: clock.now(), margin: margin) {
    case .use, .useUntilExpiry: return Outcome(credential: credential)
    case .refresh, .sessionOver: return try refresh(credential, force: false)
    }
  }

  /// Takes the lock, re-reads the account `login` and refreshes it if it is (still) due, or
  /// whenever it has a refresh token when `force` is set (`ghlogin refresh`).
  ///
  /// A dead refresh token (``RefreshGrant/isDeadRefreshToken(_:)``), a refresh token past its
  /// expiry, or an expired token with no refresh token marks the account expired (kept in the
  /// file, shown by `status`) and throws `.sessionExpired`; nothing is retried (R44). Any other
  /// failure leaves the file unchanged: the current token is returned with
  /// ``Outcome/deferredFailure`` while it is valid (R44), else `.failed` is thrown.
  package func refresh(login: String, force: Bool) throws -> Outcome {
    let wanted = login.lowercased()
    return try refresh(login: login, force: force) { $0.login.lowercased() == wanted }
  }

  /// ``refresh(login:force:)`` of exactly the login `account` is (same user and app, R111): never
  /// another app's login of that user.
  package func refresh(_ account: Credential, force: Bool) throws -> Outcome {
    try refresh(login: account.login, force: force) { $0.isSameLogin(as: account) }
  }

  private func refresh(login: String, force: Bool, matching: (Credential) -> Bool) throws -> Outcome {
    // Whether the server has issued a new pair. If storing it then fails, the pair is not used
    // (R42: saved before used), and the refresh token it replaced is spent: the error says the
    // stored login no longer works, not only that a write failed.
    var issued = false
    let step: Step
    do {
      step = try lockedStep(matching: matching, force: force) { _ in issued = true }
    } catch {
      guard issued else { throw error }
      throw RefreshError(
        .notSaved(error as? any ReportableError ?? UnexpectedError(error, kind: .store)), host: host)
    }
    switch step {
    case .done(let outcome):
      if !outcome.droppedNarrowed.isEmpty { revokeDropped?(outcome.droppedNarrowed, outcome.credential.clientID) }
      return outcome
    case .sessionOver: throw RefreshError(.sessionExpired, host: host)
    case .gone: throw RefreshError(.accountGone(login: login), host: host)
    case .failed(let kind): throw RefreshError(kind, host: host)
    }
  }

  /// The part of ``refresh(login:force:)`` under the lock, on the first account `matching`; `issued` gets the refreshed account
  /// as soon as the server has answered, before the file is written.
  private func lockedStep(
    matching: (Credential) -> Bool, force: Bool, issued: (Credential) -> Void
  ) throws -> Step {
    try store.update { credentials in
      guard let index = credentials.hosts[host.name]?.accounts.firstIndex(where: matching),
        let current = credentials.hosts[host.name]?.accounts[index]
      else { return .gone }
      try current.checkSecrets(on: host.name)
      let now = clock.now()
      switch RefreshPolicy.decide(current, now: now, margin: margin, force: force) {
      case .use, .useUntilExpiry:
        return .done(Outcome(credential: current))
      case .sessionOver:
        credentials.hosts[host.name]?.accounts[index].isExpired = true
        return .sessionOver
      case .refresh:
        break
      }
      guard let app, let refreshToken = current.refreshToken else {
        return keep(current, now: now, failure: .noClientID(configFile: configFile))
      }
      // A refresh token is only ever sent with the app that issued it (SECURITY.md, "Two apps on one host"): another
      // app's credentials would be refused, and the refresh token could be spent or killed.
      if let issuer = current.clientID, !current.isUsable(byApp: app.clientID) {
        return keep(
          current, now: now, failure: .otherApp(login: current.login, issuer: issuer, configured: app.clientID))
      }
      do {
        let response = try EndpointRequestError.naming(step: "token refresh", setting: .tokenURL, url: endpoint.url) {
          try endpoint.post(
            RefreshGrant.parameters(refreshToken: refreshToken, app: app, viaDeviceFlow: current.viaDeviceFlow))
        }
        var renewed = current.refreshed(with: response, receivedAt: clock.now())
        // The cached narrowed tokens were minted from the old token: dropped here, revoked by
        // the caller (issue 34 §1). A run's or forward's stay with their consumer.
        let dropped = renewed.narrowed.filter { $0.consumer == .cache }
        renewed.narrowed.removeAll { $0.consumer == .cache }
        issued(renewed)
        credentials.hosts[host.name]?.accounts[index] = renewed
        var outcome = Outcome(credential: renewed, refreshed: true)
        outcome.droppedNarrowed = dropped
        return .done(outcome)
      } catch  where RefreshGrant.isDeadRefreshToken(error) {
        credentials.hosts[host.name]?.accounts[index].isExpired = true
        return .sessionOver
      } catch {
        return keep(current, now: now, failure: .failed(cause(of: error)))
      }
    }
  }

  /// `error` as the cause a refresh failure quotes, kept as an error so that each voice renders
  /// its remedies: a config setting's error names the config file, and a network failure names
  /// `token_url` only when a layer set it.
  private func cause(of error: any Error) -> any ReportableError {
    if var request = error as? EndpointRequestError {
      request.keyIsSet = tokenURLIsSet
      return request
    }
    if let keyed = error as? any ConfigSettingError { return ConfigSettingInFile(keyed, configFile: configFile) }
    return error as? any ReportableError ?? UnexpectedError(error, kind: .network)
  }

  /// What happens when a due refresh could not be done for a reason that may pass: the current
  /// token while it is still valid, else the failure. Nothing is written either way.
  private func keep(_ current: Credential, now: Double, failure: RefreshError.Kind) -> Step {
    guard !RefreshPolicy.hasExpired(current, now: now) else { return .failed(failure) }
    return .done(Outcome(credential: current, deferredFailure: RefreshError(failure, host: host)))
  }

  /// The result of the locked part, thrown or returned once the lock is released (and the file
  /// written, for a refresh or an expiry mark).
  private enum Step {
    case done(Outcome)
    case sessionOver
    case gone
    case failed(RefreshError.Kind)
  }
}

extension Refresher.Outcome {
  /// ``deferredFailure`` as the warning to show at `now`, with the time the current token has left.
  package func warning(now: Double) -> RefreshWarning? {
    deferredFailure.map { RefreshWarning(failure: $0, validFor: (credential.expiresAt ?? 0) - now) }
  }
}

/// A due refresh that failed while the current token still works (R44): the token is used,
/// and this says why it was not renewed, in the voice of whoever shows it.
package struct RefreshWarning: Sendable, Equatable {
  package var failure: RefreshError
  /// Seconds the current token is still valid.
  package var validFor: Double

  package init(failure: RefreshError, validFor: Double) {
    self.failure = failure
    self.validFor = validFor
  }

  /// The warning, its remedies for `remedies`.
  package func text(_ remedies: Remedies) -> String {
    "could not refresh the token for \(failure.host): \(failure.reason(remedies)); "
      + "using the current token, which expires in \(DurationText.describe(validFor))"
  }
}

extension RefreshError {
  /// Why the refresh failed, without the "has expired" framing, its remedies for `remedies`:
  /// for the warning shown when the current token is used anyway.
  package func reason(_ remedies: Remedies) -> String {
    switch kind {
    case .failed(let cause): cause.message(remedies)
    case .noClientID(let configFile): "no \(remedies.name(.clientID)) is configured for \(host) in \(configFile)"
    case .otherApp(let login, let issuer, let configured):
      "\(Sanitize.terminal(login)) logged in with another OAuth app (client ID \(Sanitize.terminal(issuer))) than the "
        + "configured one (\(Sanitize.terminal(configured))), and its refresh token is only sent with the app that issued it"
    default: message(remedies)
    }
  }
}
