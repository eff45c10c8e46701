/// One login, resolved once: the host, the app, the flow, the wait, what stops it and where the
/// token goes. Every entry point that logs in — `ghlogin auth`, the library's
/// `GitHubLogin.login` — builds one from its options with ``Workspace/plan(_:)`` and runs it
/// with ``Workspace/login(_:events:)``; the rules live there and nowhere else.
package struct LoginPlan: Sendable {
  /// The host to log in to, validated once.
  package let host: GitHubHost
  /// The OAuth app, with the scopes to ask for.
  package let app: OAuthApp
  /// The flow, chosen once (``FlowChoice``).
  package let flow: LoginFlow
  /// Why that flow was chosen when nobody asked for it (said once, before the login starts).
  package let flowNote: String?
  /// How long the person has: the browser flow's wait, the device flow's longest wait (nil: the
  /// device code's own life).
  package let timeout: Duration?
  /// The loopback port of the browser flow (0 picks a free one).
  package let port: Int
  /// The descriptor a pasted redirect address is read from (browser flow), if any.
  package let pasteInput: Int32?
  /// Whether to start the user's browser where a display exists.
  package let opensBrowser: Bool
  /// Fail unless GitHub logs in this account.
  package let expectedLogin: String?
  /// Whether the new login is stored (and the store checked before anything is shown).
  package let storesLogin: Bool
}

/// Which flow a login runs when none is asked for.
package enum FlowChoice {
  /// The device flow with no `DISPLAY`/`WAYLAND_DISPLAY` or in a session over SSH
  /// (`SSH_CONNECTION`/`SSH_TTY`), else the browser flow; and the line that says why when it
  /// is the device flow.
  package static func automatic(variables: EnvironmentVariables) -> (LoginFlow, String?) {
    func isSet(_ name: String) -> Bool { !(variables[name] ?? "").isEmpty }
    if isSet("SSH_CONNECTION") || isSet("SSH_TTY") {
      return (.device, "Logged in over SSH: using the device flow (pass --web for the browser flow).")
    }
    if !isSet("DISPLAY") && !isSet("WAYLAND_DISPLAY") {
      return (.device, "No display found: using the device flow (pass --web for the browser flow).")
    }
    return (.browser, nil)
  }

  /// ``automatic(variables:)`` for a login to `host`: where the device flow would be chosen
  /// but `deviceEndpoint` is false (the host's endpoints are configured and no
  /// `device_code_url` is: ``Workspace/deviceEndpointIsKnown(for:)``), the browser flow with
  /// paste-back instead, and the one line that says why.
  package static func automatic(variables: EnvironmentVariables, deviceEndpoint: Bool, host: String) -> (
    LoginFlow, String?
  ) {
    let (flow, note) = automatic(variables: variables)
    guard flow == .device, !deviceEndpoint else { return (flow, note) }
    let overSSH = !(variables["SSH_CONNECTION"] ?? "").isEmpty || !(variables["SSH_TTY"] ?? "").isEmpty
    let place = overSSH ? "Logged in over SSH" : "No display found"
    return (
      .browser,
      "\(place), but no device_code_url is configured for \(host): using the browser flow "
        + "(set device_code_url, or pass --device, for the device flow)."
    )
  }

  /// Whether this machine has no browser to show (no display, or a session over SSH).
  package static func isHeadless(_ variables: EnvironmentVariables) -> Bool {
    automatic(variables: variables).0 == .device
  }
}

extension Workspace {
  /// `options` resolved once against this workspace: the host validated, the app and its
  /// scopes, the flow chosen, paste-back decided, the store checked when the login is to be
  /// kept (a token GitHub issued that cannot be stored would stay valid and unused; a keyring
  /// that cannot be reached or stays locked stops the login now, before any URL or code is
  /// shown).
  package func plan(_ options: LoginOptions) throws -> LoginPlan {
    if options.storesLogin { try checkReadyForNewLogin() }
    let host = try host(options.host)
    var app = try app(for: host)
    if let scopes = options.scopes { app.scopes = scopes }
    let variables = environment.variables
    let flow: LoginFlow
    var note: String?
    var pasteBack = options.acceptsPastedRedirect
    if let chosen = options.flow {
      flow = chosen
      // `--web` where no browser can be shown here: the address it reached may be pasted, as
      // when the browser flow is chosen automatically.
      if flow == .browser && FlowChoice.isHeadless(variables) { pasteBack = true }
    } else {
      (flow, note) = FlowChoice.automatic(
        variables: variables, deviceEndpoint: deviceEndpointIsKnown(for: host), host: host.name)
      // No browser here and no device flow known: the address the browser reached may be pasted.
      if flow == .browser && FlowChoice.isHeadless(variables) { pasteBack = true }
    }
    let timeout: Duration? =
      switch flow {
      case .browser: .seconds(options.timeout ?? LoginOptions.defaultBrowserTimeout)
      case .device: options.timeout.map { .seconds($0) }
      }
    return LoginPlan(
      host: host, app: app, flow: flow, flowNote: note, timeout: timeout, port: options.port,
      pasteInput: flow == .browser && pasteBack && environment.stdin.isTerminal ? environment.stdin.descriptor : nil,
      opensBrowser: options.opensBrowser, expectedLogin: options.expectedLogin, storesLogin: options.storesLogin)
  }

