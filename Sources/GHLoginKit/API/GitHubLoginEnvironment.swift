import GHLoginCore

/// What the library reaches outside your process through: variables, HTTP, the clock, the
/// browser and the keyring. The default is the real process; a test passes fakes, so that it
/// runs without a server, a browser, a keyring or waiting.
///
/// ```swift
/// var environment = GitHubLoginEnvironment.process
/// environment.variables = ["HOME": testHome]          // a private store for the test
/// environment.transport = MyFakeGitHub()               // answers the token and /user requests
/// let github = try GitHubLogin(configuration: app, environment: environment)
/// ```
public struct GitHubLoginEnvironment: Sendable {
  /// The environment variables the library reads (`HOME`, `XDG_CONFIG_HOME`,
  /// `GHLOGIN_CREDENTIALS`, `GH_HOST`, `GHLOGIN_USER`, the proxy variables, `DISPLAY`...).
  public var variables: [String: String]
  /// How requests leave the process; nil: HTTPS with the system's trust store and proxies.
  public var transport: (any GitHubLoginTransport)?
  /// The clock expiry times and waits use; nil: the system's.
  public var clock: (any GitHubLoginClock)?
  /// What opens the authorization page; nil: the user's browser (`xdg-open` and friends).
  public var browser: (any GitHubLoginBrowser)?
  /// Where logins kept in a keyring have their tokens; nil: the platform's keyring (the Secret
  /// Service on Linux). Used only for such logins (``GitHubLoginConfiguration/tokenStore``).
  public var keyring: (any GitHubLoginKeyring)?

  /// The environment with these parts (nil for the real one).
  public init(
    variables: [String: String], transport: (any GitHubLoginTransport)? = nil, clock: (any GitHubLoginClock)? = nil,
    browser: (any GitHubLoginBrowser)? = nil, keyring: (any GitHubLoginKeyring)? = nil
  ) {
    self.variables = variables
    self.transport = transport
    self.clock = clock
    self.browser = browser
    self.keyring = keyring
  }

  /// This process: its environment variables, HTTPS, the system clock and the user's browser.
  public static var process: GitHubLoginEnvironment {
    GitHubLoginEnvironment(variables: ProcessState.environmentVariables())
  }

  /// The library's own environment: the real one with the parts that were replaced. Standard
  /// output, standard error and standard input are never used by the library.
  func resolved() -> Environment {
    var environment = Environment.process()
    environment.variables = EnvironmentVariables(variables)
    environment.arguments = []
    environment.stdout = DiscardedOutput()
    environment.stderr = DiscardedOutput()
    environment.stdin = NoInput()
    if let transport {
      environment.transport = { _ in TransportAdapter(transport: transport) }
      environment.installedInterruptDescriptor = { nil }
    } else {
      let variables = EnvironmentVariables(variables)
      environment.transport = { caFile in
        HTTPClient(variables: variables, caFile: caFile, userAgent: Release.userAgent)
      }
    }
    if let clock { environment.clock = ClockAdapter(clock: clock) }
    if let browser { environment.browser = BrowserAdapter(browser: browser) }
    if let keyring { environment.secrets = KeyringAdapter(keyring: keyring) }
    return environment
  }
}

/// One HTTP request the library sends (to the token endpoint, the device-code endpoint, the API).
public struct GitHubLoginRequest: Sendable, Hashable {
  /// `GET`, `POST` or `DELETE`.
  public let method: String
  /// The absolute URL.
  public let url: String
  /// The header fields in order (name, value). `Authorization` holds a token or a client
  /// secret: never log it.
  public let headers: [Header]
  /// The body (a form for the token endpoints, JSON for revocation), empty for `GET`.
  public let body: [UInt8]

  /// One header field.
  public struct Header: Sendable, Hashable {
    /// The field name as sent.
    public let name: String
    /// The value.
    public let value: String
  }

  /// The first value of the header `name` (compared without case).
  public func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// The body as UTF-8 text.
  public var bodyText: String { String(decoding: body, as: UTF8.self) }

