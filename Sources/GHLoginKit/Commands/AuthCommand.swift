/// `ghlogin auth`: log in through the browser (RFC 8252 loopback redirect, PKCE S256).
struct AuthCommand: Command {
  static let configuration = CommandConfiguration(
    name: "auth", abstract: "log in to a GitHub host through the browser",
    discussion: """
      Opens GitHub's authorization page in your browser and waits on 127.0.0.1 for the redirect
      back. The authorization code is exchanged once over HTTPS, GET /user says who logged in,
      and the token is stored in the 0600 credentials file. Logging in again with the same
      account replaces its token; another account is added and made active.

      The OAuth app needs the callback URL http://127.0.0.1/callback (GitHub accepts any port on a
      loopback callback). See the README for registering one.
      """,
    options: [
      .host,
      .option("scopes", value: "LIST", help: "Comma-separated scopes to ask for (default: config, then repo,read:org,gist)"),
      .flag("no-browser", help: "Print the URL to open yourself; do not launch a browser"),
      .option("port", value: "N", help: "Listen on this port of 127.0.0.1 (default: any free port)"),
      .option("timeout", value: "SECONDS", help: "Give up after this long without a login (default: 300)"),
      .option("user", value: "LOGIN", help: "Fail unless GitHub logs in this account"),
    ])

  var host: String?
  var scopes: [String]?
  var noBrowser: Bool
  var port: Int
  var timeout: Int
  var expectedLogin: String?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    host = arguments.value("host")
    if let list = arguments.value("scopes") {
      let names = list.split(separator: ",").map { $0.trimmingASCIIWhitespace() }.filter { !$0.isEmpty }
      guard names.allSatisfy({ $0.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } }) else {
        throw UsageError("--scopes takes names like repo,read:org without spaces or control characters")
      }
      scopes = names
    }
    noBrowser = arguments.flag("no-browser")
    port = try arguments.integer("port", in: 0...65535) ?? 0
    timeout = try arguments.integer("timeout", in: 1...3600) ?? 300
    expectedLogin = arguments.value("user")
  }

  func run(in environment: Environment) throws -> ExitStatus {
    let workspace = try Workspace(environment)
    // Refuse an unusable credentials file before anything is approved in the browser:
    // a token GitHub issued that cannot be stored would stay valid and unused.
    _ = try workspace.store.load()
    let host = try workspace.host(host)
    var app = try workspace.app(for: host)
    if let scopes { app.scopes = scopes }
    let endpoints = workspace.endpoints(for: host)
    let browser = noBrowser || !SystemBrowser.canOpen(environment: environment.variables) ? nil : environment.browser
    let login = LoopbackLogin(
      host: host, endpoints: endpoints, app: app, transport: workspace.transport(for: host),
      clock: environment.clock, timeout: Double(timeout), port: port,
      stopFD: environment.interruptDescriptor(), expectedLogin: expectedLogin,
      configPath: workspace.paths.configFile)
    let result = try login.run(
      announce: { environment.stderr.write($0 + "\n") },
      openBrowser: { url in
        guard let browser else { return false }
        do {
          try browser.open(url, environment: environment.variables)
          return true
        } catch {
          environment.stderr.write("Could not open a browser (\(error)); open the URL above yourself.\n")
          return false
        }
      })
    let replaced = try workspace.store.update { credentials in
      credentials.save(Credential(result), on: host.name)
    }
    environment.stderr.write("Logged in to \(host.name) as \(result.user.login)\n")
    if let replaced { workspace.revokeReplaced(replaced, by: result.token.accessToken, on: host) }
    return .success
  }
}

extension Credential {
  /// The stored form of a finished login: granted scopes from `X-OAuth-Scopes` when GitHub
  /// sent it, else from the token response (R25).
  init(_ result: LoginResult, viaDeviceFlow: Bool = false) {
    self.init(
      login: result.user.login, userID: result.user.id, token: result.token.accessToken,
      tokenType: result.token.tokenType, scopes: result.user.grantedScopes ?? result.token.scopes,
      createdAt: result.receivedAt, expiresAt: result.accessTokenExpiresAt,
      refreshToken: result.token.refreshToken, refreshTokenExpiresAt: result.refreshTokenExpiresAt,
      viaDeviceFlow: viaDeviceFlow)
  }
}
