/// One device-flow login (RFC 8628), for machines where no browser can reach a loopback port.
///
/// Steps: `POST device_code_url` (`client_id`, `scope`; no secret) → the user code and the
/// verification URL announced, each on its own line → the browser opened on that URL only when
/// its host is the configured host (R39) → the token endpoint polled (``DeviceFlowPoller``) →
/// `GET /user` and the `--user` check, shared with the browser flow
/// (``LoginResult/identify(token:receivedAt:api:expectedLogin:host:)``). Nothing is stored here.
struct DeviceFlowLogin: Sendable {
  var host: GitHubHost
  var endpoints: Endpoints
  var app: OAuthApp
  var transport: any HTTPTransport
  var clock: any TimeSource
  /// Becomes readable on Ctrl-C (the ``Interrupt`` self-pipe).
  var stopFD: Int32?
  /// The login asked for with `--user`; another account fails the login (R24).
  var expectedLogin: String?
  /// The config file named in client-credential errors.
  var configPath: String?
  /// Seconds each HTTP request to GitHub may take.
  var requestTimeout: Double
  /// Seconds to give up after when shorter than the code's life (`--timeout`).
  var maxWait: Double?

  init(
    host: GitHubHost, endpoints: Endpoints, app: OAuthApp, transport: any HTTPTransport, clock: any TimeSource,
    stopFD: Int32? = nil, expectedLogin: String? = nil, configPath: String? = nil, requestTimeout: Double = 30,
    maxWait: Double? = nil
  ) {
    self.host = host
    self.endpoints = endpoints
    self.app = app
    self.transport = transport
    self.clock = clock
    self.stopFD = stopFD
    self.expectedLogin = expectedLogin
    self.configPath = configPath
    self.requestTimeout = requestTimeout
    self.maxWait = maxWait
  }

  /// Runs the login: `announce` gets each line meant for stderr, `openBrowser` gets the
  /// verification URL (only when its host is the configured one) and says whether a browser
  /// was started.
  ///
  /// Throws ``DeviceFlowError``, ``LoginError`` (Ctrl-C, wrong account), ``TokenError``,
  /// ``GitHubAPIError``, ``InsecureEndpointError`` or the transport's error.
  func run(announce: (String) -> Void, openBrowser: (WebURL) -> Bool) throws -> LoginResult {
    let tokenEndpoint = TokenEndpoint(
      url: endpoints.token, host: host, transport: transport, timeout: requestTimeout, configPath: configPath)
    var codeEndpoint = tokenEndpoint
    codeEndpoint.url = endpoints.deviceCode
    let authorization = try DeviceFlow.requestCode(app: app, endpoint: codeEndpoint)
    let issuedAt = clock.monotonic()

    let page = authorization.verificationURI
    announce("First copy your one-time code: \(authorization.userCode)")
    announce(page.description)
    announce("Open that page on any device, enter the code, and approve the login to \(host).")
    var opened = false
    if Self.mayOpen(page, configured: endpoints.authorize) {
      opened = openBrowser(page)
    } else {
      announce(
        "Warning: not opening a browser: that page is on \(page.host), not on \(endpoints.authorize.host). "
          + "Make sure you trust it before you enter the code.")
    }
    var lifetime = Double(authorization.expiresIn)
    if let maxWait { lifetime = min(lifetime, maxWait) }
    announce(
      "\(opened ? "Opened your browser. " : "")Waiting up to \(Self.duration(lifetime)) for the approval "
        + "(Ctrl-C to cancel)...")

    let poller = DeviceFlowPoller(
      authorization: authorization, app: app, endpoint: tokenEndpoint, clock: clock, stopFD: stopFD,
      maxWait: maxWait)
    let token = try poller.run(issuedAt: issuedAt, announce: announce)
    return try LoginResult.identify(
      token: token, receivedAt: clock.now(),
      api: GitHubAPI(host: host, base: endpoints.api, transport: transport, timeout: requestTimeout),
      expectedLogin: expectedLogin, host: host)
  }

  /// Whether the verification page may be opened automatically: its host is the configured
  /// GitHub host (that of the authorize endpoint), compared without the port (R39, RFC 8628 §5.4).
  static func mayOpen(_ page: WebURL, configured: WebURL) -> Bool {
    page.host == configured.host && (page.scheme == .https || page.isLoopback)
  }

  /// "15 minutes" for whole minutes from two minutes up, else "N seconds".
  static func duration(_ seconds: Double) -> String {
    let whole = DurationText.wholeSeconds(seconds, rounding: .up)
    if whole >= 120 && whole % 60 == 0 { return "\(whole / 60) minutes" }
    return "\(whole) seconds"
  }
}
