/// The one way `git-credential get` and `env` obtain the credential they hand out.
///
/// LEAD: switch this single call site to the shared function from branch `lifecycle` that
/// refreshes a token close to expiry (and saves the result) before returning it. Until then it
/// picks the account with ``Workspace/account(on:user:in:)`` and refuses a token that has
/// already expired or whose refresh failed for good, rather than hand out one that cannot work.
enum UsableCredential {
  /// Why no usable credential could be handed out: exit 4, with what to do.
  struct Unusable: ReportableError, Equatable {
    var host: String
    var login: String

    var message: String {
      "the token of \(Sanitize.terminal(login)) on \(host) has expired; run 'ghlogin auth --host \(host)'"
    }

    var exitStatus: ExitStatus { .notLoggedIn }
  }

  /// The account to use on `host` (`user`, else `GHLOGIN_USER`, else the active one) with a
  /// token that works now. Throws ``NotLoggedIn`` when there is no such account and
  /// ``Unusable`` when its token has expired.
  static func obtain(
    _ workspace: Workspace, on host: GitHubHost, user: String?, in credentials: Credentials
  ) throws -> Credential {
    let account = try workspace.account(on: host, user: user, in: credentials)
    if account.isExpired { throw Unusable(host: host.name, login: account.login) }
    if let expiresAt = account.expiresAt, expiresAt <= workspace.environment.clock.now() {
      throw Unusable(host: host.name, login: account.login)
    }
    return account
  }
}
