import GHLoginCore

extension GitHubLogin {
  /// Logs the user in through the browser or with a one-time code, telling your UI what to
  /// show through `events`, and stores the token unless ``LoginOptions/storesLogin`` is false.
  ///
  /// The blocking work (the loopback listener, the device-flow polling, HTTPS) runs on a
  /// thread of its own, never on Swift's cooperative pool. Cancelling the task stops the wait
  /// at once and throws ``GitHubLoginErrorKind/cancelled``; nothing is stored then.
  ///
  /// `events` is called on that thread, in order: show the URL or the code, then the waiting
  /// line, then ``LoginEvent/loggedIn(host:login:)``.
  public func login(
    _ options: LoginOptions = LoginOptions(), events: @escaping @Sendable (LoginEvent) -> Void
  ) async throws -> LoginOutcome {
    try await DedicatedThread.run(remedies: remedies) { stopFD in
      let workspace = self.workspace.stopping(on: stopFD)
      let login = try workspace.login(try workspace.plan(options), remedies: remedies, events: events) {
        events(.notice($0))
      }
      guard let outcome = login.outcome else { preconditionFailure("a flow's login has a flow") }
      return outcome
    }.get()
  }

  /// Stores a token your user already has and pastes into your tool (a classic or fine-grained
  /// personal access token, or a GitHub App user token), once GitHub has said whose it is: the
  /// same login pipeline as ``login(_:events:)`` and `ghlogin auth --with-token`.
  ///
  /// Nothing is stored before `GET /user` on `host` accepts the token; the account it names
  /// becomes the host's active one, and a token it replaces is revoked where a client secret or
  /// revocation URL is configured. No OAuth app is needed. The token is recorded with the scopes
  /// GitHub reports for it (`X-OAuth-Scopes`; none for fine-grained and GitHub App tokens) and
  /// without a refresh token: it replaces a refreshable login of the same account, whose refresh
  /// token is then lost. When it is the stored token of that account already, nothing changes.
  ///
  /// ```swift
  /// let github = try GitHubLogin()
  /// let pasted = readLine() ?? ""              // the token your user pasted
  /// let stored = try await github.storeToken(pasted, host: "github.com")
  /// print("Logged in to \(stored.host) as \(stored.login)")
  /// ```
  ///
  /// Runs on a thread of its own; cancelling the task ends the check at once and stores nothing.
  ///
  /// - Parameters:
  ///   - token: the token, without surrounding whitespace; it is never part of an error message.
  ///   - host: the host it is for (default: as ``token(host:account:)`` chooses).
  ///   - expectedLogin: fail, storing nothing, unless the token is this account's.
  ///   - events: notices to show (``LoginEvent/notice(_:)``: the token was stored already; the
  ///     token it replaced could not be revoked), then ``LoginEvent/loggedIn(host:login:)``.
  /// - Returns: the stored token (the one stored already when it was the same).
  /// - Throws: ``GitHubLoginError`` with ``GitHubLoginErrorKind/tokenRejected`` when GitHub
  ///   rejects the token (HTTP 401), ``GitHubLoginErrorKind/configuration`` when it is not a
  ///   token (control characters, non-ASCII, `=`: GitHub is not asked),
  ///   ``GitHubLoginErrorKind/wrongAccount`` when it is another account's than `expectedLogin`,
  ///   ``GitHubLoginErrorKind/cancelled`` when the task is cancelled.
  public func storeToken(
    _ token: String, host: String? = nil, expectedLogin: String? = nil,
    events: @escaping @Sendable (LoginEvent) -> Void = { _ in }
  ) async throws -> AccessToken {
    try await DedicatedThread.run(remedies: remedies) { stopFD in
      let workspace = self.workspace.stopping(on: stopFD)
      let options = LoginOptions(host: host, expectedLogin: expectedLogin)
      let plan = try workspace.plan(options, givenToken: GivenToken(read: { token }))
      return try workspace.login(plan, remedies: remedies, events: events) { events(.notice($0)) }.token
    }.get()
  }
}
