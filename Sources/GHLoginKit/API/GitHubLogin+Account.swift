import GHLoginCore

extension GitHubLogin {
  /// Asks GitHub who the stored token of `host` and `account` belongs to (`GET /user`),
  /// refreshing the token first when it is due.
  ///
  /// Runs on a thread of its own; cancelling the task ends the request at once.
  /// - Throws: ``GitHubLoginError`` with ``GitHubLoginErrorKind/tokenRejected`` when GitHub no
  ///   longer accepts the token, ``GitHubLoginErrorKind/notLoggedIn`` without a login.
  public func identity(host: String? = nil, account: String? = nil) async throws -> GitHubIdentity {
    try await DedicatedThread.run(remedies: remedies) { stopFD in
      try self.workspace.stopping(on: stopFD).identity(AccountSelection(host: host, user: account)).identity
    }.get()
  }

  /// Logs `account` on `host` out: revokes its tokens (with `revoke`: at the configured RFC 7009
  /// `revocationURL`, else at GitHub when a client secret is configured) and removes it from the
  /// credentials file, whatever the revocation did, in one locked update.
  ///
  /// Runs on a thread of its own; cancelling the task ends a revocation request at once (the
  /// token is still removed locally).
  public func logout(
    host: String? = nil, account: String? = nil, revoke: Bool = true
  ) async throws -> LogoutOutcome {
    try await DedicatedThread.run(remedies: remedies) { stopFD in
      try self.workspace.stopping(on: stopFD).logout(
        AccountSelection(host: host, user: account), revoke: revoke, remedies: remedies)
    }.get()
  }

  /// Tells the library that an API request with `token` was answered 401, so that a login GitHub
  /// no longer accepts is forgotten (as AppAuth's `updateWithAuthorizationError`).
  ///
  /// Nothing is removed on your word alone (R102): the library asks the host's API itself with
  /// that exact token (`GET /user`, within 5 seconds), refreshing it first when it has expired.
  /// Only a 401 there, or a refresh token that is dead, removes the login; a token that works, a
  /// network failure or any other answer keeps it.
  public func reportRejected(_ token: AccessToken) async throws -> RejectionReport {
    try await DedicatedThread.run(remedies: remedies) { stopFD in
      let workspace = self.workspace.stopping(on: stopFD)
      let host = try GitHubHost(validating: token.host)
      return RejectionReport(
        try workspace.checkReportedRejection(
          token: token.value, on: host, username: token.login, remedies: remedies))
    }.get()
  }
}

/// What ``GitHubLogin/reportRejected(_:)`` found.
public enum RejectionReport: Sendable, Hashable {
  /// No stored login has that token any more (logged out, or replaced): nothing was done.
  case notStored
  /// The API accepts the token: the login was kept (the 401 came from something else, such as
  /// a missing scope or an SSO requirement).
  case accepted
  /// The token had expired; it was refreshed and the new one is stored: ask for
  /// ``GitHubLogin/token(host:account:)`` again.
  case refreshed
  /// The token could not be checked now, for this reason: the login was kept.
  case unchecked(String)
  /// The host's API rejected the token, or its refresh token is dead: the login was removed;
  /// log in again.
  case forgotten
}

extension RejectionReport {
  init(_ check: RejectionCheck) {
    switch check {
    case .notStored: self = .notStored
    case .accepted: self = .accepted
    case .refreshed: self = .refreshed
    case .unchecked(_, let reason): self = .unchecked(reason)
    case .forgotten: self = .forgotten
    }
  }
}
