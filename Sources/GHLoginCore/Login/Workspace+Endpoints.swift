/// How a host is reached: its endpoints, the OAuth app, the HTTP transport (and what stops
/// it), the API client, the refresher and a login's context. The one reason this file changes
/// is how ghlogin talks to a host.
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

  /// Whether `host` is known to be GitHub: github.com, `*.ghe.com`, or a host whose endpoints
  /// ghlogin derives itself (a GitHub Enterprise Server: no endpoint URL configured for it).
  func isKnownGitHub(_ host: GitHubHost) -> Bool {
    if host.isGitHubDotCom || host.isGHEDotCom { return true }
    let settings = config.settings(for: host.name)
    return settings.authorizeURL == nil && settings.tokenURL == nil && settings.deviceCodeURL == nil
      && settings.apiURL == nil && settings.revocationURL == nil
  }

  /// What `auth` asks for when neither `--scopes` nor the config says: enough for git and `gh`.
  package static let defaultScopes = ["repo", "read:org", "gist"]

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
    let workspace = self
    refresher.revokeDropped = { dropped, issuer in workspace.revokeDropped(dropped, issuedTo: issuer, on: host) }
    return refresher
  }
  /// What a login on `host` with `app` needs, built once: the endpoints, and the token endpoint
  /// and API client sharing the host's transport.
  func loginContext(for host: GitHubHost, app: OAuthApp, expectedLogin: String?) -> LoginContext {
    var context = LoginContext(
      host: host, app: app, endpoints: endpoints(for: host), transport: transport(for: host),
      clock: environment.clock, stopFD: stopFD, expectedLogin: expectedLogin)
    context.api.isGitHub = isKnownGitHub(host)
    context.tokenEndpoint.urlIsConfigured = config.settings(for: host.name).tokenURL != nil
    return context
  }
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
  var defaultHostHasApp: Bool

  package init(
    host: String, configFile: String, defaultHost: String = DefaultHost.name, defaultHostHasApp: Bool = false
  ) {
    self.host = host
    self.configFile = configFile
    self.defaultHost = defaultHost
    self.defaultHostHasApp = defaultHostHasApp
  }

  package var message: String { message(.words) }

  /// The first line: no app for the host, and why the default host's does not serve it.
  private func missing(_ remedies: Remedies) -> String {
    let clientID = remedies.name(.clientID)
    guard defaultHostHasApp, defaultHost != host else { return "no OAuth \(clientID) is configured for \(host)." }
    let variable = remedies.variable(.clientID).map { ", \($0)" } ?? ""
    return "no OAuth \(clientID) is configured for \(host) (the top-level \(clientID)\(variable) and the "
      + "built-in app are \(defaultHost)'s only: an OAuth app exists on one GitHub host)."
  }

  package func message(_ remedies: Remedies) -> String {
    let register = """
      \(missing(remedies))
      Register an OAuth app at https://\(host)/settings/applications/new with the callback URL
      http://127.0.0.1/callback. The browser flow also needs the app's client secret; the device flow
      needs "Enable Device Flow" ticked in the app's settings.
      """
    let hostOption = host == defaultHost ? nil : host
    let variables = remedies.variable(.clientID).flatMap { id in
      remedies.variable(.clientSecret).map { "\(id) and \($0)" }
    }
    guard let setID = remedies.command(.setConfig(.clientID, host: hostOption, value: "YOUR_CLIENT_ID")),
      let setSecret = remedies.command(.setConfig(.clientSecret, host: hostOption, value: "-")),
      let help = remedies.command(.readAboutSettings), let variables
    else {
      return register + " Then give its client ID (and secret) in \(configFile)"
        + (variables.map { ", or in \($0)" } ?? "")
    }
    return """
      \(missing(remedies))
      Register an OAuth app at https://\(host)/settings/applications/new with the callback URL
      http://127.0.0.1/callback. The browser flow also needs the app's client secret; the device flow
      needs "Enable Device Flow" ticked in the app's settings. Then run:
        \(setID)
        \(setSecret)
      (the second reads the secret from stdin). They are written to \(configFile).
      \(variables) work too. More: \(help)
      """
  }

  package var exitStatus: ExitStatus { .usage }
  package var errorKind: ErrorKind { .configuration }
}
