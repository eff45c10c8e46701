import GHLoginCore

/// `ghlogin refresh`: renews an expiring token now, whatever time it has left.
struct RefreshCommand: Command {
  static let configuration = CommandConfiguration(
    name: "refresh", abstract: "renew an expiring token now",
    discussion: """
      Spends the refresh token of an expiring token (GitHub App user tokens last 8 hours) for a
      new token and refresh token, and stores both. 'token', 'whoami' and the git helper do this
      on their own when the token expires within five minutes; this forces it. A token that
      cannot expire (OAuth app tokens) is left alone, with exit status 0.

      Exits 4 when the refresh token is no longer accepted: run 'ghlogin auth' then.
      """,
    options: [.host, .user])

  var selection: AccountSelection

  init(_ arguments: ParsedArguments) {
    selection = AccountSelection(arguments)
  }

  func run(in environment: Environment) throws -> ExitStatus {
    let workspace = try Workspace(environment)
    let credentials = try workspace.store.loadFile()
    let (host, account) = try workspace.select(selection, in: credentials)
    if let note = workspace.accountRuleNote(selection) { environment.stderr.write(note) }
    try account.checkSecrets(on: host.name)
    let login = Sanitize.terminal(account.login)
    if account.refreshToken == nil && !account.isExpired {
      guard let expiresAt = account.expiresAt else {
        environment.stderr.write("The token for \(host) (\(login)) does not expire; there is nothing to refresh.\n")
        return .success
      }
      let left = expiresAt - environment.clock.now()
      guard left > 0 else { throw RefreshError(.sessionExpired, host: host) }
      environment.stderr.write(
        "The token for \(host) (\(login)) cannot be refreshed: it came without a refresh token. "
          + "It expires in \(DurationText.describe(left)); run 'ghlogin auth' then.\n")
      return .success
    }
    let outcome = try workspace.refresher(for: host).refresh(account, force: true)
    if let kept = outcome.warning(now: environment.clock.now()) { throw ForcedRefreshFailed(kept) }
    var text = "Refreshed the token for \(host) (\(login))"
    if let expiresAt = outcome.credential.expiresAt {
      text += "; it expires in \(DurationText.describe(expiresAt - environment.clock.now()))"
    }
    environment.stderr.write(text + ".\n")
    return .success
  }
}
