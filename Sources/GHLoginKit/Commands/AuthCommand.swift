/// `ghlogin auth`: log in through the browser (RFC 8252 loopback redirect, PKCE S256), or with
/// the device flow (RFC 8628) where no browser can reach this machine.
struct AuthCommand: Command {
  static let configuration = CommandConfiguration(
    name: "auth", abstract: "log in to a GitHub host through the browser, or with a one-time code",
    discussion: """
      Opens GitHub's authorization page in your browser and waits on 127.0.0.1 for the redirect
      back. The authorization code is exchanged once over HTTPS, GET /user says who logged in,
      and the token is stored in the 0600 credentials file. Logging in again with the same
      account replaces its token; another account is added and made active.

      The OAuth app needs the callback URL http://127.0.0.1/callback (GitHub accepts any port on a
      loopback callback). See the README for registering one.

      With no display (no DISPLAY or WAYLAND_DISPLAY) or over SSH (SSH_CONNECTION or SSH_TTY),
      auth uses the device flow instead: it prints a one-time code and a page to enter it on, from
      any device, and polls GitHub until you approve. The app must have "Enable Device Flow"
      ticked. --device always uses the device flow; --web and --no-browser always use the browser
      flow. With --no-browser and a terminal, you may also paste the address the browser was
      redirected to, when the browser runs on another machine.
      """,
    options: [
      .host,
      .option(
        "scopes", value: "LIST", help: "Comma-separated scopes to ask for (default: config, then repo,read:org,gist)"),
      .flag("device", help: "Use the device flow: a one-time code to enter on any device"),
      .flag("web", help: "Use the browser flow (a redirect to 127.0.0.1), even with no display"),
      .flag("no-browser", help: "Print the URL to open yourself; do not launch a browser"),
      .option("port", value: "N", help: "Listen on this port of 127.0.0.1 (default: any free port; browser flow)"),
      .option(
        "timeout", value: "SECONDS",
        help: "Give up after this long without a login (default: 300; device flow: the code's life)"),
      .option("user", value: "LOGIN", help: "Fail unless GitHub logs in this account"),
    ])

  /// The two ways to log in.
  enum Flow: Equatable {
    /// The authorization-code flow with a loopback redirect.
    case browser
    /// The device authorization grant.
    case device
  }

  var host: String?
  var scopes: [String]?
  var device: Bool
  var web: Bool
  var noBrowser: Bool
  var port: Int?
  var timeout: Int?
  var expectedLogin: String?

  /// The default of `--timeout` for the browser flow.
  static let defaultTimeout = 300

