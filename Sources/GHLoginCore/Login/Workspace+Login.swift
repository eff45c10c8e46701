/// The login pipeline's run: a ``LoginPlan`` carried out, and the one way a new login is
/// checked for and stored. The one reason this file changes is what happens between a plan and
/// a stored login.
extension Workspace {
  /// Before any login asks the server anything: the credentials file is usable and, with the
  /// keyring store, the keyring is reachable and unlocked (R97; ``route(_:)`` calls it for every
  /// login that is to be stored).
  func checkReadyForNewLogin() throws { try store.checkReadyForNewLogin(store: config.store) }

  /// Stores a new login under the store's lock, its tokens where the config's `store` says (an
  /// account already in the keyring stays there: ``Credentials/addNewLogin(_:on:store:defaultFor:replacingUnrecorded:)``):
  /// the one way every login stores. It replaces only the same app's login of that user (R111;
  /// for the command line's app, else a login of the user that records no app)
  /// and becomes the default of this caller's app (``callerApp(on:)``) alone. Returns the replaced
  /// account and the credential as saved.
  package func saveNewLogin(_ credential: Credential, on host: GitHubHost) throws -> (
    replaced: Credential?, saved: Credential
  ) {
    try store.update { credentials in
      // The command line's app (not a tool's own) takes over a login that records no app: it is
      // most likely the one an earlier release made with this app (R92).
      credentials.addNewLogin(
        credential, on: host.name, store: config.store, defaultFor: callerApp(on: host),
        replacingUnrecorded: callerClientID == nil)
    }
  }

  /// Runs `plan`, stopped by the workspace's stop descriptor, telling `events` what to show: the
  /// token from the plan's source, then the one end every login shares
  /// (``finish(_:plan:remedies:events:warnings:)``). A warning (a replaced token that could not be
  /// revoked, R103) goes to `warnings`, as text the caller shows in its own voice (the command
  /// line prefixes `ghlogin: warning:`); notices are said in the voice of `remedies`.
  package func login(
    _ plan: LoginPlan, remedies: Remedies = .words, events: (LoginEvent) -> Void,
    warnings: (String) -> Void = { _ in }
  ) throws -> NewLogin {
    if let note = plan.flowNote { events(.notice(note.text(remedies))) }
    let result: LoginResult
    switch plan.source {
    case .browser(let app, let port, let pasteInput):
      var context = loginContext(for: plan.host, app: app, expectedLogin: plan.expectedLogin)
      context.product = remedies.program
      let timeout = plan.timeout ?? .seconds(LoginOptions.defaultBrowserTimeout)
      let login = LoopbackLogin(context, timeout: timeout, port: port, pasteInput: pasteInput)
      do {
        result = try login.run(events: events) { openBrowser($0, plan, explain: false, events: events) }
      } catch {
        throw clientIDRefusal(error, plan: plan) ?? error
      }
    case .device(let app):
      let context = loginContext(for: plan.host, app: app, expectedLogin: plan.expectedLogin)
      let login = DeviceFlowLogin(context, maxWait: plan.timeout)
      do {
        // "No display found" is said once: not again when the flow was chosen for that reason.
        result = try login.run(events: events) {
          openBrowser($0, plan, explain: plan.flowNote == nil, events: events)
        }
      } catch {
        throw clientIDRefusal(error, plan: plan) ?? error
      }
    case .givenToken(let given):
      let token = try given.read()
      guard Credential.isAcceptableToken(token) else { throw GivenTokenError.unusable }
      switch try identify(given, token: token, plan: plan) {
      case .stored(let same):
        events(
          .notice(
            "Already logged in to \(plan.host.name) as \(Sanitize.terminal(same.login)) with this token; "
              + "nothing was changed"))
        return NewLogin(
          token: AccessToken(same, host: plan.host.name, api: endpoints(for: plan.host).api), flow: nil,
          stored: false, replacedPrevious: false, unchanged: true)
      case .checked(let checked):
        result = checked
      }
    }
    return try finish(result, plan: plan, remedies: remedies, events: events, warnings: warnings)
  }

