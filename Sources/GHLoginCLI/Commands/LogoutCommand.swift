import GHLoginCore

/// `ghlogin logout`: revokes one account's token at GitHub and forgets it (R45, R46).
struct LogoutCommand: Command {
  static let configuration = CommandConfiguration(
    name: "logout", abstract: "revoke a login and remove it from this machine",
    discussion: """
      First revokes the tokens of the account (the active one unless --user): with revocation_url
      set, at that RFC 7009 endpoint (the refresh token, then the access token); else, when the
      config has a client_secret, at GitHub's DELETE /applications/CLIENT_ID/token. The token is
      then removed from the credentials file even if the revocation failed; when nothing confirmed
      it, ghlogin warns that the token may still be valid and says where to revoke it by hand.
      --local-only skips the revocation.
      Each app keeps its own login of a user (a tool built on GHLoginKit, or a token stored with
      'auth --with-token', beside ghlogin's): logout removes this ghlogin's login (its app's, else
      the one without an app). --all-apps removes every login of that user on the host, each app's;
      a token another app issued cannot be revoked with this app's credentials, and ghlogin says
      where to revoke it by hand.
      """,
    options: [
      .host, .user, .flag("local-only", help: "Only remove the token from this machine; do not revoke it"),
      .flag("all-apps", help: "Remove every app's login of the user on the host, not only this app's"),
    ])

  var selection: AccountSelection
  var localOnly: Bool
  var allApps: Bool

  init(_ arguments: ParsedArguments) {
    selection = AccountSelection(arguments)
    localOnly = arguments.flag("local-only")
    allApps = arguments.flag("all-apps")
  }

  /// ``Workspace/logout(_:revoke:remedies:)`` (the library's `logout()`), or with `--all-apps`
  /// ``Workspace/logoutAllApps(_:revoke:remedies:)``, reported on stderr.
  func run(in environment: Environment) throws -> ExitStatus {
    let workspace = try Workspace(environment)
    let note = workspace.accountRuleNote(selection)
    let outcomes =
      allApps
      ? try workspace.logoutAllApps(selection, revoke: !localOnly, remedies: .ghlogin)
      : [try workspace.logout(selection, revoke: !localOnly, remedies: .ghlogin)]
    if let note { environment.stderr.write(note) }
    for outcome in outcomes { Self.report(outcome, workspace: workspace, environment: environment) }
    if let last = outcomes.last(where: \.wasActive) ?? outcomes.last,
      let line = Self.activeNow(on: last.host, after: last, workspace: workspace)
    {
      environment.stderr.write(line)
    }
    return .success
  }

  /// What became of one removed login, on stderr.
  static func report(_ outcome: LogoutOutcome, workspace: Workspace, environment: Environment) {
    let host = outcome.host
    let manual = Workspace.revokeByHand(outcome.manualRevocationURL)
    let done = "Logged out of \(host) as \(Sanitize.terminal(outcome.login))"
    switch outcome.revocation {
    case .revoked:
      environment.stderr.write("\(done); the token was revoked at \(host)\n")
    case .alreadyInvalid:
      environment.stderr.write("\(done); \(host) no longer knew the token (already revoked or expired)\n")
    case .skipped:
      environment.stderr.write(
        "\(done). The token was not revoked (--local-only): it stays valid until it expires or you revoke it at "
          + "\(manual)\n")
    case .notConfigured:
      // A host known to be GitHub revokes with the client secret; any other server needs revocation_url.
      let missing = outcome.manualRevocationURL == nil ? "revocation_url" : "client_secret"
      let text =
        "\(done). The token was removed from this machine but not revoked, because no \(missing) is "
        + "configured: it stays valid until it expires or you revoke it at \(manual)"
      environment.stderr.write(text + Self.revocationHint(on: host, outcome, workspace: workspace) + "\n")
    case .failed(let reason):
      environment.stderr.write(
        "ghlogin: warning: could not revoke the token at \(host): \(reason). The token may still be valid; "
          + "revoke it by hand at \(manual)"
          + (reason.hasSuffix(RevocationError.notOfferedAdvice(.ghlogin))
            ? Self.revocationHint(on: host, outcome, workspace: workspace) : "") + "\n\(done)\n")
    }
  }

  /// On a server that is not GitHub and has no `revocation_url` (nothing configured to revoke
  /// with, or GitHub's route not offered there): the exact line that makes the next logout revoke (". To revoke at logout, ...: ghlogin config set revocation_url URL").
  static func revocationHint(on host: String, _ outcome: LogoutOutcome, workspace: Workspace) -> String {
    guard outcome.manualRevocationURL == nil, workspace.config.settings(for: host).revocationURL == nil else {
      return ""
    }
    let hostOption = host == workspace.config.defaultHost ? [] : ["--host", host]
    let line = CommandHint.line(["ghlogin", "config", "set"] + hostOption + ["revocation_url"])
    return ". To revoke at logout, give its RFC 7009 revocation endpoint: \(line) URL"
  }

  /// After logging out the active account of a host that keeps others: which one is active now
  /// for this app.
  static func activeNow(on host: String, after outcome: LogoutOutcome, workspace: Workspace) -> String? {
    guard outcome.wasActive, let entry = try? workspace.store.loadFile().hosts[host],
      let githubHost = try? GitHubHost(validating: host),
      let active = entry.defaultLogin(forApp: workspace.callerApp(on: githubHost)),
      entry.account(active, forApp: workspace.callerApp(on: githubHost)) != nil,
      active.lowercased() != outcome.login.lowercased()
    else { return nil }
    return "\(Sanitize.terminal(active)) is now the active account on \(host) (change it with "
      + "'\(CommandHint.line(["ghlogin", "switch"] + (host == DefaultHost.name ? [] : ["--host", host])))')\n"
  }
}
