/// One login, resolved once: the host, where the token comes from, the wait, what stops it and
/// where the token goes. Every entry point that logs in — `ghlogin auth`, `ghlogin auth
/// --with-token`, the library's `GitHubLogin.login` and `GitHubLogin.storeToken` — builds one
/// with ``Workspace/plan(_:route:givenToken:)`` and runs it with ``Workspace/login(_:remedies:events:warnings:)``; the
/// rules live there and nowhere else, and the callers read the plan's decisions rather than
/// make them again.
package struct LoginPlan: Sendable {
  /// The host to log in to, validated once.
  package let host: GitHubHost
  /// Where the token comes from, chosen once (``FlowChoice``).
  package let source: LoginSource
  /// Why that flow was chosen when nobody asked for it (said once, before the login starts).
  package let flowNote: FlowNote?
  /// How long the person has: the browser flow's wait (always set), the device flow's longest
  /// wait (nil: the device code's own life); nil for a given token.
  package let timeout: Duration?
  /// Whether to start the user's browser where a display exists.
  package let opensBrowser: Bool
  /// Fail unless GitHub logs in this account.
  package let expectedLogin: String?
  /// Whether the new login is stored (and the store checked before anything is shown).
  package let storesLogin: Bool

  /// The OAuth flow that runs; nil for a given token (no flow: the token exists already).
  package var flow: LoginFlow? {
    switch source {
    case .browser: .browser
    case .device: .device
    case .givenToken: nil
    }
  }

  /// The OAuth app the token is asked of, with its scopes; nil for a given token, which no
  /// configured app issued (none is needed).
  package var app: OAuthApp? {
    switch source {
    case .browser(let app, _, _), .device(let app): app
    case .givenToken: nil
    }
  }

  /// The descriptor pasted redirect addresses are read from (paste-back), if any.
  package var pasteInput: Int32? {
    guard case .browser(_, _, let pasteInput) = source else { return nil }
    return pasteInput
  }
}

/// Where a login's token comes from.
package enum LoginSource: Sendable {
  /// The browser flow with `app` and a loopback redirect to `port` (0: any free one); with a
  /// `pasteInput`, paste-back too: the redirect address, pasted on that descriptor, is accepted
  /// as if the browser had reached the listener (a browser on another machine).
  case browser(app: OAuthApp, port: Int, pasteInput: Int32?)
  /// The device flow with `app`: a one-time code entered on any device.
  case device(app: OAuthApp)
  /// A token the user already has (a personal access token, a GitHub App user token), checked
  /// with `GET /user` before it is stored (R81): `ghlogin auth --with-token`, the library's
  /// `GitHubLogin.storeToken`.
  case givenToken(GivenToken)
}

/// A token the user gives, and what the caller does at the two points only it knows how to.
package struct GivenToken: Sendable {
  /// Reads the token, once the checks every login makes are passed (the store is ready, the host
  /// valid), so that a prompt never comes before a refusal. Its errors end the login.
  package var read: @Sendable () throws -> String
  /// Called before a token that cannot be refreshed replaces a login of the same account that
  /// can (`old`, with its refresh token) on `host`: throw to keep the old one (nothing is
  /// stored), return to replace it. Nil: replace it.
  package var confirmReplacing: (@Sendable (_ old: Credential, _ new: Credential, _ host: GitHubHost) throws -> Void)?

  package init(
    read: @escaping @Sendable () throws -> String,
    confirmReplacing: (@Sendable (_ old: Credential, _ new: Credential, _ host: GitHubHost) throws -> Void)? = nil
  ) {
    self.read = read
    self.confirmReplacing = confirmReplacing
  }
}

/// Which flow a login runs when none is asked for.
package enum FlowChoice {
  /// The device flow with no `DISPLAY`/`WAYLAND_DISPLAY` or in a session over SSH
  /// (`SSH_CONNECTION`/`SSH_TTY`), else the browser flow; and the line that says why when it
  /// is the device flow.
  package static func automatic(variables: EnvironmentVariables) -> (LoginFlow, FlowNote?) {
    func isSet(_ name: String) -> Bool { !(variables[name] ?? "").isEmpty }
    if isSet("SSH_CONNECTION") || isSet("SSH_TTY") { return (.device, .deviceFlow(overSSH: true)) }
    if !isSet("DISPLAY") && !isSet("WAYLAND_DISPLAY") { return (.device, .deviceFlow(overSSH: false)) }
    return (.browser, nil)
  }

  /// ``automatic(variables:)`` for a login to `host`: where the device flow would be chosen
  /// but `deviceEndpoint` is false (the host's endpoints are configured and no
  /// `device_code_url` is: ``Workspace/deviceEndpointIsKnown(for:)``), the browser flow with
  /// paste-back instead, and the one line that says why.
  package static func automatic(variables: EnvironmentVariables, deviceEndpoint: Bool, host: String) -> (
    LoginFlow, FlowNote?
  ) {
    let (flow, note) = automatic(variables: variables)
    guard flow == .device, !deviceEndpoint else { return (flow, note) }
    let overSSH = !(variables["SSH_CONNECTION"] ?? "").isEmpty || !(variables["SSH_TTY"] ?? "").isEmpty
    return (.browser, .browserFlow(overSSH: overSSH, host: host))
  }

  /// Whether this machine has no browser to show (no display, or a session over SSH).
  static func isHeadless(_ variables: EnvironmentVariables) -> Bool {
    automatic(variables: variables).0 == .device
  }
}

