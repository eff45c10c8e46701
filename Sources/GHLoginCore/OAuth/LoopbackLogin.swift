/// One browser login over a loopback redirect (RFC 8252), from listener to token and account.
///
/// Steps: fresh state and PKCE verifier → listener on `127.0.0.1:PORT` →
/// `redirect_uri=http://127.0.0.1:PORT/callback` (computed once, by the ``LoginSession``) →
/// authorize URL announced (alone on its own line) and handed to the browser opener → every
/// request checked by the session until the first valid callback, the deadline, or a stop →
/// the listener is closed. With `pasteInput`, a redirect URL pasted there goes through the same
/// checks (``PasteBack``); whichever valid callback comes first wins. Nothing is stored here.
struct LoopbackLogin: Sendable {
  package var context: LoginContext
  /// Seconds to wait for the browser (R11: at most about 10 minutes).
  package var timeout: Double
  /// The port to listen on; 0 picks an ephemeral one (R1).
  package var port: Int
  /// A descriptor to read pasted redirect URLs from, one per line (a terminal's stdin); nil: none.
  package var pasteInput: Int32?

  package init(_ context: LoginContext, timeout: Double = 300, port: Int = 0, pasteInput: Int32? = nil) {
    self.context = context
    self.timeout = timeout
    self.port = port
    self.pasteInput = pasteInput
  }

  /// ``init(_:timeout:port:pasteInput:)`` with the wait as a plan holds it.
  package init(_ context: LoginContext, timeout: Duration, port: Int = 0, pasteInput: Int32? = nil) {
    self.init(context, timeout: DurationText.seconds(timeout), port: port, pasteInput: pasteInput)
  }

  /// Runs the login: `events` gets what the person must see (``LoginEvent``), `openBrowser`
  /// gets the authorize URL and says whether a browser was started (its caller reports failures).
  ///
  /// Throws ``LoginError`` (timeout, stop with exit 130, denied, wrong account),
  /// ``HTTPError`` (no listener on 127.0.0.1), ``TokenError``, ``GitHubAPIError``,
  /// ``InsecureEndpointError``, ``CryptoError`` or the transport's error.
  package func run(events: (LoginEvent) -> Void, openBrowser: (WebURL) -> Bool) throws -> LoginResult {
    let host = context.host
    let server = try LoopbackServer(port: port)
    defer { server.close() }
    let session = try LoginSession(context, port: server.port)
    let url = try AuthorizeURL.build(
      endpoint: context.endpoints.authorize, app: context.app, redirectURI: session.redirectURI,
      request: session.request, login: context.expectedLogin)

    // The TLS set-up (trust store included) before the browser step: a trust file that can never
    // work (R90) ends the login now, and after the callback only the handshakes remain.
    try context.transport.prepare(for: context.endpoints.token)

    // The wait is counted from before the browser is opened: on an injected clock, time that
    // passes while the browser opens (a test's clock jumping ahead) counts against it.
    let deadline = context.clock.monotonic() + timeout
    events(.openAuthorizationPage(url: url.description, host: host.description))
    let opened = openBrowser(url)
    events(.waiting(flow: .browser, seconds: DurationText.wholeSeconds(timeout, rounding: .up), browserOpened: opened))
    if pasteInput != nil { events(.notice(PasteBack.prompt)) }

    var pasted = pasteInput.map(PasteBack.Input.init(fd:))
    while true {
      let outcome = server.serve(
        deadline: deadline, clock: context.clock, stopFD: context.stopFD,
        watching: pasted.flatMap { $0.isOpen ? $0.fd : nil }, handler: session.handle)
      if let result = session.outcome { return try result.get() }
      switch outcome {
      case .finished: continue  // not finished by a valid callback: keep waiting
      case .readable:
        pasted?.read()
        while let line = pasted?.nextLine() {
          if let complaint = PasteBack.deliver(line, to: session) { events(.notice(complaint)) }
          if let result = session.outcome { return try result.get() }
        }
      case .timedOut:
        throw LoginError(.timedOut(seconds: DurationText.wholeSeconds(timeout, rounding: .up)), host: host)
      case .interrupted: throw LoginError(.interrupted, host: host)
      }
    }
  }

  /// ``run(events:openBrowser:)`` with each event as its lines of text.
  package func run(announce: (String) -> Void, openBrowser: (WebURL) -> Bool) throws -> LoginResult {
    try run(events: { $0.lines.forEach(announce) }, openBrowser: openBrowser)
  }
}
