/// One browser login over a loopback redirect (RFC 8252), from listener to token and account.
///
/// Steps: fresh state and PKCE verifier → listener on `127.0.0.1:PORT` →
/// `redirect_uri=http://127.0.0.1:PORT/callback` → authorize URL announced
/// (alone on its own line) and handed to the browser opener → every request
/// checked by a ``LoginSession`` until the first valid callback, the deadline,
/// or an interrupt → the listener is closed. With `pasteInput`, a redirect URL
/// pasted there goes through the same checks (``PasteBack``); whichever valid
/// callback comes first wins. Nothing is stored here.
struct LoopbackLogin: Sendable {
  var host: GitHubHost
  var endpoints: Endpoints
  var app: OAuthApp
  var transport: any HTTPTransport
  var clock: any TimeSource
  /// Seconds to wait for the browser (R11: at most about 10 minutes).
  var timeout: Double
  /// The port to listen on; 0 picks an ephemeral one (R1).
  var port: Int
  /// A descriptor that becomes readable when the user interrupts (SIGINT self-pipe).
  var stopFD: Int32?
  /// The login asked for with `--user`; another account fails the login (R24).
  var expectedLogin: String?
  /// The config file named in client-credential errors.
  var configPath: String?
  /// Seconds each HTTP request to GitHub may take.
  var requestTimeout: Double
  /// A descriptor to read pasted redirect URLs from, one per line (a terminal's stdin); nil: none.
  var pasteInput: Int32?

  init(
    host: GitHubHost, endpoints: Endpoints, app: OAuthApp, transport: any HTTPTransport, clock: any TimeSource,
    timeout: Double = 300, port: Int = 0, stopFD: Int32? = nil, expectedLogin: String? = nil,
    configPath: String? = nil, requestTimeout: Double = 30, pasteInput: Int32? = nil
  ) {
    self.host = host
    self.endpoints = endpoints
    self.app = app
    self.transport = transport
    self.clock = clock
    self.timeout = timeout
    self.port = port
    self.stopFD = stopFD
    self.expectedLogin = expectedLogin
    self.configPath = configPath
    self.requestTimeout = requestTimeout
    self.pasteInput = pasteInput
  }

  /// Runs the login: `announce` gets each line meant for stderr, `openBrowser`
  /// gets the authorize URL and says whether a browser was started (its caller reports failures).
  ///
  /// Throws ``LoginError`` (timeout, interrupt with exit 130, denied, wrong account),
  /// ``HTTPError`` (no listener on 127.0.0.1), ``TokenError``, ``GitHubAPIError``,
  /// ``InsecureEndpointError``, ``CryptoError`` or the transport's error.
  func run(announce: (String) -> Void, openBrowser: (WebURL) -> Bool) throws -> LoginResult {
    let request = try AuthorizationRequest()
    let server = try LoopbackServer(port: port)
    defer { server.close() }
    let redirectURI = AuthorizeURL.redirectURI(port: server.port)
    let url = try AuthorizeURL.build(
      endpoint: endpoints.authorize, app: app, redirectURI: redirectURI, request: request, login: expectedLogin)
    let session = LoginSession(
      host: host, app: app, request: request, port: server.port,
      tokenEndpoint: TokenEndpoint(
        url: endpoints.token, host: host, transport: transport, timeout: requestTimeout, configPath: configPath),
      api: GitHubAPI(host: host, base: endpoints.api, transport: transport, timeout: requestTimeout),
      clock: clock, expectedLogin: expectedLogin)

    // The TLS set-up (trust store included) before the browser step: a trust file that can never
    // work (R90) ends the login now, and after the callback only the handshakes remain.
    try transport.prepare(for: endpoints.token)

    announce("Open this URL in your browser to log in to \(host):")
    announce(url.description)
    let opened = openBrowser(url)
    announce(
      "\(opened ? "Opened your browser. " : "")Waiting up to \(Int(timeout.rounded(.up))) seconds for the browser (Ctrl-C to cancel)..."
    )
    if pasteInput != nil { announce(PasteBack.prompt) }

    let deadline = clock.monotonic() + timeout
    while true {
      let outcome = server.serve(deadline: deadline, clock: clock, stopFD: stopFD, extraInput: pasteInput) { incoming in
        let reply = session.handle(method: incoming.method, target: incoming.target, headers: incoming.headers)
        return LoopbackReply(
          status: reply.page.status, headers: reply.page.headers, body: reply.page.body, finish: reply.finish)
      }
      if let result = session.outcome { return try result.get() }
      switch outcome {
      case .finished: continue  // not finished by a valid callback: keep waiting
      case .input(let line):
        if let complaint = PasteBack.deliver(line, to: session) { announce(complaint) }
        if let result = session.outcome { return try result.get() }
      case .timedOut: throw LoginError(.timedOut(seconds: Int(timeout.rounded(.up))), host: host)
      case .interrupted: throw LoginError(.interrupted, host: host)
      }
    }
  }
}
