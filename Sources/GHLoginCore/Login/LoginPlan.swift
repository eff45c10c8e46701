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
  package let flowNote: FlowNote?
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
    var note: FlowNote?
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
