import GHLoginCore

/// `ghlogin setup-git`: makes git ask ghlogin for HTTPS credentials, as `gh auth setup-git` does.
struct SetupGitCommand: Command {
  static let configuration = CommandConfiguration(
    name: "setup-git", abstract: "configure git to use ghlogin for HTTPS credentials",
    discussion: """
      For each host, runs `git config --global` to reset credential.https://HOST.helper to the
      empty value (so helpers configured elsewhere are not asked for that host) and then adds
      !'/absolute/path/to/ghlogin' git-credential, and sets credential.https://HOST.useHttpPath
      to true (git then sends the repository's path, which account_rules' owner rules match).
      Running it again changes nothing; --unset removes ghlogin's entries and useHttpPath (and
      the empty reset when nothing else is left).
      The hosts: --host, else GH_HOST or the config's host, else every host you are logged in
      to, else github.com. git's global file is the one git chooses (GIT_CONFIG_GLOBAL, else
      ~/.gitconfig or $XDG_CONFIG_HOME/git/config). A host whose helper is another program
      (such as gh's) is left alone unless --force, which says what it replaced; --unset never
      removes another program's helper. A file that belongs to another user (root running it
      with that user's HOME) is never rewritten.
      """,
    options: [
      .host, .flag("unset", help: "Remove ghlogin from git's configuration for the host"),
      .flag("force", help: "Replace a helper that names another program"),
    ])

  var host: String?
  var unset: Bool
  var force: Bool

  init(_ arguments: ParsedArguments) {
    host = arguments.value("host")
    unset = arguments.flag("unset")
    force = arguments.flag("force")
  }

  func run(in environment: Environment) throws -> ExitStatus {
    let workspace = try Workspace(environment)
    let credentials = try workspace.store.loadFile()
    let hosts = try chooseHosts(workspace, credentials: credentials)
    let git = try GitConfig(environment: environment.variables)
    let value = try helperValue(environment.executablePath)
    try OtherUsersFile.check(git.globalFile, command: "ghlogin setup-git" + (unset ? " --unset" : ""))
    // Every host is checked before any is changed: a refusal leaves the file as it was.
    var replaced: [String: [String]] = [:]
    if !unset {
      for host in hosts {
        let key = GitConfig.helperKey(for: host)
        let others = try git.values(key).filter { !$0.isEmpty && !GitConfig.isGHLoginHelper($0, current: value) }
        if !others.isEmpty { replaced[key] = others }
      }
    }
    if !replaced.isEmpty && !force {
      let rerun = "ghlogin setup-git" + (host != nil ? " --host \(hosts[0].name)" : "") + " --force"
      throw RefusedEdit(
        "git's \(Self.describe(replaced)); nothing was changed. To replace "
          + "\(replaced.values.joined().count == 1 ? "it" : "them") with ghlogin, run '\(rerun)'")
    }
    for host in hosts {
      let key = GitConfig.helperKey(for: host)
      if unset {
        if try remove(key, current: value, git: git) {
          try git.remove(GitConfig.useHttpPathKey(for: host), value: "true")
          environment.stderr.write("Removed ghlogin from git's credential helpers for https://\(host.name)\n")
        } else {
          environment.stderr.write(
            "ghlogin was not one of git's credential helpers for https://\(host.name); nothing to remove\n")
        }
      } else {
        // git then sends the repository's path, which `owner` account rules match (R112). Set
        // first, once: the helper entries rewritten below then keep their place, and a second
        // run leaves the file byte for byte as it was.
        let useHttpPath = GitConfig.useHttpPathKey(for: host)
        if try git.values(useHttpPath) != ["true"] { try git.set(useHttpPath, "true") }
        try git.reset(key)
        try git.add(key, value)
        environment.stderr.write("Configured git to use ghlogin for https://\(host.name)\n")
        if let others = replaced[key] { environment.stderr.write("Replaced: git's \(Self.describe([key: others])).\n") }
        if credentials.hosts[host.name]?.accounts.isEmpty ?? true {
          environment.stderr.write("Not logged in to \(host.name) yet: run 'ghlogin auth --host \(host.name)'\n")
        }
      }
    }
    return .success
  }

  /// `KEY is 'VALUE', another program's credential helper`, for each key, sorted.
  private static func describe(_ entries: [String: [String]]) -> String {
    let each = entries.sorted { $0.key < $1.key }.map { key, values in
      key + " is " + values.map { "'\(Sanitize.terminal($0, maxCharacters: 200))'" }.joined(separator: " and ")
    }
    let count = entries.values.joined().count
    return each.joined(separator: ", ")
      + (count == 1 ? ", another program's credential helper" : ", other programs' credential helpers")
  }

  /// `--host`, else `GH_HOST` or the config's host, else the hosts with logins, else github.com.
  private func chooseHosts(_ workspace: Workspace, credentials: Credentials) throws -> [GitHubHost] {
    let fromEnvironment = workspace.environment.variables["GH_HOST"].flatMap { $0.isEmpty ? nil : $0 }
    if host != nil || fromEnvironment != nil || workspace.config.host != nil || workspace.config.endpointHost != nil
      || credentials.hosts.isEmpty
    {
      return [try workspace.host(host)]
    }
    return credentials.hosts.keys.sorted().compactMap { try? GitHubHost(validating: $0) }
  }

  /// The helper value for `executable`, which must be an absolute path without control
  /// characters (git's config and its shell must read it back as written).
  private func helperValue(_ executable: String) throws(UsageError) -> String {
    guard executable.hasPrefix("/"), !executable.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
      throw UsageError(
        "cannot tell the absolute path of ghlogin (got '\(Sanitize.terminal(executable))'); run it by its full path")
    }
    return GitConfig.helperValue(executable: executable)
  }

  /// Removes ghlogin's values of `key`; then, when only empty resets are left, those too.
  /// Returns whether there was one of ghlogin's to remove.
  private func remove(_ key: String, current: String, git: GitConfig) throws -> Bool {
    let values = try git.values(key)
    let ours = values.filter { GitConfig.isGHLoginHelper($0, current: current) }
    for value in Set(ours).sorted() { try git.remove(key, value: value) }
    let rest = values.filter { !GitConfig.isGHLoginHelper($0, current: current) }
    if !ours.isEmpty, !rest.isEmpty, rest.allSatisfy(\.isEmpty) { try git.remove(key, value: "") }
    return !ours.isEmpty
  }
}
