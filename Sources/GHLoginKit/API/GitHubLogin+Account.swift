extension GitHubLogin {
  /// Asks GitHub who the stored token of `host` and `account` belongs to (`GET /user`),
  /// refreshing the token first when it is due.
  ///
  /// Runs on a thread of its own; cancelling the task ends the request at once.
  /// - Throws: ``GitHubLoginError`` with ``GitHubLoginError/Kind/tokenRejected`` when GitHub no
  ///   longer accepts the token, ``GitHubLoginError/Kind/notLoggedIn`` without a login.
  public func identity(host: String? = nil, account: String? = nil) async throws -> GitHubIdentity {
    let result = await DedicatedThread.run { stopFD in
      try GitHubLogin(workspace: self.workspace.stopping(on: stopFD)).blockingIdentity(host: host, account: account)
    }
    return try result.get()
  }

  /// ``identity(host:account:)`` on the calling thread, for command-line tools without an
  /// async context; it blocks for one HTTPS request.
  public func blockingIdentity(host: String? = nil, account: String? = nil) throws -> GitHubIdentity {
    do {
      let (chosen, credential) = try workspace.usableCredential(AccountSelection(host: host, user: account))
      let user = try workspace.api(for: chosen).user(token: credential.token)
      workspace.recordGitHubExpiration(user.tokenExpiration, of: credential, on: chosen.name)
      return GitHubIdentity(user, host: chosen.name)
    } catch {
      throw GitHubLoginError(error)
    }
  }

  /// Logs `account` on `host` out: revokes its tokens (with `revoke`: at the configured RFC 7009
  /// `revocationURL`, else at GitHub when a client secret is configured) and removes it from the credentials file, whatever the revocation
  /// did, in one locked update.
  ///
  /// Runs on a thread of its own; cancelling the task ends a revocation request at once (the
  /// token is still removed locally).
  public func logout(host: String? = nil, account: String? = nil, revoke: Bool = true) async throws
    -> LogoutOutcome
  {
    let result = await DedicatedThread.run { stopFD in
      try GitHubLogin(workspace: self.workspace.stopping(on: stopFD)).blockingLogout(
        host: host, account: account, revoke: revoke)
    }
    return try result.get()
  }

  /// ``logout(host:account:revoke:)`` on the calling thread, for command-line tools without an
  /// async context.
  public func blockingLogout(
    host: String? = nil, account: String? = nil, revoke: Bool = true
  ) throws -> LogoutOutcome {
    do {
      let selection = AccountSelection(host: host, user: account)
      // Revoke and remove under the lock, so a refresh in another process cannot swap in a new
      // token between the two (R46: removal is atomic and happens whatever the revocation did).
      let (chosen, login, revocation) = try workspace.store.update { credentials in
        let (chosen, account) = try workspace.select(selection, in: credentials)
        let revocation = revoke ? self.revoke(account, on: chosen) : .skipped
        // Exactly the account whose token was revoked (R92): never a stale entry with the same login.
        credentials.remove(from: chosen.name) { $0.userID == account.userID && $0.token == account.token }
        return (chosen, account.login, revocation)
      }
      return LogoutOutcome(
        host: chosen.name, login: login, revocation: revocation,
        manualRevocationURL: workspace.manualRevocationURL(for: chosen))
    } catch {
      throw GitHubLoginError(error)
    }
  }

  /// Revokes `account`'s tokens where its host can (``Workspace/revoke(token:refreshToken:on:)``);
  /// never throws.
  private func revoke(_ account: Credential, on host: GitHubHost) -> LogoutOutcome.Revocation {
    if account.token.isEmpty { return .failed("its token is missing from the keyring") }
    switch workspace.revoke(token: account.token, refreshToken: account.refreshToken, on: host) {
    case .revoked: return .revoked
    case .alreadyInvalid: return .alreadyInvalid
    case .notConfigured: return .notConfigured
    case .failed(let reason): return .failed(reason)
    }
  }
}

/// Who a token belongs to, as `GET /user` says.
public struct GitHubIdentity: Sendable, Hashable {
  /// The login (control characters removed).
  public let login: String
  /// The immutable numeric account id.
  public let id: Int64
  /// The display name, when set.
  public let name: String?
  /// The public email, when set.
  public let email: String?
  /// The scopes GitHub says the token has (`X-OAuth-Scopes`); nil for GitHub App tokens.
  public let scopes: [String]?
  /// The host.
  public let host: String
  /// The `/user` JSON object exactly as GitHub sent it.
  public let rawJSON: [UInt8]

  init(_ user: GitHubUser, host: String) {
    login = user.login
    id = user.id
    name = user.name
    email = user.email
    scopes = user.grantedScopes
    self.host = host
    rawJSON = user.rawJSON
  }
}

/// What ``GitHubLogin/logout(host:account:revoke:)`` did.
public struct LogoutOutcome: Sendable, Hashable {
  /// What became of the token at GitHub.
  public enum Revocation: Sendable, Hashable {
    /// The server confirmed the revocation (GitHub's 204; RFC 7009's 200 for the refresh token
    /// and the access token).
    case revoked
    /// GitHub no longer knew it (already revoked or expired); only on a host known to be GitHub.
    case alreadyInvalid
    /// Not asked for (`revoke: false`): the token stays valid until it expires.
    case skipped
    /// Neither a `revocationURL` nor a client secret is configured, so it could not be revoked.
    case notConfigured
    /// Nothing confirmed a revocation, for this reason (a failure, or a server that is not
    /// GitHub answering 404 to GitHub's route); the token may still be valid.
    case failed(String)
  }

  /// The host logged out of.
  public let host: String
  /// The account removed.
  public let login: String
  /// What became of the token at GitHub.
  public let revocation: Revocation
  /// Where to revoke the token by hand when it was not revoked: GitHub's page on a host known
  /// to be GitHub; nil when ghlogin knows no page (revoke it at the server that issued it).
  public let manualRevocationURL: String?
}
