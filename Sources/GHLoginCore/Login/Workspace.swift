/// What the library's entry points (``GitHubLogin``) and the commands that work on logins
/// share: the resolved paths, the config, the credential store, and the rules for choosing a
/// host and an account.
package struct Workspace: Sendable {
  package let environment: Environment
  package let paths: ConfigPaths
  package let config: Config
  package let store: CredentialStore
  /// Ends every network wait once readable (``stopping(on:)``); nil: requests run to their timeout.
  package private(set) var stopFD: Int32?
  /// What ``init(collectingWarnings:quiet:unknownConfigKeys:)`` found worth saying, in order, each
  /// as the command line prints it (`ghlogin: …`, ending in a newline); nothing printed them.
  package private(set) var warnings: [String] = []
  /// The OAuth app this caller is, when it has one in mind: a library caller with its own app
  /// (``init(_:paths:configuration:)``). It sees only the logins that app made and those with no
  /// client ID (``isVisible(_:)``). Nil for the commands, the helpers and `GitHubLogin()`, which
  /// take the host's accounts as they are.
  package private(set) var callerClientID: String?

  /// The commands' workspace: ``init(collectingWarnings:quiet:unknownConfigKeys:)``, with its
  /// ``warnings`` written to stderr.
  package init(_ environment: Environment, quiet: Bool = false, unknownConfigKeys: UnknownConfigKeys = .strict) throws {
    try self.init(collectingWarnings: environment, quiet: quiet, unknownConfigKeys: unknownConfigKeys)
    for warning in warnings { environment.stderr.write(warning) }
  }

  /// Resolves the paths, loads the config and opens the store, printing nothing (the library's
  /// way). Unless `quiet`, ``warnings`` holds a notice when a `credentials.json` of an earlier
  /// version sits beside a custom `GHLOGIN_CONFIG` and none at the new place
  /// (``ConfigPaths/movedCredentialsNotice(exists:)``); it is never read. With
  /// `unknownConfigKeys` lenient (the commands that only read a token), unknown keys in the
  /// config are a warning in ``warnings`` instead of an error.
  package init(
    collectingWarnings environment: Environment, quiet: Bool = false, unknownConfigKeys: UnknownConfigKeys = .strict
  ) throws {
    let paths = try ConfigPaths.resolve(environment.variables)
    let config = try Config.load(paths: paths, variables: environment.variables, unknownKeys: unknownConfigKeys)
    self.init(environment, paths: paths, config: config)
    if let warning = config.ignoredKeysWarning { warnings.append(warning) }
    if let warning = config.loneClientSecretWarning { warnings.append(warning) }
    if let warning = config.movedAppWarning { warnings.append(warning) }
    if !quiet, let notice = paths.movedCredentialsNotice(exists: { (try? FileSystem.linkStatus($0)) != nil }) {
      warnings.append(notice)
    }
  }

  /// A workspace with a configuration that does not come from the config file (the library's
  /// ``GitHubLoginConfiguration``).
  package init(_ environment: Environment, paths: ConfigPaths, config: Config) {
    self.environment = environment
    self.paths = paths
    self.config = config
    store = CredentialStore(
      paths: paths, faults: StoreFaults.fromEnvironment(environment.variables), secrets: environment.secrets)
  }

  /// A library caller's workspace: the app and host of `configuration` (not the config file),
  /// and that app as the caller (``callerClientID``).
  package init(_ environment: Environment, paths: ConfigPaths, configuration: GitHubLoginConfiguration)
    throws(ConfigError)
  {
    self.init(environment, paths: paths, config: try configuration.config())
    callerClientID = configuration.clientID
  }

  /// The host a command works on: `--host`, else `GH_HOST`, else the config's `host`, else the
  /// host its top-level endpoints share (``EndpointHost``; a config error when they share
  /// none, R87); with none of those, the one host the store holds logins for, else github.com.
  ///
  /// With no choice made and logins for several hosts, it refuses to guess: a script must
  /// never be handed another host's token (R84).
  package func host(_ option: String?, credentials: Credentials? = nil) throws -> GitHubHost {
    if let chosen = try chosenHost(option) { return chosen }
    let known = credentials?.hosts.keys.sorted() ?? []
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
    return try store.loadFile(choosingHost: { _ in chosen.name })
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

  /// The account to use on `host`: `--user`, else `GHLOGIN_USER`, else the active one, among the
  /// accounts this caller sees (``isVisible(_:)``). When the active account is hidden, the first
  /// visible one that is not stale (R92); none visible is ``NotLoggedIn``.
  package func account(on host: GitHubHost, user option: String?, in credentials: Credentials) throws(NotLoggedIn)
    -> Credential
  {
    guard let entry = credentials.hosts[host.name], !entry.accounts.isEmpty else { throw NotLoggedIn(host: host.name) }
    let wanted = option ?? environment.variables["GHLOGIN_USER"].flatMap { $0.isEmpty ? nil : $0 }
    if let wanted {
      // The account the login answers to (R92), never a stale entry behind a hidden one.
      guard let account = entry.accounts.first(where: { $0.login.lowercased() == wanted.lowercased() }),
        isVisible(account)
      else {
        throw NotLoggedIn(host: host.name, user: wanted)
      }
      return account
    }
    if let active = entry.accounts.first(where: { $0.login == entry.activeLogin }), isVisible(active) {
      return active
    }
    guard let first = entry.accounts.first(where: { isVisible($0) && !entry.isStale($0) }) else {
      throw NotLoggedIn(host: host.name)
    }
    return first
  }

  /// Whether this caller sees `account` (SECURITY.md, "Two apps on one host"): always when it has no app in mind (the
  /// commands, the helpers, `GitHubLogin()`); a library caller with its own app
  /// (``callerClientID``) sees the logins its app made and those with no client ID (tokens stored
  /// with `--with-token`), never another app's (``Credential/isUsable(byApp:)``).
  package func isVisible(_ account: Credential) -> Bool {
    callerClientID.map(account.isUsable(byApp:)) ?? true
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

  package var message: String { message(.ghlogin) }

  package func message(_ remedies: Remedies) -> String {
    let head = "logged in to \(hosts.count) hosts (\(list)); "
    guard remedies == .ghlogin else { return head + "choose one with GH_HOST" }
    return head
      + "choose one with 'ghlogin \(command) --host HOST' or 'ghlogin config set host HOST' (or set GH_HOST)"
  }

  package var exitStatus: ExitStatus { .usage }
  package var errorKind: ErrorKind { .configuration }
}

/// No login for the host (or account) asked for: exit 4.
package struct NotLoggedIn: ReportableError, Equatable {
  package var host: String
  package var user: String?

  package init(host: String, user: String? = nil) {
    self.host = host
    self.user = user
  }

  package var message: String { message(.ghlogin) }

  package func message(_ remedies: Remedies) -> String {
    let remedy = remedies.logIn(host: host, user: user, again: false)
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

extension Workspace {
  /// Before any login asks the server anything: the credentials file is usable and, with the
  /// keyring store, the keyring is reachable and unlocked (R97; the browser and device flows
  /// and `auth --with-token` all call this).
  package func checkReadyForNewLogin() throws { try store.checkReadyForNewLogin(store: config.store) }

  /// Stores a new login, its tokens where the config's `store` says (an account already in the
  /// keyring stays there): the one way every login stores.
  package func saveNewLogin(_ credential: Credential, on host: GitHubHost) throws -> (
    replaced: Credential?, saved: Credential
  ) {
    try store.saveNewLogin(credential, on: host.name, store: config.store)
  }
}

extension Workspace {
  /// The endpoints of `host`: its defaults, with the config's URLs for that host over them.
  package func endpoints(for host: GitHubHost) -> Endpoints {
    let settings = config.settings(for: host.name)
    return Endpoints(
      host: host, authorize: settings.authorizeURL, token: settings.tokenURL,
      deviceCode: settings.deviceCodeURL, api: settings.apiURL)
  }

  /// Whether the device flow's endpoint of `host` is known rather than guessed: a
  /// `device_code_url` is configured, or ghlogin derives the host's endpoints itself (no
  /// `authorize_url` or `token_url` for it: github.com, `*.ghe.com`, an Enterprise Server).
  /// Only then does a login without a display choose the device flow by itself.
  package func deviceEndpointIsKnown(for host: GitHubHost) -> Bool {
    let settings = config.settings(for: host.name)
    return settings.deviceCodeURL != nil || (settings.authorizeURL == nil && settings.tokenURL == nil)
  }

  /// The OAuth app to log in to `host` with; a missing `client_id` is a configuration error
  /// that says how to get one.
  package func app(for host: GitHubHost) throws(MissingClientID) -> OAuthApp {
    let settings = config.settings(for: host.name)
    guard let clientID = settings.clientID, !clientID.isEmpty else {
      let topLevelApp =
        config.clientIDOverride ?? config.topLevel.clientID ?? config.system?.topLevel.clientID
        ?? (config.builtIn != nil && config.defaultHost == BuiltInApp.host ? "" : nil)
      throw MissingClientID(
        host: host.name, configFile: paths.configFile, defaultHost: config.defaultHost,
        defaultHostHasApp: topLevelApp != nil)
    }
    return OAuthApp(
      clientID: clientID, clientSecret: settings.clientSecret, scopes: settings.scopes ?? Self.defaultScopes)
  }

  /// The HTTP transport for `host`, trusting its `ca_file` on top of the system store, and
  /// stopped by ``stopFD``, else by the process's Ctrl-C descriptor once one is installed
  /// (``Environment/installedInterruptDescriptor``, looked at when the transport is made): every
  /// request path of every command gets it here, so none can leave a Ctrl-C unheard.
  package func transport(for host: GitHubHost) -> any HTTPTransport {
    environment.transport(config.settings(for: host.name).caFile)
      .stopping(on: stopFD ?? environment.installedInterruptDescriptor())
  }

  /// This workspace with every network wait (and a login's waits) also ending once `stopFD`
  /// becomes readable: the SIGINT self-pipe, or a library call's cancellation pipe.
  package func stopping(on stopFD: Int32?) -> Workspace {
    var copy = self
    copy.stopFD = stopFD
    return copy
  }

  /// The REST API of `host`; each request may take `timeout` seconds.
  package func api(for host: GitHubHost, timeout: Double = 30) -> GitHubAPI {
    var api = GitHubAPI(host: host, base: endpoints(for: host).api, transport: transport(for: host), timeout: timeout)
    api.isGitHub = isKnownGitHub(host)
    return api
  }

  /// What `auth` asks for when neither `--scopes` nor the config says: enough for git and `gh`.
  package static let defaultScopes = ["repo", "read:org", "gist"]
}

/// No `client_id` configured for a host: exit 2, with the steps to get one and the
/// `ghlogin config set` lines to run.
package struct MissingClientID: ReportableError, Equatable {
  package var host: String
  package var configFile: String
  /// The config's default host (``Config/defaultHost``): a top-level `client_id` serves it only.
  package var defaultHost: String
  /// Whether a top-level (or environment, or built-in) app serves the default host, though
  /// not `host`: the message then says why (an OAuth app exists on one GitHub host).
  package var defaultHostHasApp: Bool

  package init(
    host: String, configFile: String, defaultHost: String = DefaultHost.name, defaultHostHasApp: Bool = false
  ) {
    self.host = host
    self.configFile = configFile
    self.defaultHost = defaultHost
    self.defaultHostHasApp = defaultHostHasApp
  }

  package var message: String { message(.ghlogin) }

  /// The first line: no app for the host, and why the default host's does not serve it.
  private var missing: String {
    guard defaultHostHasApp, defaultHost != host else { return "no OAuth client_id is configured for \(host)." }
    return "no OAuth client_id is configured for \(host) (the top-level client_id, GHLOGIN_CLIENT_ID and the "
      + "built-in app are \(defaultHost)'s only: an OAuth app exists on one GitHub host)."
  }

  package func message(_ remedies: Remedies) -> String {
    let register = """
      \(missing)
      Register an OAuth app at https://\(host)/settings/applications/new with the callback URL
      http://127.0.0.1/callback. The browser flow also needs the app's client secret; the device flow
      needs "Enable Device Flow" ticked in the app's settings.
      """
    guard remedies == .ghlogin else {
      return register + " Then give its client ID (and secret) in \(configFile), "
        + "or in GHLOGIN_CLIENT_ID and GHLOGIN_CLIENT_SECRET"
    }
    let option = host == defaultHost ? "" : " --host \(host)"
    return """
      \(missing)
      Register an OAuth app at https://\(host)/settings/applications/new with the callback URL
      http://127.0.0.1/callback. The browser flow also needs the app's client secret; the device flow
      needs "Enable Device Flow" ticked in the app's settings. Then run:
        ghlogin config set\(option) client_id YOUR_CLIENT_ID
        ghlogin config set\(option) client_secret -
      (the second reads the secret from stdin). They are written to \(configFile).
      GHLOGIN_CLIENT_ID and GHLOGIN_CLIENT_SECRET work too. More: ghlogin help config
      """
  }

  package var exitStatus: ExitStatus { .usage }
  package var errorKind: ErrorKind { .configuration }
}

extension Workspace {
  /// The refresher for the accounts of `host`: its token endpoint and app (nil when no
  /// `client_id` is configured), the store, and the environment's clock; each request may
  /// take `timeout` seconds.
  package func refresher(for host: GitHubHost, timeout: Double = 30) -> Refresher {
    let endpoint = TokenEndpoint(
      url: endpoints(for: host).token, host: host, transport: transport(for: host), timeout: timeout)
    var refresher = Refresher(
      host: host, store: store, endpoint: endpoint, app: try? app(for: host), configFile: paths.configFile,
      clock: environment.clock)
    refresher.tokenURLIsSet = config.settings(for: host.name).tokenURL != nil
    return refresher
  }

  /// The host and account a command works on (see ``host(_:credentials:)`` and
  /// ``account(on:user:in:)``), with a token that is good for at least five more minutes:
  /// refreshed first when it is due (R40–R44). A refresh that failed while the current token
  /// still works is reported as a warning on stderr and the current token is used (R44).
  package func usableCredential(_ selection: AccountSelection) throws -> (host: GitHubHost, credential: Credential) {
    try usableCredential(selection, in: credentials(for: selection.host))
  }

  /// ``usableCredential(_:)`` on credentials the caller has just loaded (the file is not read again).
  package func usableCredential(
    _ selection: AccountSelection, in credentials: Credentials
  ) throws -> (host: GitHubHost, credential: Credential) {
    let usable = try usableCredentialReport(selection, in: credentials)
    if let warning = usable.warning { environment.stderr.write("ghlogin: warning: \(warning)\n") }
    return (usable.host, usable.credential)
  }

  /// ``usableCredential(_:in:)`` without printing: a refresh that failed while the current token
  /// still works comes back as `warning` (the library's ``AccessToken/refreshWarning``).
  package func usableCredentialReport(
    _ selection: AccountSelection, in credentials: Credentials? = nil
  ) throws -> (host: GitHubHost, credential: Credential, warning: String?) {
    let (host, account) = try select(selection, in: credentials ?? self.credentials(for: selection.host))
    try account.checkSecrets(on: host.name)
    // The common case, a token that is not due, needs no refresher (endpoints, app, transport):
    // `token` and `git-credential get` stay a file read. Refresher.usable decides the same way.
    switch RefreshPolicy.decide(account, now: environment.clock.now()) {
    case .use, .useUntilExpiry: return (host, account, nil)
    case .refresh, .sessionOver: break
    }
    let outcome = try refresher(for: host).usable(account)
    guard let reason = outcome.deferredFailure?.reason else { return (host, outcome.credential, nil) }
    let left = (outcome.credential.expiresAt ?? 0) - environment.clock.now()
    let warning =
      "could not refresh the token for \(host): \(reason); "
      + "using the current token, which expires in \(DurationText.describe(left))"
    return (host, outcome.credential, warning)
  }
}

extension Workspace {
  /// Stores GitHub's expiry of `credential`'s token (from a `GitHub-Authentication-Token-Expiration`
  /// header) when it is new or changed, under the lock, on exactly that account (same id and
  /// token: a refresh or login meanwhile is left alone). Best effort: the command's own answer
  /// does not depend on it, so a store that cannot be written is not an error here.
  package func recordGitHubExpiration(_ expiration: Double?, of credential: Credential, on host: String) {
    guard let expiration, expiration.isFinite, credential.gitHubExpiration != expiration else { return }
    _ = try? store.update { credentials in
      guard var entry = credentials.hosts[host],
        let index = entry.accounts.firstIndex(where: { $0.userID == credential.userID && $0.token == credential.token })
      else { return }
      entry.accounts[index].gitHubExpiration = expiration
      credentials.hosts[host] = entry
    }
  }

  /// What a login on `host` with `app` needs, built once: the endpoints, and the token endpoint
  /// and API client sharing the host's transport.
  package func loginContext(for host: GitHubHost, app: OAuthApp, expectedLogin: String?) -> LoginContext {
    var context = LoginContext(
      host: host, app: app, endpoints: endpoints(for: host), transport: transport(for: host),
      clock: environment.clock, stopFD: stopFD, expectedLogin: expectedLogin)
    context.api.isGitHub = isKnownGitHub(host)
    context.tokenEndpoint.urlIsConfigured = config.settings(for: host.name).tokenURL != nil
    return context
  }
}
