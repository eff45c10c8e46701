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
    _ checks: [String: [Int64: TokenCheck]]?, credentials: Credentials, hosts: [String], workspace: Workspace
  ) -> ExitStatus {
    guard let checks else { return .success }
    let deciding = chosenHost(workspace).map { [$0] } ?? hosts
    for name in deciding {
      guard let active = credentials.hosts[name]?.active, checks[name]?[active.userID] == .rejected else { continue }
      workspace.environment.stderr.write(
        "ghlogin: the active token for \(name) (\(Sanitize.terminal(active.login))) was rejected by GitHub; "
          + "run 'ghlogin auth --host \(name)'\n")
      return .notLoggedIn
    }
    return .success
  }

  /// One warning per variable when `GH_TOKEN` or `GITHUB_TOKEN` is set to another token than
  /// the active login of the chosen host (else of the only host, else github.com). Neither
  /// token is printed; they are compared in constant time.
  func warnAboutEnvironmentTokens(_ credentials: Credentials, workspace: Workspace) {
    let variables = workspace.environment.variables
    let known = credentials.hosts.keys.sorted()
    let name = chosenHost(workspace) ?? (known.count == 1 ? known[0] : GitHubHost.gitHubDotCom.name)
    guard let active = credentials.hosts[name]?.active else { return }
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