/// What a login decides before it needs an OAuth app: the host, the flow and why, and whether a
/// pasted redirect address is accepted. ``Workspace/plan(_:route:givenToken:)`` starts from it; the
/// command line's guided set-up of an app reads it (the flow it registers the app for).
package struct LoginRoute: Sendable, Equatable {
  /// The host to log in to, validated once.
  package let host: GitHubHost
  /// The flow, asked for or chosen (``FlowChoice``).
  package let flow: LoginFlow
  /// Why that flow was chosen when nobody asked for it.
  package let flowNote: FlowNote?
  /// Browser flow: whether the address the browser reached may be pasted on a terminal.
  package let pasteBack: Bool
}

extension Workspace {
  /// The route of a login with `options` (``LoginRoute``), the store checked first when the
  /// login is to be kept (a keyring that cannot be reached or stays locked stops the login now,
  /// before an app is set up, a URL or code shown, or a token read).
  package func route(_ options: LoginOptions) throws -> LoginRoute {
    if options.storesLogin { try checkReadyForNewLogin() }
    let host = try host(options.host)
    let variables = environment.variables
    let flow: LoginFlow
    var note: FlowNote?
    if let chosen = options.flow {
      flow = chosen
    } else {
      (flow, note) = FlowChoice.automatic(
        variables: variables, deviceEndpoint: deviceEndpointIsKnown(for: host), host: host.name)
    }
    // Paste-back when asked for, and wherever no browser can be shown here (`--web`, or a browser
    // flow chosen because no device flow is known): the address the browser reached may be pasted.
    let pasteBack = flow == .browser && (options.acceptsPastedRedirect || FlowChoice.isHeadless(variables))
    return LoginRoute(host: host, flow: flow, flowNote: note, pasteBack: pasteBack)
  }

  /// `options` resolved once against this workspace: the route (``route(_:)``, or `route` when
  /// the caller has it already), the app and its scopes, where the token comes from (`givenToken`,
  /// else the route's flow, paste-back only from a terminal) and the timeout.
  ///
  /// With `givenToken`, only the host, the expected login and storing of `options` count, and
  /// no OAuth app is needed.
  package func plan(_ options: LoginOptions, route: LoginRoute? = nil, givenToken: GivenToken? = nil) throws
    -> LoginPlan
  {
    if let givenToken {
      if options.storesLogin { try checkReadyForNewLogin() }
      return LoginPlan(
        host: try host(options.host), source: .givenToken(givenToken), flowNote: nil, timeout: nil,
        opensBrowser: false, expectedLogin: options.expectedLogin, storesLogin: options.storesLogin)
    }
    let route = try route ?? self.route(options)
    var app = try app(for: route.host)
    if let scopes = options.scopes { app.scopes = scopes }
    let source: LoginSource
    let timeout: Duration?
    switch route.flow {
    case .device:
      source = .device(app: app)
      timeout = options.timeout.map { .seconds($0) }
    case .browser:
      let pasteInput = route.pasteBack && environment.stdin.isTerminal ? environment.stdin.descriptor : nil
      source = .browser(app: app, port: options.port, pasteInput: pasteInput)
      timeout = .seconds(options.timeout ?? LoginOptions.defaultBrowserTimeout)
    }
    return LoginPlan(
      host: route.host, source: source, flowNote: route.flowNote, timeout: timeout,
      opensBrowser: options.opensBrowser, expectedLogin: options.expectedLogin, storesLogin: options.storesLogin)
  }
}

/// Why a login runs a flow it was not asked for, as a value: the login shows ``text(_:)`` in the
/// caller's voice.
package enum FlowNote: Sendable, Hashable {
  /// The device flow, over SSH or with no display.
  case deviceFlow(overSSH: Bool)
  /// The browser flow with paste-back, where the device flow would be chosen but `host` has no
  /// device endpoint.
  case browserFlow(overSSH: Bool, host: String)

  /// The line, in the voice of `remedies`.
  package func text(_ remedies: Remedies) -> String {
    switch self {
    case .deviceFlow(let overSSH):
      return "\(overSSH ? "Logged in over SSH" : "No display found"): using the device flow "
        + "(\(remedies.pass(.browserFlow)) for the browser flow)."
    case .browserFlow(let overSSH, let host):
      return "\(overSSH ? "Logged in over SSH" : "No display found"), but no \(remedies.name(.deviceCodeURL)) is "
        + "configured for \(host): using the browser flow "
        + "(set \(remedies.name(.deviceCodeURL)), or \(remedies.pass(.deviceFlow)), for the device flow)."
    }
  }
}