  /// The end every login shares, whatever gave the token: the one ``Credential`` built from it,
  /// stored when the plan says so (a token a flow obtained that cannot be stored is revoked,
  /// R96; a given token is the user's and is left alone), the ``LoginEvent/loggedIn(host:login:)``
  /// event, and the revocation of the login it replaced (R103), whose failure is a warning in the
  /// voice of `remedies`.
  private func finish(
    _ result: LoginResult, plan: LoginPlan, remedies: Remedies, events: (LoginEvent) -> Void,
    warnings: (String) -> Void
  ) throws -> NewLogin {
    let host = plan.host
    var credential = Credential(result, viaDeviceFlow: plan.flow == .device, clientID: plan.app?.clientID)
    var replaced: Credential?
    if plan.storesLogin {
      // No lock was taken before the browser step (a `token` meanwhile never waits); the one lock
      // is this update.
      do {
        (replaced, credential) = try saveNewLogin(credential, on: host)
      } catch {
        // A token a flow obtained is revoked rather than left valid and unknown (R96); a given
        // token is the user's own, and stays theirs.
        guard plan.flow != nil else { throw error }
        throw unstoredLogin(
          token: result.token.accessToken, refreshToken: result.token.refreshToken, on: host, after: error)
      }
    }
    if plan.flow == nil, plan.storesLogin, credential.clientID == nil,
      let beside = try? store.loadFile().hosts[host.name]?.accounts.first(where: {
        $0.userID == credential.userID && $0.clientID != nil
      }), let app = beside.clientID
    {
      // R111: an app's login is that app's; a given token is a login of its own beside it.
      events(
        .notice(
          "\(Sanitize.terminal(beside.login)) also has a login of the OAuth app \(Sanitize.terminal(app)) on "
            + "\(host.name), which is unchanged; this token is kept as a login of its own beside it"))
    }
    events(.loggedIn(host: host.name, login: result.user.login))
    if let replaced, let warning = revokeReplaced(replaced, by: result.token.accessToken, on: host, remedies: remedies)
    {
      warnings(warning)
    }
    return NewLogin(
      token: AccessToken(credential, host: host.name, api: endpoints(for: host).api), flow: plan.flow,
      stored: plan.storesLogin, replacedPrevious: replaced != nil, unchanged: false)
  }

  /// What checking a given token found.
  private enum GivenTokenCheck {
    /// It is the stored token of that account already: nothing changes.
    case stored(Credential)
    /// Whose it is, as every login's end takes it.
    case checked(LoginResult)
  }

