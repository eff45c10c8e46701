/// Which account a command, helper or library call uses on a host, decided in one place, once
/// per call and read-only (issue 33 §2, R112). The first that applies wins:
///
/// 1. `--user` (the library's `account:`), or the `username=` git sends; then `GHLOGIN_USER`;
/// 2. the git config of the repository in the working directory: for callers other than git,
///    `credential.username` for `https://HOST/` (as git itself would send it); then
///    `ghlogin.account`. Only inside a git work tree, only when the host has more than one
///    login this caller may use, never when git is not installed;
/// 3. the config's `account_rules`: a `dir` rule when the working directory (realpath) is the
///    rule's directory or below it, an `owner` rule when the request's path names that owner;
/// 4. the host's default account (``defaultAccount(on:in:)``).
///
/// A name or rule naming an account that is not logged in (or that this caller may not use)
/// is ``NotLoggedIn`` naming it and what chose it: it never falls back to another account.
extension Workspace {
  /// The account to use on `host` and what chose it (see the type's rules). `option` is
  /// `--user`, the library's `account:` or, for git (``AccountRequest/Caller/git``), its
  /// `username=`.
  package func accountChoice(on host: GitHubHost, user option: String?, in credentials: Credentials) throws(NotLoggedIn)
    -> AccountChoice
  {
    guard let entry = credentials.entry(for: host.name), !entry.accounts.isEmpty else {
      throw NotLoggedIn(host: host.name)
    }
    guard let named = namedAccount(on: host, user: option, in: entry) else {
      return AccountChoice(account: try defaultAccount(on: host, in: entry), reason: .defaultAccount)
    }
    // The account the login answers to (R92), never a stale entry behind a hidden one; of two
    // apps' logins of that user, the caller's app's (R111).
    guard let account = entry.account(named.login, forApp: callerApp(on: host)) else {
      throw NotLoggedIn(
        host: host.name, user: named.login, chosenBy: named.reason.isRule ? named.reason.described : nil)
    }
    return AccountChoice(account: account, reason: named.reason)
  }

  /// Rules 1–3: the login named for `host` and what named it; nil when the default decides.
  package func namedAccount(on host: GitHubHost, user option: String?, in entry: HostEntry) -> (
    login: String, reason: AccountReason
  )? {
    if let option, !option.isEmpty { return (option, accountRequest.caller == .git ? .gitUsername : .option) }
    if let wanted = environment.variables["GHLOGIN_USER"], !wanted.isEmpty { return (wanted, .environment) }
    let rules = config.accountRules
    // One login at most: nothing for git's config to choose among, and no app to look up.
    let app = entry.accounts.count > 1 ? callerApp(on: host) : nil
    let visible = entry.accounts.count > 1 ? entry.accounts.count { isVisible($0, toApp: app) } : 0
    guard visible > 1 || rules != nil else { return nil }
    // The working directory (or the caller's), resolved: what `dir` rules and git's config judge.
    let here = (accountRequest.directory ?? FileSystem.currentDirectory()).flatMap(FileSystem.realPath)
    if visible > 1, let here, let found = gitConfigAccount(for: host, in: here) { return found }
    guard let (list, file) = rules else { return nil }
    for (index, rule) in list.enumerated() where rule.applies(to: host.name) {
      switch rule.match {
      case .directory:
        guard let here, let root = rule.resolvedDirectory(home: environment.variables["HOME"]),
          AccountRule.directory(here, isWithin: root)
        else { continue }
      case .owner:
        guard let path = accountRequest.path, rule.matchesOwner(ofPath: path) else { continue }
      }
      return (rule.account, .rule(index: index, file: file, rule))
    }
    return nil
  }

