/// One device-flow login (RFC 8628), for machines where no browser can reach a loopback port.
///
/// Steps: `POST device_code_url` (`client_id`, `scope`; no secret) → the user code and the
/// verification URL announced (``LoginEvent/enterUserCode(_:verificationURL:host:)``) → the
/// browser opened on that URL only when its host is the configured host (R39) → the token
/// endpoint polled (``DeviceFlowPoller``) → `GET /user` and the `--user` check, shared with the
/// browser flow (``LoginResult/identify(token:in:)``). Nothing is stored here.
struct DeviceFlowLogin: Sendable {
  package var context: LoginContext
  /// Seconds to give up after when shorter than the code's life (`--timeout`).
  var maxWait: Double?

  package init(_ context: LoginContext, maxWait: Double? = nil) {
    self.context = context
    self.maxWait = maxWait
  }

  /// ``init(_:maxWait:)`` with the longest wait as a plan holds it (nil: the code's own life).
  package init(_ context: LoginContext, maxWait: Duration?) {
    self.init(context, maxWait: maxWait.map(DurationText.seconds))
  }

  /// Runs the login: `events` gets what the person must see, `openBrowser` gets the
  /// verification URL (only when its host is the configured one) and says whether a browser
  /// was started.
  ///
  /// Throws ``DeviceFlowError``, ``LoginError`` (stop, wrong account), ``TokenError``,
  /// ``GitHubAPIError``, ``InsecureEndpointError`` or the transport's error.
  package func run(events: (LoginEvent) -> Void, openBrowser: (WebURL) -> Bool) throws -> LoginResult {
    let host = context.host
    let authorize = context.endpoints.authorize
    var codeEndpoint = context.tokenEndpoint
    codeEndpoint.url = context.endpoints.deviceCode
    let authorization = try DeviceFlow.requestCode(app: context.app, endpoint: codeEndpoint)
    let issuedAt = context.clock.monotonic()

    let page = authorization.verificationURI
    events(.enterUserCode(authorization.userCode, verificationURL: page.description, host: host.description))
    var opened = false
    if Self.mayOpen(page, configured: authorize) {
      opened = openBrowser(page)
    } else {
      events(
        .notice(
          "Warning: not opening a browser: that page is on \(page.host), not on \(authorize.host). "
            + "Make sure you trust it before you enter the code."))
    }
    var lifetime = Double(authorization.expiresIn)
    if let maxWait { lifetime = min(lifetime, maxWait) }
    events(.waiting(flow: .device, seconds: DurationText.wholeSeconds(lifetime, rounding: .up), browserOpened: opened))

    let poller = DeviceFlowPoller(
      authorization: authorization, app: context.app, endpoint: context.tokenEndpoint, clock: context.clock,
      stopFD: context.stopFD, maxWait: maxWait)
    let token = try poller.run(issuedAt: issuedAt) { events(.notice($0)) }
    return try LoginResult.identify(token: token, in: context)
  }

  /// ``run(events:openBrowser:)`` with each event as its lines of text.
  package func run(announce: (String) -> Void, openBrowser: (WebURL) -> Bool) throws -> LoginResult {
    try run(events: { $0.lines.forEach(announce) }, openBrowser: openBrowser)
  }

  /// Whether the verification page may be opened automatically: its host is the configured
  /// GitHub host (that of the authorize endpoint), compared without the port (R39, RFC 8628 §5.4).
  static func mayOpen(_ page: WebURL, configured: WebURL) -> Bool {
    page.host == configured.host && (page.scheme == .https || page.isLoopback)
  }

  /// "15 minutes", "1 minute 30 seconds": the spoken length of a wait, with plurals (never traps).
  static func duration(_ seconds: Double) -> String { DurationText.spoken(seconds) }
}
