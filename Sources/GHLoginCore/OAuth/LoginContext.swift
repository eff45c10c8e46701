/// What every login flow needs, built once by the caller (``Workspace/loginContext(for:app:expectedLogin:)``):
/// the host, the app, the endpoints, the token endpoint and the API client that share one
/// transport, the clock, and the descriptor that stops a wait.
struct LoginContext: Sendable {
  package var host: GitHubHost
  package var app: OAuthApp
  /// The endpoints (the authorize and device-code URLs are used from here).
  package var endpoints: Endpoints
  /// The token endpoint (code exchange and device-flow polls).
  var tokenEndpoint: TokenEndpoint
  /// The REST API (`GET /user` once the token is in).
  package var api: GitHubAPI
  package var clock: any TimeSource
  /// Becomes readable when the login must stop (the SIGINT self-pipe, or task cancellation).
  package var stopFD: Int32?
  /// The login asked for with `--user`; another account fails the login (R24).
  package var expectedLogin: String?
  /// The program whose login this is, named in the title of the browser's result page
  /// (``ResultPage``): `ghlogin` for the command line; nil names none.
  package var product: String?

  package init(
    host: GitHubHost, app: OAuthApp, endpoints: Endpoints, transport: any HTTPTransport, clock: any TimeSource,
    stopFD: Int32? = nil, expectedLogin: String? = nil, requestTimeout: Double = 30
  ) {
    self.host = host
    self.app = app
    self.endpoints = endpoints
    let transport = transport.stopping(on: stopFD)
    tokenEndpoint = TokenEndpoint(
      url: endpoints.token, host: host, transport: transport, timeout: requestTimeout)
    api = GitHubAPI(host: host, base: endpoints.api, transport: transport, timeout: requestTimeout)
    self.clock = clock
    self.stopFD = stopFD
    self.expectedLogin = expectedLogin
  }

  /// The transport the endpoints share.
  package var transport: any HTTPTransport { tokenEndpoint.transport }
}
