/// `ghlogin auth`: log in through the browser (RFC 8252 loopback redirect, PKCE S256), or with
/// the device flow (RFC 8628) where no browser can reach this machine.
struct AuthCommand: Command {
  static let configuration = CommandConfiguration(
    name: "auth", abstract: "log in to a GitHub host through the browser, or with a one-time code",
    discussion: Help.clientIDNote + """


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

      --with-token stores a token made elsewhere instead (a classic or fine-grained personal access
      token, or a GitHub App user token), for CI and for organizations that block OAuth apps. It
      reads the token from standard input only, never from the command line: the whole input
      from a pipe or a file, or one line typed with the echo off on a terminal. GitHub is asked
      whose it is (GET /user) before it is stored; a rejected token exits 4 and stores nothing.
      No client ID is needed. For example, in CI:
        printf '%s' "$GITHUB_PAT" | ghlogin auth --with-token

      --add-scopes LIST logs in again asking for the scopes the current login was granted plus
      LIST (like gh auth refresh --scopes), as the same account.
      """,
    options: [
      .host,
      .option(
        "scopes", short: "s", value: "LIST",
        help: "Comma-separated scopes to ask for (default: config, then repo,read:org,gist)"),
      .flag("device", help: "Use the device flow: a one-time code to enter on any device"),
      .flag("web", help: "Use the browser flow (a redirect to 127.0.0.1), even with no display"),
      .flag("no-browser", help: "Print the URL to open yourself; do not launch a browser"),
      .option("port", value: "N", help: "Listen on this port of 127.0.0.1 (default: any free port; browser flow)"),
      .option(
        "timeout", value: "SECONDS",
        help: "Give up after this long without a login (default: 300; device flow: the code's life)"),
      .option("user", value: "LOGIN", help: "Fail unless GitHub logs in this account"),
      .flag("with-token", help: "Read a token from standard input and store it after GitHub accepts it"),
      .option(
        "add-scopes", value: "LIST", help: "Log in again asking for the granted scopes plus these (comma-separated)"),
    ], aliases: ["login"])

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
  /// `--with-token`: store a token read from standard input.
  var withToken: Bool
  /// `--add-scopes`: scopes to ask for on top of those the current login was granted.
  var addScopes: [String]?

  /// The default of `--timeout` for the browser flow.
  static let defaultTimeout = 300

  init(_ arguments: ParsedArguments) throws(UsageError) {
    host = arguments.value("host")
    scopes = try Self.scopeList(arguments, "scopes")
    addScopes = try Self.scopeList(arguments, "add-scopes")
    withToken = arguments.flag("with-token")
    device = arguments.flag("device")
    web = arguments.flag("web")
    noBrowser = arguments.flag("no-browser")
    port = try arguments.integer("port", in: 0...65535)
    timeout = try arguments.integer("timeout", in: 1...3600)
    expectedLogin = arguments.value("user")
    if device && web { throw UsageError("--device and --web choose different flows; give one of them") }
    if device && port != nil { throw UsageError("--port is for the browser flow; the device flow listens on no port") }
    if scopes != nil && addScopes != nil {
      throw UsageError("--scopes gives the whole list and --add-scopes adds to the granted one; give one of them")
    }
    if withToken {
      let others = [
        ("device", device), ("web", web), ("no-browser", noBrowser), ("port", port != nil),
        ("timeout", timeout != nil), ("scopes", scopes != nil), ("add-scopes", addScopes != nil),
      ].filter(\.1).map { "--" + $0.0 }
      if let other = others.first {
        throw UsageError("\(other) is for logging in through GitHub; --with-token stores a token you already have")
      }
    }
  }

