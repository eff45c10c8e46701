/// Which host and which account a command or library call works on: the one reason this file
/// changes is the rules of that choice (R84, R87, R92, "Two apps on one host").
extension Workspace {
  /// The host a command works on: `--host`, else `GH_HOST`, else the config's `host`, else the
  /// host its top-level endpoints share (``EndpointHost``; a config error when they share
  /// none, R87); with none of those, the one host the store holds logins for, else github.com.
  ///
  /// With no choice made and logins for several hosts, it refuses to guess: a script must
  /// never be handed another host's token (R84).
  package func host(_ option: String?, credentials: Credentials? = nil) throws -> GitHubHost {
    if let chosen = try chosenHost(option) { return chosen }
    let known = credentials?.hostNames ?? []
    if known.count > 1 { throw SeveralHosts(hosts: known) }
    return try known.first.map { name throws(GitHubHost.ValidationError) in try GitHubHost(validating: name) }
      ?? .gitHubDotCom
  }

  /// The host ``host(_:credentials:)`` gives before it looks at the store: `--host`, `GH_HOST`,
  /// the config's `host` or its endpoints' host; nil when the store's hosts decide.
  package func chosenHost(_ option: String?) throws -> GitHubHost? {
    let fromEnvironment = environment.variables["GH_HOST"].flatMap { $0.isEmpty ? nil : $0 }
    if let chosen = option ?? fromEnvironment ?? config.host {
      return try GitHubHost(validating: chosen)
    }
    if let shared = config.endpointHost { return try GitHubHost(validating: shared.get()) }
    return nil
  }

  /// The credentials file a command on one host needs, without the keyring (``select(_:in:)``
  /// reads the chosen login's items): with the host chosen without the store
  /// (``chosenHost(_:)``), the entry of that host alone (another host's bad entry does not fail
  /// it); else the whole file.
  package func credentials(for option: String?) throws -> Credentials {
    guard let chosen = try chosenHost(option) else { return try store.loadFile() }
    return try store.loadFile(host: chosen.name)
  }

  /// The host and the account `selection` names in `credentials` (see ``host(_:credentials:)``
  /// and ``account(on:user:in:)``).
  /// The account's tokens kept in the keyring are read now, its items only
  /// (``CredentialStore/resolvedSecrets(of:on:)``): a command never reads, nor is stopped by, the
  /// items of logins it does not use. What reading them found wrong is left for the caller
  /// (``Credential/checkSecrets(on:)``), so that `logout` can still remove the login.
  package func select(_ selection: AccountSelection, in credentials: Credentials) throws -> (GitHubHost, Credential) {
    let host = try host(selection.host, credentials: credentials)
    let account = try account(on: host, user: selection.user, in: credentials)
    return (host, try store.resolvedSecrets(of: account, on: host.name))
  }

  /// The account to use on `host`, among the accounts this caller sees (``isVisible(_:toApp:)``):
  /// the one a name or rule chooses (``accountChoice(on:user:in:)``: `--user`, `GHLOGIN_USER`,
  /// the repository's git config, `account_rules`), else the default (``defaultAccount(on:in:)``).
  package func account(on host: GitHubHost, user option: String?, in credentials: Credentials) throws(NotLoggedIn)
    -> Credential
  {
    try accountChoice(on: host, user: option, in: credentials).account
  }

  /// The host's default account, when no name or rule chooses one: the default of the caller's
  /// app (``HostEntry/defaultAccount(forApp:)``). When that default is hidden, the first visible
  /// one that is not stale (R92); none visible is ``NotLoggedIn``.
  package func defaultAccount(on host: GitHubHost, in entry: HostEntry) throws(NotLoggedIn) -> Credential {
    let app = callerApp(on: host)
    if let chosen = entry.defaultAccount(forApp: app) { return chosen }
    guard let first = entry.accounts.first(where: { isVisible($0, toApp: app) && !entry.isStale($0) }) else {
      throw NotLoggedIn(host: host.name)
    }
    return first
  }

