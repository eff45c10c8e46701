import GHLoginCore

extension StatusCommand {
  /// The host whose active token decides the exit status: `--host`, `GH_HOST`, the config's
  /// `host`; nil when none is chosen (then every listed host counts).
  func chosenHost(_ workspace: Workspace) -> String? {
    let fromEnvironment = workspace.environment.variables["GH_HOST"].flatMap { $0.isEmpty ? nil : $0 }
    return (host ?? fromEnvironment ?? workspace.config.host).flatMap { try? GitHubHost(validating: $0).name }
  }

  /// Exit 4, with a line on stderr, when GitHub rejected the active token of the chosen host
  /// (or of any listed host when none is chosen); 0 otherwise, whatever could not be checked.
  func verdict(
    _ checks: [String: [TokenCheck.Key: TokenCheck]]?, credentials: Credentials, hosts: [String], workspace: Workspace
  ) -> ExitStatus {
    let deciding = chosenHost(workspace).map { [$0] } ?? hosts
    for name in deciding {
      guard let active = Self.active(on: name, in: credentials, workspace: workspace), active.isExpired else {
        continue
      }
      workspace.environment.stderr.write(
        "ghlogin: the session for \(name) (\(Sanitize.terminal(active.login))) has expired; "
          + "run 'ghlogin auth --host \(name)'\n")
      return .notLoggedIn
    }
    guard let checks else { return .success }
    for name in deciding {
      guard let active = Self.active(on: name, in: credentials, workspace: workspace),
        checks[name]?[TokenCheck.Key(active)] == .rejected
      else { continue }
      workspace.environment.stderr.write(
        "ghlogin: the active token for \(name) (\(Sanitize.terminal(active.login))) was rejected by GitHub; "
          + "run 'ghlogin auth --host \(name)'\n")
      return .notLoggedIn
    }
    return .success
  }

  /// The active account of `host` for this command line's app (each app has its own: R111).
  static func active(on host: String, in credentials: Credentials, workspace: Workspace) -> Credential? {
    guard let entry = credentials.hosts[host], let githubHost = try? GitHubHost(validating: host) else { return nil }
    return entry.defaultAccount(forApp: workspace.callerApp(on: githubHost))
  }

  /// Takes GitHub's token expiries from the checks into `credentials` (to show) and the store.
  func learnGitHubExpirations(
    _ details: [String: [TokenCheck.Key: TokenCheck.Details]], in credentials: inout Credentials, workspace: Workspace
  ) {
    for (host, byID) in details {
      guard var entry = credentials.hosts[host] else { continue }
      for index in entry.accounts.indices {
        guard let expiration = byID[TokenCheck.Key(entry.accounts[index])]?.gitHubExpiration else { continue }
        workspace.recordGitHubExpiration(expiration, of: entry.accounts[index], on: host)
        entry.accounts[index].gitHubExpiration = expiration
      }
      credentials.hosts[host] = entry
    }
  }

  /// The line about organisation SSO for one checked account, or nothing.
  static func describeSSO(_ details: TokenCheck.Details?, on host: String) -> String {
    if let message = details?.ssoRequired { return "    SSO: \(message)\n" }
    guard let count = details?.unauthorizedOrganizations, count > 0 else { return "" }
    return "    SSO: not authorised for \(count) organisation\(count == 1 ? "" : "s") (SAML single sign-on); "
      + "authorise the token for them at https://\(host)/settings/tokens (Configure SSO) for a token you made, "
      + "or at https://\(host)/settings/applications for an app's token\n"
  }

  /// One warning per variable when `GH_TOKEN` or `GITHUB_TOKEN` is set to another token than
  /// the active login of the chosen host (else of the only host, else github.com). Neither
  /// token is printed; they are compared in constant time.
  func warnAboutEnvironmentTokens(_ credentials: Credentials, workspace: Workspace) {
    let variables = workspace.environment.variables
    let known = credentials.hosts.keys.sorted()
    let name = chosenHost(workspace) ?? (known.count == 1 ? known[0] : GitHubHost.gitHubDotCom.name)
    guard let active = Self.active(on: name, in: credentials, workspace: workspace) else { return }
    for variable in ["GH_TOKEN", "GITHUB_TOKEN"] {
      guard let value = variables[variable], !value.isEmpty,
        !CredentialHostMatch.constantTimeEqual(value, active.token)
      else { continue }
      workspace.environment.stderr.write(
        "ghlogin: warning: \(variable) is set to another token than the active login for \(name) "
          + "(\(Sanitize.terminal(active.login))); gh and many tools use it first. "
          + "Unset it (unset \(variable)) or set it from this login: eval \"$(ghlogin env --host \(name))\"\n")
    }
  }
}