  /// A given token checked before anything is stored (R81): the stored account when it has this
  /// token already (`ghlogin token | ghlogin auth --with-token` changes nothing); else whose it
  /// is (`GET /user`, as every flow's ``LoginResult/identify(token:in:)``), with the expected
  /// login checked, Ctrl-C heard, and a refreshable login of the same account replaced only once
  /// ``GivenToken/confirmReplacing`` allows it.
  private func identify(_ given: GivenToken, token: String, plan: LoginPlan) throws -> GivenTokenCheck {
    let host = plan.host
    let stored = try store.load().hosts[host.name]
    if let same = stored?.accounts.first(where: { $0.token == token }),
      plan.expectedLogin.map({ $0.lowercased() == same.login.lowercased() }) ?? true
    {
      return .stored(same)
    }
    let receivedAt = environment.clock.now()
    let user: GitHubUser
    do {
      user = try api(for: host).user(token: token)
    } catch let error as GitHubAPIError where error.kind == .tokenRejected {
      throw GivenTokenError.rejected(host: host.name)
    } catch let error as any ReportableError where error.exitStatus == .interrupted {
      throw GivenTokenError.interrupted
    }
    if let expected = plan.expectedLogin, expected.lowercased() != user.login.lowercased() {
      throw LoginError(.userMismatch(expected: expected, actual: user.login), host: host)
    }
    if let stop = stopFD ?? environment.installedInterruptDescriptor(), Poll.isReadableNow(stop) {
      throw GivenTokenError.interrupted
    }
    // No token response: nothing but GitHub's `X-OAuth-Scopes` says what the token may do.
    let result = LoginResult(token: TokenResponse(accessToken: token), user: user, receivedAt: receivedAt)
    if let confirm = given.confirmReplacing,
      let refreshable = stored?.accounts.first(where: {
        $0.userID == user.id && $0.clientID == nil && $0.refreshToken != nil
      })
    {
      try confirm(refreshable, Credential(result), host)
    }
    return .checked(result)
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
    guard ClientIDRefused.codes.contains(body.code), let flow = plan.flow, let app = plan.app else { return nil }
    return ClientIDRefused(
      host: plan.host, code: body.code, description: body.description, flow: flow,
      clientID: app.clientID, source: callerClientID == nil ? config.clientIDSource(for: plan.host.name) : nil,
      isDefaultHost: plan.host.name == config.defaultHost)
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
  /// The stored form of a finished login, the one place every login's credential is built: the
  /// granted scopes are GitHub's `X-OAuth-Scopes` when it sent them (what the token may do now),
  /// else those the token response granted (R25); a given token had no token response, so
  /// without the header it records none (a fine-grained or GitHub App token has no scopes, and
  /// none may be assumed). GitHub's expiry of the token (its
  /// `GitHub-Authentication-Token-Expiration` header) is kept; `clientID` is the app that
  /// issued it (nil for a given token).
  package init(_ result: LoginResult, viaDeviceFlow: Bool = false, clientID: String? = nil) {
    self.init(
      login: result.user.login, userID: result.user.id, token: result.token.accessToken,
      tokenType: result.token.tokenType, scopes: result.user.grantedScopes ?? result.token.scopes,
      createdAt: result.receivedAt, expiresAt: result.accessTokenExpiresAt,
      refreshToken: result.token.refreshToken, refreshTokenExpiresAt: result.refreshTokenExpiresAt,
      viaDeviceFlow: viaDeviceFlow)
    self.clientID = clientID
    gitHubExpiration = result.user.tokenExpiration
  }
}

/// A finished login (``Workspace/login(_:remedies:events:warnings:)``).
package struct NewLogin: Sendable, Equatable {
  /// The new token and whose it is (the stored one when ``unchanged``).
  package var token: AccessToken
  /// The flow that ran; nil for a given token.
  package var flow: LoginFlow?
  /// Whether it was stored.
  package var stored: Bool
  /// Whether it replaced a stored token of the same account.
  var replacedPrevious: Bool
  /// Whether a given token was the stored one already, so nothing was changed.
  package var unchanged: Bool

  /// What the library's ``LoginOutcome`` says of a flow's login; nil for a given token.
  package var outcome: LoginOutcome? {
    guard let flow else { return nil }
    return LoginOutcome(token: token, flow: flow, stored: stored, replacedPrevious: replacedPrevious)
  }
}

/// Why a given token was not stored, after asking GitHub (R81).
package enum GivenTokenError: ReportableError, Equatable {
  /// The host's API answered 401 for it: exit 4.
  case rejected(host: String)
  /// Ctrl-C (or a cancelled task) while it was checked: exit 130.
  case interrupted
  /// It has characters tokens never have (R30): exit 2, and GitHub is not asked.
  case unusable

  package var message: String {
    switch self {
    case .rejected(let host):
      "\(host) rejected the token (HTTP 401: revoked, expired or mistyped); nothing was stored"
    case .interrupted: "interrupted; nothing was stored"
    case .unusable:
      "that is not a token: it has characters tokens never have (control characters, non-ASCII or '='); "
        + "nothing was stored"
    }
  }

  package var exitStatus: ExitStatus {
    switch self {
    case .rejected: .notLoggedIn
    case .interrupted: .interrupted
    case .unusable: .usage
    }
  }

  package var errorKind: ErrorKind {
    switch self {
    case .rejected: .tokenRejected
    case .interrupted: .cancelled
    case .unusable: .configuration
    }
  }
}
