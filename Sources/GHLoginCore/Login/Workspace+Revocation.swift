/// What revoking a login's tokens did (R45, R46, R103): the one answer logout, a login that
/// replaced another and a login that could not be stored all act on.
package enum RevocationResult: Sendable {
  /// The server confirmed it: GitHub's 204, or RFC 7009's 200 for every token sent.
  case revoked
  /// GitHub (a host known to be GitHub) no longer knew the token.
  case alreadyInvalid
  /// No way to revoke is configured (no `revocation_url`, and no client secret for GitHub's
  /// route); nothing was sent.
  case notConfigured
  /// Nothing confirmed a revocation, for this reason (a ``RevocationError``, an
  /// ``EndpointRequestError`` …), which its caller says in its own voice: the token may still be
  /// valid.
  case failed(any ReportableError)
}

/// When and how a login's tokens are revoked (R45, R46, R96, R103), and logging out: the one
/// reason this file changes is the revocation rules.
extension Workspace {
  /// Logs the account of `selection` out: revokes its tokens when `revoke` (at the configured RFC
  /// 7009 `revocation_url`, else at GitHub when a client secret is configured) and removes it
  /// from the store, whatever the revocation did, in one locked update (R46), so a refresh in
  /// another process cannot swap in a new token between the two. A failed revocation's reason is
  /// said in the voice of `remedies`.
  package func logout(_ selection: AccountSelection, revoke: Bool, remedies: Remedies) throws -> LogoutOutcome {
    let (chosen, account, revocation, wasActive) = try store.update { credentials in
      let (chosen, account) = try select(selection, in: credentials)
      let wasActive = credentials.hosts[chosen.name]?.isDefault(account, forApp: callerApp(on: chosen)) ?? false
      let revocation = revoke ? self.revocation(of: account, on: chosen, remedies: remedies) : .skipped
      // Exactly the account whose token was revoked (R92): never a stale entry with the same login.
      credentials.remove(from: chosen.name) { $0.userID == account.userID && $0.token == account.token }
      return (chosen, account, revocation, wasActive)
    }
    return LogoutOutcome(
      host: chosen.name, login: account.login, revocation: revocation,
      manualRevocationURL: manualRevocationURL(for: chosen, issuedTo: account.clientID), wasActive: wasActive)
  }

  /// `logout --all-apps`: logs out every login of the user `selection` names on its host, each
  /// app's (R111), as ``logout(_:revoke:remedies:)`` does, in one locked update. `--user` names
  /// the user among every app's logins; else it is the account ``select(_:in:)`` chooses. A login another
  /// app issued cannot be revoked with this one's credentials (``revoke(token:refreshToken:issuedTo:on:)``
  /// says so): it is removed, and its outcome says where to revoke it by hand.
  package func logoutAllApps(_ selection: AccountSelection, revoke: Bool, remedies: Remedies) throws
    -> [LogoutOutcome]
  {
    try store.update { credentials in
      let chosen = try host(selection.host, credentials: credentials)
      let app = callerApp(on: chosen)
      guard let entry = credentials.hosts[chosen.name] else {
        throw NotLoggedIn(host: chosen.name, user: selection.user)
      }
      let user: Credential
      if let named = selection.user {
        guard let any = entry.account(named, forApp: nil) else { throw NotLoggedIn(host: chosen.name, user: named) }
        user = any
      } else {
        user = try select(selection, in: credentials).1
      }
      var outcomes: [LogoutOutcome] = []
      for stored in entry.accounts where stored.userID == user.userID && !entry.isStale(stored) {
        let account = try store.resolvedSecrets(of: stored, on: chosen.name)
        let wasDefault = credentials.hosts[chosen.name]?.isDefault(account, forApp: app) ?? false
        let revocation = revoke ? self.revocation(of: account, on: chosen, remedies: remedies) : .skipped
        credentials.remove(from: chosen.name) { $0.isSameLogin(as: account) && $0.token == account.token }
        outcomes.append(
          LogoutOutcome(
            host: chosen.name, login: account.login, revocation: revocation,
            manualRevocationURL: manualRevocationURL(for: chosen, issuedTo: account.clientID), wasActive: wasDefault))
      }
      return outcomes
    }
  }

  /// Revokes `account`'s tokens where its host can (``revoke(token:refreshToken:issuedTo:on:)``),
  /// its narrowed tokens first; a failure said in the voice of `remedies`; never throws.
  private func revocation(of account: Credential, on host: GitHubHost, remedies: Remedies) -> LogoutOutcome.Revocation {
    // Its narrowed tokens first (issue 34 §1: every consumer's), while the parent still works.
    revokeDropped(account.narrowed, issuedTo: account.clientID, on: host)
    if account.token.isEmpty { return .failed(RevocationError(.tokenMissing, host: host).message(remedies)) }
    switch revoke(token: account.token, refreshToken: account.refreshToken, issuedTo: account.clientID, on: host) {
    case .revoked: return .revoked
    case .alreadyInvalid: return .alreadyInvalid
    case .notConfigured: return .notConfigured
    case .failed(let reason): return .failed(reason.message(remedies))
    }
  }