  init(_ arguments: ParsedArguments) throws(UsageError) {
    host = arguments.value("host")
    if let list = arguments.value("scopes") {
      let names = list.split(separator: ",").map { $0.trimmingASCIIWhitespace() }.filter { !$0.isEmpty }
      guard names.allSatisfy({ $0.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } }) else {
        throw UsageError("--scopes takes names like repo,read:org without spaces or control characters")
      }
      scopes = names
    }
    device = arguments.flag("device")
    web = arguments.flag("web")
    noBrowser = arguments.flag("no-browser")
    port = try arguments.integer("port", in: 0...65535)
    timeout = try arguments.integer("timeout", in: 1...3600)
    expectedLogin = arguments.value("user")
    if device && web { throw UsageError("--device and --web choose different flows; give one of them") }
    if device && port != nil { throw UsageError("--port is for the browser flow; the device flow listens on no port") }
  }

  /// Which flow to run, and the line that says so when it was not asked for.
  ///
  /// `--device` forces the device flow; `--web` and `--no-browser` the browser flow. Otherwise
  /// the device flow is used when no browser can be shown here: no `DISPLAY`/`WAYLAND_DISPLAY`,
  /// or a session over SSH (`SSH_CONNECTION`/`SSH_TTY`). Every host has a device-code URL (the
  /// default one or the config's), so that is not a condition.
  static func chooseFlow(device: Bool, web: Bool, noBrowser: Bool, variables: [String: String]) -> (Flow, String?) {
    if device { return (.device, nil) }
    if web || noBrowser { return (.browser, nil) }
    func isSet(_ name: String) -> Bool { !(variables[name] ?? "").isEmpty }
    if isSet("SSH_CONNECTION") || isSet("SSH_TTY") {
      return (.device, "Logged in over SSH: using the device flow (pass --web for the browser flow).")
    }
    if !isSet("DISPLAY") && !isSet("WAYLAND_DISPLAY") {
      return (.device, "No display found: using the device flow (pass --web for the browser flow).")
    }
    return (.browser, nil)
  }

  func run(in environment: Environment) throws -> ExitStatus {
    let workspace = try Workspace(environment)
    // Refuse an unusable credentials file before anything is approved in the browser:
    // a token GitHub issued that cannot be stored would stay valid and unused.
    _ = try workspace.store.load()
    if workspace.config.store == .keyring { try workspace.store.checkKeyring() }
    let host = try workspace.host(host)
    var app = try workspace.app(for: host)
    if let scopes { app.scopes = scopes }
    let endpoints = workspace.endpoints(for: host)
    let announce = { (line: String) in environment.stderr.write(line + "\n") }
    let (flow, note) = Self.chooseFlow(device: device, web: web, noBrowser: noBrowser, variables: environment.variables)
    if let note { announce(note) }
    let result: LoginResult
    switch flow {
    case .browser:
      let login = LoopbackLogin(
        host: host, endpoints: endpoints, app: app, transport: workspace.transport(for: host),
        clock: environment.clock, timeout: Double(timeout ?? Self.defaultTimeout), port: port ?? 0,
        stopFD: environment.interruptDescriptor(), expectedLogin: expectedLogin,
        configPath: workspace.paths.configFile,
        pasteInput: noBrowser && environment.stdin.isTerminal ? environment.stdin.descriptor : nil)
      result = try login.run(announce: announce, openBrowser: { openBrowser($0, in: environment, explain: false) })
    case .device:
      let login = DeviceFlowLogin(
        host: host, endpoints: endpoints, app: app, transport: workspace.transport(for: host),
        clock: environment.clock, stopFD: environment.interruptDescriptor(), expectedLogin: expectedLogin,
        configPath: workspace.paths.configFile, maxWait: timeout.map(Double.init))
      result = try login.run(announce: announce, openBrowser: { openBrowser($0, in: environment, explain: true) })
    }
    // No lock was taken before the browser step (a `token` meanwhile never waits); the one lock
    // is this update. If it fails, the new token is revoked rather than left valid and unknown (R96).
    let replaced: Credential?
    do {
      var credential = Credential(result, viaDeviceFlow: flow == .device)
      credential.storage = workspace.config.store
      replaced = try workspace.store.update { credentials in credentials.save(credential, on: host.name) }
    } catch {
      throw workspace.unstoredLogin(token: result.token.accessToken, on: host, after: error)
    }
    environment.stderr.write("Logged in to \(host.name) as \(result.user.login)\n")
    if let replaced { workspace.revokeReplaced(replaced, by: result.token.accessToken, on: host) }
    return .success
  }

  /// Opens `url` unless `--no-browser` or no browser can be shown here; says why not when it
  /// fails, and with `explain` also when there is no display. Returns whether one was started.
  private func openBrowser(_ url: WebURL, in environment: Environment, explain: Bool) -> Bool {
    if noBrowser { return false }
    guard SystemBrowser.canOpen(environment: environment.variables) else {
      if explain { environment.stderr.write("No display found, so no browser was opened here.\n") }
      return false
    }
    do {
      try environment.browser.open(url, environment: environment.variables)
      return true
    } catch {
      environment.stderr.write("Could not open a browser (\(error)); open the URL above yourself.\n")
      return false
    }
  }
}

extension Credential {
  /// The stored form of a finished login: granted scopes from `X-OAuth-Scopes` when GitHub
  /// sent it, else from the token response (R25).
  init(_ result: LoginResult, viaDeviceFlow: Bool = false) {
    self.init(
      login: result.user.login, userID: result.user.id, token: result.token.accessToken,
      tokenType: result.token.tokenType, scopes: result.user.grantedScopes ?? result.token.scopes,
      createdAt: result.receivedAt, expiresAt: result.accessTokenExpiresAt,
      refreshToken: result.token.refreshToken, refreshTokenExpiresAt: result.refreshTokenExpiresAt,
      viaDeviceFlow: viaDeviceFlow)
  }
}