  /// The comma-separated scope names of option `name`, or nil when it was not given.
  private static func scopeList(_ arguments: ParsedArguments, _ name: String) throws(UsageError) -> [String]? {
    guard let list = arguments.value(name) else { return nil }
    let names = list.split(separator: ",").map { $0.trimmingASCIIWhitespace() }.filter { !$0.isEmpty }
    guard !names.isEmpty || name == "scopes", names.allSatisfy({ $0.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } }) else {
      throw UsageError("--\(name) takes names like repo,read:org without spaces or control characters")
    }
    return names
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
    if withToken { return try runWithToken(in: environment) }
    let workspace = try Workspace(environment)
    // Refuse an unusable credentials file before anything is approved in the browser:
    // a token GitHub issued that cannot be stored would stay valid and unused.
    let stored = try workspace.store.load()
    let host = try workspace.host(host)
    var app = try workspace.app(for: host)
    if let scopes { app.scopes = scopes }
    var expectedLogin = expectedLogin
    if let addScopes {
      // The union, granted ones first, each once; the same account must log in again.
      let account = try workspace.account(on: host, user: expectedLogin, in: stored)
      app.scopes = account.scopes + addScopes.filter { !account.scopes.contains($0) }
      expectedLogin = account.login
    }
    let endpoints = workspace.endpoints(for: host)
    let style = TerminalStyle(environment.stderr, variables: environment.variables)
    let waiting = WaitingLine(output: environment.stderr, clock: environment.clock, style: style)
    let announce = { (line: String) in waiting.announce(line) }
    let (flow, note) = Self.chooseFlow(device: device, web: web, noBrowser: noBrowser, variables: environment.variables)
    if let note { announce(note) }
    let result: LoginResult
    do {
      result = try login(
        flow, note: note, host: host, app: app, endpoints: endpoints, workspace: workspace,
        waiting: waiting, style: style)
      waiting.stop(erase: true)
    } catch {
      let status = (error as? any ReportableError)?.exitStatus
      waiting.stop(erase: status != .interrupted)
      throw error
    }
    // No lock was taken before the browser step (a `token` meanwhile never waits); the one lock
    // is this update. If it fails, the new token is revoked rather than left valid and unknown (R96).
    let replaced: Credential?
    do {
      replaced = try workspace.store.update { credentials in
        credentials.save(Credential(result, viaDeviceFlow: flow == .device), on: host.name)
      }
    } catch {
      throw workspace.unstoredLogin(token: result.token.accessToken, on: host, after: error)
    }
    environment.stderr.write("\(style.success("Logged in to \(host.name) as \(result.user.login)"))\n")
    if let replaced { workspace.revokeReplaced(replaced, by: result.token.accessToken, on: host) }
    if let hint = GitSetupHint.line(for: host, workspace: workspace) { environment.stderr.write(hint) }
    return .success
  }

  /// Runs the login of `flow`, its lines and countdown through `waiting`.
  private func login(
    _ flow: Flow, note: String?, host: GitHubHost, app: OAuthApp, endpoints: Endpoints, workspace: Workspace,
    waiting: WaitingLine, style: TerminalStyle
  ) throws -> LoginResult {
    let environment = workspace.environment
    let announce = { (line: String) in waiting.announce(line) }
    let onWait: @Sendable (Double) -> Void = { waiting.start(until: $0) }
    switch flow {
    case .browser:
      var login = LoopbackLogin(
        host: host, endpoints: endpoints, app: app, transport: workspace.transport(for: host),
        clock: environment.clock, timeout: Double(timeout ?? Self.defaultTimeout), port: port ?? 0,
        stopFD: environment.interruptDescriptor(), expectedLogin: expectedLogin,
        configPath: workspace.paths.configFile,
        pasteInput: noBrowser && environment.stdin.isTerminal ? environment.stdin.descriptor : nil)
      // No countdown while a redirect address may be pasted: redrawing would hide what is typed.
      if login.pasteInput == nil { login.onWait = onWait }
      return try login.run(announce: announce, openBrowser: { openBrowser($0, in: environment, explain: false) })
    case .device:
      var login = DeviceFlowLogin(
        host: host, endpoints: endpoints, app: app, transport: workspace.transport(for: host),
        clock: environment.clock, stopFD: environment.interruptDescriptor(), expectedLogin: expectedLogin,
        configPath: workspace.paths.configFile, maxWait: timeout.map(Double.init))
      login.onWait = onWait
      login.emphasize = { [style] in style.bold($0) }
      // "No display found" is said once: not again when the flow was chosen for that reason.
      return try login.run(announce: announce, openBrowser: { openBrowser($0, in: environment, explain: note == nil) })
    }
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
