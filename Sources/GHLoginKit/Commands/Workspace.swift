/// What the commands that work on logins share: the resolved paths, the config, the
/// credential store, and the rules for choosing a host and an account.
struct Workspace {
  let environment: Environment
  let paths: ConfigPaths
  let config: Config
  let store: CredentialStore

  /// Resolves the paths, loads the config and opens the store. Unless `quiet`, says on stderr
  /// when a `credentials.json` of an earlier version sits beside a custom `GHLOGIN_CONFIG` and
  /// none at the new place (``ConfigPaths/movedCredentialsNotice(exists:)``); it is never read.
  init(_ environment: Environment, quiet: Bool = false) throws {
    self.environment = environment
    paths = try ConfigPaths.resolve(environment.variables)
    config = try Config.load(paths: paths, variables: environment.variables)
    store = CredentialStore(paths: paths, faults: StoreFaults.fromEnvironment(environment.variables))
    if !quiet, let notice = paths.movedCredentialsNotice(exists: { (try? SecureFile.linkStatus($0)) != nil }) {
      environment.stderr.write(notice)
    }
  }

  /// The host a command works on: `--host`, else `GH_HOST`, else the config's `host`, else the
  /// host its top-level endpoints share (``EndpointHost``; a config error when they share
  /// none, R87); with none of those, the one host the store holds logins for, else github.com.
  ///
  /// With no choice made and logins for several hosts, it refuses to guess: a script must
  /// never be handed another host's token (R84).
  func host(_ option: String?, credentials: Credentials? = nil) throws -> GitHubHost {
    let fromEnvironment = environment.variables["GH_HOST"].flatMap { $0.isEmpty ? nil : $0 }
    if let chosen = option ?? fromEnvironment ?? config.host {
      return try GitHubHost(validating: chosen)
    }
    if let shared = config.endpointHost { return try GitHubHost(validating: shared.get()) }
    let known = credentials?.hosts.keys.sorted() ?? []
    if known.count > 1 {
      throw UsageError(
        "logged in to several hosts (\(known.joined(separator: ", "))); choose one with --host or GH_HOST")
    }
    return try known.first.map { name throws(GitHubHost.ValidationError) in try GitHubHost(validating: name) }
      ?? .gitHubDotCom
  }

  /// The host and the account `selection` names in `credentials` (see ``host(_:credentials:)``
  /// and ``account(on:user:in:)``).
  func select(_ selection: AccountSelection, in credentials: Credentials) throws -> (GitHubHost, Credential) {
    let host = try host(selection.host, credentials: credentials)
    return (host, try account(on: host, user: selection.user, in: credentials))
  }

  /// The account to use on `host`: `--user`, else `GHLOGIN_USER`, else the active one.
  func account(on host: GitHubHost, user option: String?, in credentials: Credentials) throws(NotLoggedIn) -> Credential
  {
    guard let entry = credentials.hosts[host.name], !entry.accounts.isEmpty else { throw NotLoggedIn(host: host.name) }
    let wanted = option ?? environment.variables["GHLOGIN_USER"].flatMap { $0.isEmpty ? nil : $0 }
    if let wanted {
      guard let account = entry.accounts.first(where: { $0.login.lowercased() == wanted.lowercased() }) else {
        throw NotLoggedIn(host: host.name, user: wanted)
      }
      return account
    }
    return entry.accounts.first { $0.login == entry.activeLogin } ?? entry.accounts[0]
  }
}

/// No login for the host (or account) asked for: exit 4.
struct NotLoggedIn: ReportableError, Equatable {
  var host: String
  var user: String?

  var message: String {
    if let user { return "not logged in to \(host) as \(user); run 'ghlogin auth --host \(host)'" }
    return "not logged in to \(host); run 'ghlogin auth'"
  }

  var exitStatus: ExitStatus { .notLoggedIn }
}

/// `--host` and `--user` as given on the command line; `Workspace` resolves them.
struct AccountSelection: Sendable, Equatable {
  var host: String?
  var user: String?

  init(host: String? = nil, user: String? = nil) {
    self.host = host
    self.user = user
  }

  init(_ arguments: ParsedArguments) {
    self.init(host: arguments.value("host"), user: arguments.value("user"))
  }
}

extension OptionSpec {
  static let host = OptionSpec.option(
    "host", value: "HOST", help: "The GitHub host (default: GH_HOST, then the config's host, then github.com)")
  static let user = OptionSpec.option(
    "user", value: "LOGIN", help: "The account on that host (default: GHLOGIN_USER, then the active account)")
}

extension Workspace {
  /// The endpoints of `host`: its defaults, with the config's URLs for that host over them.
  func endpoints(for host: GitHubHost) -> Endpoints {
    let settings = config.settings(for: host.name)
    return Endpoints(
      host: host, authorize: settings.authorizeURL, token: settings.tokenURL,
      deviceCode: settings.deviceCodeURL, api: settings.apiURL)
  }

