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
      return try workspace.login(try workspace.plan(options), remedies: remedies, events: events) {
        events(.notice($0))
      }
    }.get()
  }
}