  /// Revokes the tokens of one login of `host`, never throwing (R103):
  ///
  /// - with `revocation_url` for the host (it wins wherever it is set): RFC 7009, the refresh
  ///   token first (`token_type_hint=refresh_token`), then the access token; revoked only when
  ///   every request answered 200;
  /// - else, with a client secret: GitHub's `DELETE /applications/{client_id}/token` at the API,
  ///   whose 404 means "no longer known" only on a host known to be GitHub (``isKnownGitHub(_:)``);
  /// - else nothing is sent.
  ///
  /// Nothing is sent either when the tokens were issued to another app (`issuer`, the login's
  /// ``Credential/clientID``) than the configured one: that app's credentials cannot revoke them,
  /// and an answer to them would confirm nothing (SECURITY.md, "Two apps on one host").
  package func revoke(
    token: String, refreshToken: String?, issuedTo issuer: String?, on host: GitHubHost
  ) -> RevocationResult {
    let settings = config.settings(for: host.name)
    if let issuer, let configured = try? app(for: host),
      !Credential.mayBeUsed(issuedTo: issuer, byApp: configured.clientID)
    {
      return .failed(RevocationError(.otherApp(issuer: issuer, configured: configured.clientID), host: host))
    }
    do {
      if let url = settings.revocationURL {
        guard let app = try? app(for: host) else { return .notConfigured }
        let revocation = TokenRevocation(url: url, host: host, app: app, transport: transport(for: host))
        var failure: (any Error)?
        if let refreshToken, !refreshToken.isEmpty {
          do { try revocation.revoke(refreshToken, hint: .refreshToken) } catch { failure = error }
        }
        // The access token is sent even when the refresh token's request failed: one less valid token.
        do { try revocation.revoke(token, hint: .accessToken) } catch { failure = failure ?? error }
        if let failure { throw failure }
        return .revoked
      }
      guard let app = try? app(for: host), let secret = app.clientSecret, !secret.isEmpty else {
        return .notConfigured
      }
      let revocation = Revocation(
        host: host, api: endpoints(for: host).api, clientID: app.clientID, clientSecret: secret,
        transport: transport(for: host), isGitHub: isKnownGitHub(host))
      switch try revocation.revoke(token: token) {
      case .revoked: return .revoked
      case .alreadyInvalid: return .alreadyInvalid
      }
    } catch var request as EndpointRequestError {
      // A key is named only when a layer set it (issue 29 §2); a derived URL's failure is the network's.
      request.keyIsSet = config.setsURL(request.setting.configKey, to: request.url)
      return .failed(request)
    } catch let error as any ReportableError {
      return .failed(error)
    } catch {
      return .failed(UnexpectedError(error, kind: .network))
    }
  }

  /// The page where `host`'s tokens are revoked by hand, when ghlogin knows one: GitHub's
  /// page of the configured app (or the list of apps) on a host known to be GitHub; nil elsewhere.
  /// With `issuer` (the login's ``Credential/clientID``), the page of the app that issued it.
  package func manualRevocationURL(for host: GitHubHost, issuedTo issuer: String? = nil) -> String? {
    guard isKnownGitHub(host) else { return nil }
    return Revocation.manualRevocationURL(host: host, clientID: issuer ?? config.settings(for: host.name).clientID)
  }

  /// Where to revoke by hand, for a message: "revoke it at WHERE".
  package func revokeByHand(on host: GitHubHost, issuedTo issuer: String? = nil) -> String {
    Self.revokeByHand(manualRevocationURL(for: host, issuedTo: issuer))
  }

  /// `url`, or "the server that issued it" when no page is known.
  package static func revokeByHand(_ url: String?) -> String { url ?? "the server that issued it" }

  /// After a new login replaced `old` (same account), revokes its tokens, best effort. Returns
  /// the warning to show when nothing confirmed the revocation (R103), without any prefix, its
  /// reason in the voice of `remedies`: the caller says it in its own voice.
  func revokeReplaced(_ old: Credential, by newToken: String, on host: GitHubHost, remedies: Remedies) -> String? {
    guard old.token != newToken, old.missingSecret == nil, old.secretError == nil else { return nil }
    switch revoke(token: old.token, refreshToken: old.refreshToken, issuedTo: old.clientID, on: host) {
    case .revoked, .alreadyInvalid, .notConfigured:
      return nil
    case .failed(let reason):
      return "could not revoke the previous token of \(Sanitize.terminal(old.login)) at \(host): "
        + "\(reason.message(remedies)). It may still be valid; revoke it by hand at \(revokeByHand(on: host, issuedTo: old.clientID))"
    }
  }
}