  init(_ request: HTTPRequest) {
    method = request.method
    url = request.url.description
    headers = request.headers.fields.map { Header(name: $0.name, value: $0.value) }
    body = request.body
  }
}

/// The answer a ``GitHubLoginTransport`` gives.
public struct GitHubLoginResponse: Sendable, Hashable {
  /// The status code.
  public var status: Int
  /// The header fields in order (name, value).
  public var headers: [GitHubLoginRequest.Header]
  /// The body.
  public var body: [UInt8]

  /// A response with `status`, `headers` (name, value pairs) and `body`.
  public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers.map { GitHubLoginRequest.Header(name: $0.0, value: $0.1) }
    self.body = body
  }

  /// A JSON answer: `Content-Type: application/json` and `json` as the body.
  public static func json(_ json: String, status: Int = 200, headers: [(String, String)] = []) -> GitHubLoginResponse {
    GitHubLoginResponse(
      status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(json.utf8))
  }
}

/// Sends the library's HTTP requests: replace it in tests with one that answers from a script.
///
/// Called on the library's own thread, one request at a time per call; it may block. Throw any
/// error for a request that could not be sent (the library reports it as a network failure).
public protocol GitHubLoginTransport: Sendable {
  /// Sends `request` once and returns the answer (never following a redirect).
  func send(_ request: GitHubLoginRequest) throws -> GitHubLoginResponse
}

/// The clock the library reads expiry times from and waits on (the device flow's polling).
public protocol GitHubLoginClock: Sendable {
  /// Seconds since 1970.
  func now() -> Double
  /// Waits `seconds`; a test clock just moves its time forward.
  func sleep(seconds: Double)
}

/// Opens the authorization page of a browser login.
///
/// Asked whenever a browser login opens the page (unless ``LoginOptions/opensBrowser`` is
/// false), whether or not the environment's variables name a display.
public protocol GitHubLoginBrowser: Sendable {
  /// Opens `url`; throw when it cannot be opened (the login then says to open it by hand).
  func open(_ url: String) throws
}

/// A ``GitHubLoginTransport`` as the library's own transport.
struct TransportAdapter: HTTPTransport {
  let transport: any GitHubLoginTransport

  func send(_ request: HTTPRequest, timeout: Double) throws -> HTTPResponse {
    let host = request.url.host
    let answer: GitHubLoginResponse
    do { answer = try transport.send(GitHubLoginRequest(request)) } catch {
      throw HTTPError.io(host: host, reason: Sanitize.terminal("\(error)", maxCharacters: 200))
    }
    return HTTPResponse(
      status: answer.status, headers: HTTPHeaders(answer.headers.map { (name: $0.name, value: $0.value) }),
      body: answer.body)
  }
}

/// A ``GitHubLoginClock`` as the library's time source: its time is both the wall clock and the
/// monotonic one.
struct ClockAdapter: TimeSource {
  let clock: any GitHubLoginClock
  func now() -> Double { clock.now() }
  func monotonic() -> Double { clock.now() }
  func sleep(seconds: Double) { clock.sleep(seconds: seconds) }
}

/// A ``GitHubLoginBrowser`` as the library's browser opener.
struct BrowserAdapter: BrowserOpener {
  let browser: any GitHubLoginBrowser
  func open(_ url: WebURL, environment: EnvironmentVariables) throws { try browser.open(url.description) }
  /// Always: the tool's browser is asked whether or not the variables name a display.
  func canOpen(environment: EnvironmentVariables) -> Bool { true }
}

/// Where the library's own output would go: nowhere (it prints nothing).
struct DiscardedOutput: TextOutput {
  var isTerminal: Bool { false }
  func write(_ text: String) {}
}

/// Standard input as the library sees it: empty, never a terminal.
struct NoInput: ByteInput {
  var isTerminal: Bool { false }
  func readAll(limit: Int) -> [UInt8]? { [] }
  func readLine() -> String? { nil }
}
