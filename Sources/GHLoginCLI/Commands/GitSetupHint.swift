import GHLoginCore

/// The next step after a login: one line saying how to let git use it, when git is not set up
/// for the host yet.
enum GitSetupHint {
  /// The line to print after logging in to `host` (with its newline), or nil when git already
  /// asks ghlogin for `host` (`credential.https://HOST.helper` holds a ghlogin entry, as
  /// `setup-git` writes it), or when git cannot be found or asked (then the hint could not be
  /// followed or checked, and saying nothing is better than a wrong hint).
  ///
  /// `--host` is added when `host` is not the one `setup-git` picks by itself (`GH_HOST`, else
  /// the config's `host` or the host of its endpoints, else github.com), so the line can be run
  /// as printed.
  static func line(for host: GitHubHost, workspace: Workspace) -> String? {
    let variables = workspace.environment.variables
    guard let git = try? GitConfig(environment: variables),
      let values = try? git.values(GitConfig.helperKey(for: host))
    else { return nil }
    let current = GitConfig.helperValue(executable: workspace.environment.executablePath)
    if values.contains(where: { !$0.isEmpty && GitConfig.isGHLoginHelper($0, current: current) }) { return nil }
    let chosen = (try? workspace.host(nil)) ?? .gitHubDotCom
    let option = chosen.name == host.name ? "" : " --host \(host.name)"
    return "To let git use this login: ghlogin setup-git\(option)\n"
  }
}
