extension GitHubLogin {
  /// A token for `host` and the account the account rules choose for `directory`, good for at
  /// least five more minutes, as ``token(host:account:)`` gives it.
  ///
  /// The account is the first of: `account`; `GHLOGIN_USER`; the git config of the repository
  /// at `directory` (`credential.username` for the host, then `ghlogin.account`, read only when
  /// the host has more than one login); the config file's `account_rules` whose `dir` holds
  /// `directory`; the host's default account. It is what `ghlogin token` run in `directory`
  /// answers. A name or rule naming an account that is not logged in throws
  /// ``GitHubLoginErrorKind/notLoggedIn`` naming that account: it never falls back to another.
  ///
  /// - Parameters:
  ///   - host: the host (default: `GH_HOST`, the configuration's host, the only host with logins).
  ///   - account: the login on that host (default: as above).
  ///   - directory: the directory the rules judge, such as the repository a tool works on,
  ///     instead of the process's working directory.
  public func token(host: String? = nil, account: String? = nil, directory: String) async throws -> AccessToken {
    var scoped = self
    scoped.workspace.accountRequest.directory = directory
    return try await scoped.token(host: host, account: account)
  }
}
