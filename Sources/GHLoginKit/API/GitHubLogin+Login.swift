extension GitHubLogin {
  /// Logs the user in through the browser or with a one-time code, telling your UI what to
  /// show through `events`, and stores the token unless ``LoginOptions/storesLogin`` is false.
  ///
  /// The blocking work (the loopback listener, the device-flow polling, HTTPS) runs on a
  /// thread of its own, never on Swift's cooperative pool. Cancelling the task stops the wait
  /// at once and throws ``GitHubLoginError/Kind/cancelled``; nothing is stored then.
  ///
  /// `events` is called on that thread, in order: show the URL or the code, then the waiting
  /// line, then ``LoginEvent/loggedIn(host:login:)``.
  public func login(
    _ options: LoginOptions = LoginOptions(), events: @escaping @Sendable (LoginEvent) -> Void
  ) async throws -> LoginOutcome {
    let result = await DedicatedThread.run { stopFD in
      try self.blockingLogin(options, stop: Interruption(descriptor: stopFD), events: events)
    }
    return try result.get()
  }

  /// ``login(_:events:)`` on the calling thread, for command-line tools that have no async
  /// context: it blocks until the login ends. Never call it from a task (it would hold a
  /// thread of the cooperative pool for minutes).
  ///
  /// `stop` ends the wait early (``Interruption/signals`` for Ctrl-C), with
  /// ``GitHubLoginError/Kind/cancelled``.
  public func blockingLogin(
    _ options: LoginOptions = LoginOptions(), stop: Interruption = .none, events: (LoginEvent) -> Void
  ) throws -> LoginOutcome {
    do {
      return try GitHubLogin(workspace: workspace.stopping(on: stop.descriptor)).performLogin(options, events: events)
    } catch {
      throw GitHubLoginError(error)
    }
  }

  /// The login, stopped by the workspace's stop descriptor.
  private func performLogin(_ options: LoginOptions, events: (LoginEvent) -> Void) throws -> LoginOutcome {
    let environment = workspace.environment
    // Refuse an unusable credentials file before anything is approved in the browser:
    // a token GitHub issued that cannot be stored would stay valid and unused.
    // With the keyring store, a keyring that cannot be reached or stays locked stops the login
    // now, before the URL or the code is shown (no fallback).
    if options.storesLogin { try workspace.checkReadyForNewLogin() }
    let host = try workspace.host(options.host)
    var app = try workspace.app(for: host)
    if let scopes = options.scopes { app.scopes = scopes }
    let flow: LoginFlow
    var saidWhy = false
    var pasteBack = options.acceptsPastedRedirect
    if let chosen = options.flow {
      flow = chosen
    } else {
      let (automatic, note) = Self.chooseFlow(
        variables: environment.variables, deviceEndpoint: workspace.deviceEndpointIsKnown(for: host), host: host.name)
      flow = automatic
      if let note { events(.notice(note)) }
      saidWhy = note != nil
      // No browser here and no device flow known: the address the browser reached may be pasted.
      if automatic == .browser && Self.chooseFlow(variables: environment.variables).0 == .device { pasteBack = true }
    }
    let context = workspace.loginContext(for: host, app: app, expectedLogin: options.expectedLogin)
    let result: LoginResult
    switch flow {
    case .browser:
      let paste = pasteBack && environment.stdin.isTerminal ? environment.stdin.descriptor : nil
      let login = LoopbackLogin(
        context, timeout: Double(options.timeout ?? LoginOptions.defaultBrowserTimeout), port: options.port,
        pasteInput: paste)
      result = try login.run(events: events) { openBrowser($0, options, explain: false, events: events) }
    case .device:
      let login = DeviceFlowLogin(context, maxWait: options.timeout.map(Double.init))
      // "No display found" is said once: not again when the flow was chosen for that reason.
      result = try login.run(events: events) { openBrowser($0, options, explain: !saidWhy, events: events) }
    }
    var credential = Credential(result, viaDeviceFlow: flow == .device)
    var replaced: Credential?
    if options.storesLogin {
      // No lock was taken before the browser step (a `token` meanwhile never waits); the one lock
      // is this update. If it fails, the new token is revoked rather than left valid and unknown (R96).
      do {
        (replaced, credential) = try workspace.saveNewLogin(credential, on: host)
      } catch {
        throw workspace.unstoredLogin(
          token: result.token.accessToken, refreshToken: result.token.refreshToken, on: host, after: error)
      }
    }
    events(.loggedIn(host: host.name, login: result.user.login))
    if let replaced, let warning = workspace.revokeReplaced(replaced, by: result.token.accessToken, on: host) {
      events(.notice(warning))
    }
    return LoginOutcome(
      token: AccessToken(credential, host: host.name, api: workspace.endpoints(for: host).api), flow: flow,
      stored: options.storesLogin, replacedPrevious: replaced != nil)
  }

  /// The flow to run when none is asked for, and the line that says why when it is the device flow:
  /// the device flow with no `DISPLAY`/`WAYLAND_DISPLAY` or in a session over SSH
  /// (`SSH_CONNECTION`/`SSH_TTY`), else the browser flow.
  /// ``chooseFlow(variables:)`` for a login to `host`: where the device flow would be chosen
  /// but `deviceEndpoint` is false (the host's endpoints are configured and no
  /// `device_code_url` is: ``Workspace/deviceEndpointIsKnown(for:)``), the browser flow with
  /// paste-back instead, and the one line that says why.
  static func chooseFlow(variables: [String: String], deviceEndpoint: Bool, host: String) -> (LoginFlow, String?) {
    let (flow, note) = chooseFlow(variables: variables)
    guard flow == .device, !deviceEndpoint else { return (flow, note) }
    let overSSH = isSet("SSH_CONNECTION", variables) || isSet("SSH_TTY", variables)
    let place = overSSH ? "Logged in over SSH" : "No display found"
    return (
      .browser,
      "\(place), but no device_code_url is configured for \(host): using the browser flow "
        + "(set device_code_url, or pass --device, for the device flow)."
    )
  }

  private static func isSet(_ name: String, _ variables: [String: String]) -> Bool { !(variables[name] ?? "").isEmpty }

  static func chooseFlow(variables: [String: String]) -> (LoginFlow, String?) {
    func isSet(_ name: String) -> Bool { !(variables[name] ?? "").isEmpty }
    if isSet("SSH_CONNECTION") || isSet("SSH_TTY") {
      return (.device, "Logged in over SSH: using the device flow (pass --web for the browser flow).")
    }
    if !isSet("DISPLAY") && !isSet("WAYLAND_DISPLAY") {
      return (.device, "No display found: using the device flow (pass --web for the browser flow).")
    }
    return (.browser, nil)
  }

  /// Opens `url` unless the options say not to or no browser can be shown here; says why not
  /// when it fails, and with `explain` also when there is no display. Returns whether one started.
  private func openBrowser(
    _ url: WebURL, _ options: LoginOptions, explain: Bool, events: (LoginEvent) -> Void
  ) -> Bool {
    let environment = workspace.environment
    if !options.opensBrowser { return false }
    guard SystemBrowser.canOpen(environment: environment.variables) else {
      if explain { events(.notice("No display found, so no browser was opened here.")) }
      return false
    }
    do {
      try environment.browser.open(url, environment: environment.variables)
      return true
    } catch {
      events(.notice("Could not open a browser (\(error)); open the URL above yourself."))
      return false
    }
  }
}

/// What stops a blocking call (``GitHubLogin/blockingLogin(_:stop:events:)``) early.
public struct Interruption: Sendable {
  /// A descriptor that becomes readable when the call must stop.
  let descriptor: Int32?

  init(descriptor: Int32?) { self.descriptor = descriptor }

  /// Nothing: the call runs until it ends or times out.
  public static let none = Interruption(descriptor: nil)

  /// Ctrl-C (SIGINT) and SIGTERM: installs handlers for both, once per process, that make
  /// every later wait stop. Use it only in a program that exits after such a signal.
  public static var signals: Interruption {
    let fd = Interrupt.install()
    return Interruption(descriptor: fd >= 0 ? fd : nil)
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