  /// Runs `plan`, stopped by the workspace's stop descriptor, telling `events` what to show;
  /// stores the login when the plan says so (a login that cannot be stored is revoked, R96).
  package func login(_ plan: LoginPlan, events: (LoginEvent) -> Void) throws -> LoginOutcome {
    if let note = plan.flowNote { events(.notice(note)) }
    let host = plan.host
    let context = loginContext(for: host, app: plan.app, expectedLogin: plan.expectedLogin)
    let result: LoginResult
    do {
      switch plan.flow {
      case .browser:
        let seconds = plan.timeout.map(Self.seconds) ?? Double(LoginOptions.defaultBrowserTimeout)
        let login = LoopbackLogin(context, timeout: seconds, port: plan.port, pasteInput: plan.pasteInput)
        result = try login.run(events: events) { openBrowser($0, plan, explain: false, events: events) }
      case .device:
        let login = DeviceFlowLogin(context, maxWait: plan.timeout.map(Self.seconds))
        // "No display found" is said once: not again when the flow was chosen for that reason.
        result = try login.run(events: events) {
          openBrowser($0, plan, explain: plan.flowNote == nil, events: events)
        }
      }
    } catch {
      throw clientIDRefusal(error, plan: plan) ?? error
    }
    var credential = Credential(result, viaDeviceFlow: plan.flow == .device, clientID: plan.app.clientID)
    var replaced: Credential?
    if plan.storesLogin {
      // No lock was taken before the browser step (a `token` meanwhile never waits); the one lock
      // is this update. If it fails, the new token is revoked rather than left valid and unknown (R96).
      do {
        (replaced, credential) = try saveNewLogin(credential, on: host)
      } catch {
        throw unstoredLogin(
          token: result.token.accessToken, refreshToken: result.token.refreshToken, on: host, after: error)
      }
    }
    events(.loggedIn(host: host.name, login: result.user.login))
    if let replaced, let warning = revokeReplaced(replaced, by: result.token.accessToken, on: host) {
      events(.notice(warning))
    }
    return LoginOutcome(
      token: AccessToken(credential, host: host.name, api: endpoints(for: host).api), flow: plan.flow,
      stored: plan.storesLogin, replacedPrevious: replaced != nil)
  }

  /// `error` as ``ClientIDRefused`` when the server refused the plan's app (one of
  /// ``ClientIDRefused/codes``, from the device-code request, a poll or the code exchange).
  private func clientIDRefusal(_ error: any Error, plan: LoginPlan) -> ClientIDRefused? {
    let body: OAuthErrorBody
    switch error {
    case let error as TokenError:
      guard case .oauth(let answer) = error.kind else { return nil }
      body = answer
    case let error as DeviceFlowError:
      switch error.kind {
      case .disabled: body = OAuthErrorBody(code: "device_flow_disabled")
      case .refused(let answer): body = answer
      default: return nil
      }
    default:
      return nil
    }
    guard ClientIDRefused.codes.contains(body.code) else { return nil }
    return ClientIDRefused(
      host: plan.host, code: body.code, description: body.description, flow: plan.flow,
      clientID: plan.app.clientID, source: callerClientID == nil ? config.clientIDSource(for: plan.host.name) : nil,
      isDefaultHost: plan.host.name == config.defaultHost)
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  /// Opens `url` unless the plan says not to or no browser can be shown here; says why not
  /// when it fails, and with `explain` also when there is no display. Returns whether one started.
  private func openBrowser(_ url: WebURL, _ plan: LoginPlan, explain: Bool, events: (LoginEvent) -> Void) -> Bool {
    if !plan.opensBrowser { return false }
    guard environment.browser.canOpen(environment: environment.variables) else {
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

extension Credential {
  /// The stored form of a finished login: granted scopes from `X-OAuth-Scopes` when GitHub
  /// sent it, else from the token response (R25); `clientID` is the app that issued it.
  package init(_ result: LoginResult, viaDeviceFlow: Bool = false, clientID: String? = nil) {
    self.init(
      login: result.user.login, userID: result.user.id, token: result.token.accessToken,
      tokenType: result.token.tokenType, scopes: result.user.grantedScopes ?? result.token.scopes,
      createdAt: result.receivedAt, expiresAt: result.accessTokenExpiresAt,
      refreshToken: result.token.refreshToken, refreshTokenExpiresAt: result.refreshTokenExpiresAt,
      viaDeviceFlow: viaDeviceFlow)
    self.clientID = clientID
  }
}