  /// The OAuth app to log in to `host` with; a missing `client_id` is a configuration error
  /// that says how to get one.
  func app(for host: GitHubHost) throws(MissingClientID) -> OAuthApp {
    let settings = config.settings(for: host.name)
    guard let clientID = settings.clientID, !clientID.isEmpty else {
      throw MissingClientID(host: host.name, configFile: paths.configFile)
    }
    return OAuthApp(
      clientID: clientID, clientSecret: settings.clientSecret, scopes: settings.scopes ?? Self.defaultScopes)
  }

  /// The HTTP transport for `host`, trusting its `ca_file` on top of the system store.
  func transport(for host: GitHubHost) -> any HTTPTransport {
    environment.transport(config.settings(for: host.name).caFile)
  }

  /// The REST API of `host`.
  func api(for host: GitHubHost) -> GitHubAPI {
    GitHubAPI(host: host, base: endpoints(for: host).api, transport: transport(for: host))
  }

  /// What `auth` asks for when neither `--scopes` nor the config says: enough for git and `gh`.
  static let defaultScopes = ["repo", "read:org", "gist"]
}

/// No `client_id` configured for a host: exit 2, with the steps to get one.
struct MissingClientID: ReportableError, Equatable {
  var host: String
  var configFile: String

  var message: String {
    """
    no OAuth client_id is configured for \(host).
    Register an OAuth app at https://\(host)/settings/applications/new with the callback URL
    http://127.0.0.1/callback, then put its client ID in \(configFile):
      {"client_id": "YOUR_CLIENT_ID"}
    or set GHLOGIN_CLIENT_ID. See the README, "Configuration".
    """
  }

  var exitStatus: ExitStatus { .usage }
}

extension Workspace {
  /// The refresher for the accounts of `host`: its token endpoint and app (nil when no
  /// `client_id` is configured), the store, and the environment's clock.
  func refresher(for host: GitHubHost) -> Refresher {
    let endpoint = TokenEndpoint(
      url: endpoints(for: host).token, host: host, transport: transport(for: host), configPath: paths.configFile)
    return Refresher(
      host: host, store: store, endpoint: endpoint, app: try? app(for: host), configFile: paths.configFile,
      clock: environment.clock)
  }

  /// The host and account a command works on (see ``host(_:credentials:)`` and
  /// ``account(on:user:in:)``), with a token that is good for at least five more minutes:
  /// refreshed first when it is due (R40–R44). A refresh that failed while the current token
  /// still works is reported as a warning on stderr and the current token is used (T48).
  func usableCredential(_ selection: AccountSelection) throws -> (host: GitHubHost, credential: Credential) {
    try usableCredential(selection, in: store.load())
  }

  /// ``usableCredential(_:)`` on credentials the caller has just loaded (the file is not read again).
  func usableCredential(
    _ selection: AccountSelection, in credentials: Credentials
  ) throws -> (host: GitHubHost, credential: Credential) {
    let (host, account) = try select(selection, in: credentials)
    if let missing = account.missingSecret {
      throw KeyringError.itemMissing(host: host.name, login: account.login, kind: missing)
    }
    // The common case, a token that is not due, needs no refresher (endpoints, app, transport):
    // `token` and `git-credential get` stay a file read. Refresher.usable decides the same way.
    switch RefreshPolicy.decide(account, now: environment.clock.now()) {
    case .use, .useUntilExpiry: return (host, account)
    case .refresh, .sessionOver: break
    }
    let outcome = try refresher(for: host).usable(account)
    if let reason = outcome.deferredFailure?.reason {
      let left = (outcome.credential.expiresAt ?? 0) - environment.clock.now()
      environment.stderr.write(
        "ghlogin: warning: could not refresh the token for \(host): \(reason); "
          + "using the current token, which expires in \(DurationText.describe(left))\n")
    }
    return (host, outcome.credential)
  }

  /// A revocation for tokens of `host`, when a client secret is configured for it; nil when
  /// revocation cannot run (R46: the token is then only removed locally).
  func revocation(for host: GitHubHost) -> Revocation? {
    guard let app = try? app(for: host), let secret = app.clientSecret, !secret.isEmpty else { return nil }
    return Revocation(
      host: host, api: endpoints(for: host).api, clientID: app.clientID, clientSecret: secret,
      transport: transport(for: host))
  }

  /// Where to revoke `host`'s tokens by hand: the configured app's page, else the list of apps.
  func manualRevocationURL(for host: GitHubHost) -> String {
    Revocation.manualRevocationURL(host: host, clientID: config.settings(for: host.name).clientID)
  }
}

extension Workspace {
  /// After a new login replaced `old` (same account), revokes its token at GitHub, best effort:
  /// only when a client secret is configured, and a failure is only a warning on stderr.
  func revokeReplaced(_ old: Credential, by newToken: String, on host: GitHubHost) {
    guard old.token != newToken, old.missingSecret == nil, let revocation = revocation(for: host) else { return }
    do {
      _ = try revocation.revoke(token: old.token)
    } catch {
      let reason = (error as? any ReportableError)?.message ?? "\(error)"
      environment.stderr.write(
        "ghlogin: warning: could not revoke the previous token of \(Sanitize.terminal(old.login)) at \(host): "
          + "\(reason). It may still be valid; revoke it by hand at \(manualRevocationURL(for: host))\n")
    }
  }
}
