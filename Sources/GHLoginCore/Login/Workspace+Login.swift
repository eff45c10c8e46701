/// The login pipeline's run: a ``LoginPlan`` carried out, and the one way a new login is
/// checked for and stored. The one reason this file changes is what happens between a plan and
/// a stored login.
extension Workspace {
  /// Before any login asks the server anything: the credentials file is usable and, with the
  /// keyring store, the keyring is reachable and unlocked (R97; ``plan(_:)`` calls it for every
  /// login that is to be stored).
  package func checkReadyForNewLogin() throws { try store.checkReadyForNewLogin(store: config.store) }

  /// Stores a new login under the store's lock, its tokens where the config's `store` says (an
  /// account already in the keyring stays there: ``Credentials/addNewLogin(_:on:store:)``): the
  /// one way every login stores. Returns the replaced account and the credential as saved.
  package func saveNewLogin(_ credential: Credential, on host: GitHubHost) throws -> (
    replaced: Credential?, saved: Credential
  ) {
    try store.update { credentials in credentials.addNewLogin(credential, on: host.name, store: config.store) }
  }

  /// Runs `plan`, stopped by the workspace's stop descriptor, telling `events` what to show;
  /// stores the login when the plan says so (a login that cannot be stored is revoked, R96).
  /// A warning (a replaced token that could not be revoked, R103) goes to `warnings`, as text the
  /// caller shows in its own voice (the command line prefixes `ghlogin: warning:`); notices are
  /// said in the voice of `remedies`.
  package func login(
    _ plan: LoginPlan, remedies: Remedies = .words, events: (LoginEvent) -> Void,
    warnings: (String) -> Void = { _ in }
  ) throws -> LoginOutcome {
    if let note = plan.flowNote { events(.notice(note.text(remedies))) }
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
      warnings(warning)
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