  /// The caller's app on `host` (issue 33 §1): a library caller's own app (``callerClientID``),
  /// else the client ID the configuration resolves for the host (the built-in app on a packaged
  /// build), the same for every entry point of one binary (`token`, `env`, `whoami`, the git,
  /// docker and Go helpers, `auth`). Nil only when no client ID is configured at all (a source
  /// build with none): such a caller takes any login.
  package func callerApp(on host: GitHubHost) -> String? {
    if let callerClientID { return callerClientID }
    return config.clientID(for: host.name).flatMap { $0.isEmpty ? nil : $0 }
  }

  /// Whether a caller whose app is `app` (``callerApp(on:)``) sees `account` (SECURITY.md, "Two
  /// apps on one host", R111): the logins its app made and those with no client ID (tokens
  /// stored with `--with-token`), never another app's (``Credential/isUsable(byApp:)``); a caller
  /// without an app sees every login.
  package func isVisible(_ account: Credential, toApp app: String?) -> Bool {
    app.map(account.isUsable(byApp:)) ?? true
  }
}

/// Logins for several hosts and nothing chooses one (R84): exit 2. The message names at most
/// five of them (a thousand hosts must not make a 20 kB line) and both ways to choose.
package struct SeveralHosts: ReportableError, Equatable {
  /// The hosts with logins, sorted.
  package var hosts: [String]
  /// The command that was run (`ghlogin COMMAND --host HOST`); the command line sets it.
  package var command = "token"

  package init(hosts: [String]) { self.hosts = hosts.sorted() }

  /// How many hosts the message names before "and N more".
  package static let named = 5

  /// "a, b, c, d, e and 996 more" (each name sanitised for the terminal).
  package var list: String {
    let shown = hosts.prefix(Self.named).map { Sanitize.terminal($0, maxCharacters: 100) }.joined(separator: ", ")
    return hosts.count > Self.named ? "\(shown) and \(hosts.count - Self.named) more" : shown
  }

  package var message: String { message(.words) }

  package func message(_ remedies: Remedies) -> String {
    let head = "logged in to \(hosts.count) hosts (\(list)); "
    guard let forCommand = remedies.command(.chooseHost(command: command)),
      let setHost = remedies.command(.setConfig(.host, host: nil, value: "HOST"))
    else { return head + "choose one with GH_HOST" }
    return head + "choose one with '\(forCommand)' or '\(setHost)' (or set GH_HOST)"
  }

  package var exitStatus: ExitStatus { .usage }
  package var errorKind: ErrorKind { .configuration }
}

/// No login for the host (or account) asked for: exit 4.
package struct NotLoggedIn: ReportableError, Equatable {
  package var host: String
  package var user: String?
  /// What named `user` (``AccountReason/described``), when not the caller itself: a git
  /// config key or an `account_rules` entry (R112: it never falls back to another account).
  package var chosenBy: String?

  package init(host: String, user: String? = nil, chosenBy: String? = nil) {
    self.host = host
    self.user = user
    self.chosenBy = chosenBy
  }

  package var message: String { message(.words) }

  package func message(_ remedies: Remedies) -> String {
    let remedy = remedies.logIn(host: host, user: user, again: false)
    if let user, let chosenBy {
      return "not logged in to \(host) as \(Sanitize.terminal(user)), chosen here by \(chosenBy); \(remedy)"
    }
    if let user { return "not logged in to \(host) as \(Sanitize.terminal(user)); \(remedy)" }
    return "not logged in to \(host); \(remedy)"
  }

  package var exitStatus: ExitStatus { .notLoggedIn }
  package var errorKind: ErrorKind { .notLoggedIn }
}

/// A host and an account as asked for (`--host`/`--user`, or the library's arguments);
/// `Workspace` resolves them.
package struct AccountSelection: Sendable, Equatable {
  package var host: String?
  package var user: String?

  package init(host: String? = nil, user: String? = nil) {
    self.host = host
    self.user = user
  }
}