  /// Rule 2: `credential.username` for the host's URL (not for git, which sent it already),
  /// then `ghlogin.account`, from `git config` run in `directory`, when that is inside a git
  /// work tree and git is on `PATH` (found without a shell; run without one, its arguments
  /// holding no secret). Whatever git cannot answer is no answer.
  private func gitConfigAccount(for host: GitHubHost, in directory: String) -> (login: String, reason: AccountReason)? {
    let variables = environment.variables
    guard GitWorkTree.contains(directory, variables: variables),
      let git = Subprocess.find("git", path: variables["PATH"])
    else { return nil }
    func value(_ arguments: [String]) -> String? {
      guard let result = try? Subprocess.run(git, ["-C", directory, "config"] + arguments, environment: variables.all),
        result.status == 0
      else { return nil }
      var bytes = result.stdout
      while let last = bytes.last, last == 0x0A || last == 0x0D || last == 0 { bytes.removeLast() }
      let text = String(decoding: bytes, as: UTF8.self)
      return ConfigDecoder.isCredentialText(text) ? text : nil
    }
    if accountRequest.caller != .git,
      let name = value(["--get-urlmatch", "credential.username", "https://\(host.name)/"])
    {
      return (name, .gitCredentialUsername)
    }
    if let name = value(["--get", ProductNames.gitAccountKey]) { return (name, .gitAccountKey) }
    return nil
  }
}

/// What a caller knows about its request beyond `--user`, for the account rules: who asks, the
/// repository path of git's request, and the directory to judge (the working directory when nil).
package struct AccountRequest: Sendable, Equatable {
  /// Who asks: git sends `username=` itself (its `credential.username` is already in it).
  package enum Caller: Sendable, Equatable {
    case command, git
  }

  package var caller: Caller
  /// git's `path=` (sent with `credential.useHttpPath`), for `owner` rules.
  package var path: String?
  /// The directory `dir` rules and git's config are judged in; nil: the working directory.
  package var directory: String?

  package init(caller: Caller = .command, path: String? = nil, directory: String? = nil) {
    self.caller = caller
    self.path = path
    self.directory = directory
  }
}

/// The account chosen on a host and what chose it.
package struct AccountChoice: Sendable, Equatable {
  package var account: Credential
  package var reason: AccountReason
}

/// Which of the rules chose an account (`whoami --explain`, `status --json`, `logout`, `refresh`).
package enum AccountReason: Sendable, Equatable {
  /// `--user` (the library's `account:`).
  case option
  /// The `username=` git sent (from the remote URL or `credential.username`).
  case gitUsername
  /// `GHLOGIN_USER`.
  case environment
  /// `credential.username` in the repository's git config.
  case gitCredentialUsername
  /// `ghlogin.account` in the repository's git config.
  case gitAccountKey
  /// The config's `account_rules[index]` in `file`.
  case rule(index: Int, file: String, AccountRule)
  /// The host's default account.
  case defaultAccount

  /// Whether a rule chose (the git config or `account_rules`), not the caller's own name.
  package var isRule: Bool {
    switch self {
    case .gitCredentialUsername, .gitAccountKey, .rule: true
    case .option, .gitUsername, .environment, .defaultAccount: false
    }
  }

  /// A short machine name (`status --json`'s `"chosen_by"`).
  package var key: String {
    switch self {
    case .option: "option"
    case .gitUsername: "git_username"
    case .environment: "GHLOGIN_USER"
    case .gitCredentialUsername: "git_config_credential_username"
    case .gitAccountKey: "git_config_account"
    case .rule: "account_rules"
    case .defaultAccount: "default"
    }
  }

  /// What chose the account, in words: "account_rules[0] (dir ~/work) in FILE".
  package var described: String {
    switch self {
    case .option: "the account named for this command"
    case .gitUsername: "the username git sent"
    case .environment: "GHLOGIN_USER"
    case .gitCredentialUsername: "credential.username in this repository's git config"
    case .gitAccountKey: "\(ProductNames.gitAccountKey) in this repository's git config"
    case .rule(let index, let file, let rule):
      switch rule.match {
      case .directory(let directory):
        "account_rules[\(index)] (dir \(Sanitize.terminal(directory))) in \(Sanitize.terminal(file))"
      case .owner(let owner):
        "account_rules[\(index)] (owner \(Sanitize.terminal(owner))) in \(Sanitize.terminal(file))"
      }
    case .defaultAccount: "the host's default account"
    }
  }
}

/// Whether a directory is inside a git work tree, judged without running git: `GIT_DIR` set,
/// or a `.git` (directory or file) in it or a directory above it.
package enum GitWorkTree {
  package static func contains(_ directory: String, variables: EnvironmentVariables) -> Bool {
    if let named = variables["GIT_DIR"], !named.isEmpty { return true }
    var path = directory
    while true {
      if (try? FileSystem.status(FilePath.join(path, ".git"))) != nil { return true }
      guard path.hasPrefix("/"), path != "/" else { return false }
      path = FilePath.directory(of: path)
    }
  }
}
