import GHLoginTestSupport
import Testing

@testable import GHLoginKit

/// Issue 31 §2: what a tool's users read through GHLoginKit is in the library's voice. Every
/// notice and configuration error, rendered as `GitHubLogin` renders it, uses none of the
/// command line's words: no `ghlogin:` prefix, no `'ghlogin …'` command, no option and no
/// config-file key (``VoiceCheck``, over ``CLIVocabulary``, generated from GHLoginCLI's
/// declarations; this file does not import GHLoginCLI).
@Suite struct LibraryVoiceTests {
  static let host = GitHubHost.gitHubDotCom
  static let enterprise: GitHubHost = {
    guard let host = try? GitHubHost(validating: "ghe.example.com") else { preconditionFailure("a valid host") }
    return host
  }()
  static let url = GitHubHost.gitHubDotCom.defaultEndpoints.token
  static let file = GitHubLoginConfiguration.sourceName

  /// Every notice a library call can show, as its text. (Not `.ignoredKeys`: the library loads
  /// the config strictly, so an unknown key is an error naming the file's key, never a notice.)
  static let notices: [ConfigNotice] = [
    .loneClientSecret,
    .movedApp(file: "/c.json", defaultHost: "github.com", host: "ghe.example.com", clientID: "Iv1.x"),
    .movedCredentials(former: "/team/credentials.json", credentialsFile: "/h/credentials.json", directory: "/h"),
  ]

  static let flowNotes: [FlowNote] = [
    .deviceFlow(overSSH: true), .deviceFlow(overSSH: false), .browserFlow(overSSH: true, host: "ghe.example.com"),
  ]

  /// Every configuration error, and the errors whose remedy is a command or a setting.
  static let errors: [any ReportableError & Sendable] =
    listed + stepErrors + loginErrors + tokenErrors + refusals
    + revocationErrors

  static let listed: [any ReportableError & Sendable] = [
    ConfigError.wrongType(file: file, key: "client_id", expected: "a string"),
    ConfigError.invalidValue(file: file, key: "scopes", reason: "must not be empty"),
    ConfigError.invalidURL(file: file, key: "authorize_url", reason: "no host"),
    ConfigError.insecureURL(file: file, key: "token_url"),
    ConfigError.invalidURL(file: file, key: "device_code_url", reason: "no host"),
    ConfigError.insecureURL(file: file, key: "api_url"),
    ConfigError.invalidURL(file: file, key: "revocation_url", reason: "no host"),
    ConfigError.invalidValue(file: file, key: "ca_file", reason: "is empty"),
    ConfigError.invalidValue(file: file, key: "host", reason: "is not a host name"),
    ambiguousHost,
    ConfigError.namedFileMissing(file: "/c.json"),
    ConfigError.tooLarge(file: "/c.json"),
    MissingClientID(host: "ghe.example.com", configFile: file),
    MissingClientID(host: "ghe.example.com", configFile: file, defaultHostHasApp: true),
    SeveralHosts(hosts: ["a.example", "b.example"]),
    NotLoggedIn(host: "ghe.example.com", user: "hubot"),
    GitHubAPIError(.tokenRejected, host: enterprise, path: "/user"),
    GitHubAPIError(.badRedirect, host: host, path: "/user"),
    GitHubAPIError(.tooManyRedirects, host: host, path: "/user"),
    GitHubAPIError(.httpStatus(404), host: host, path: "/user"),
    DeviceFlowError(.unavailable(reason: "HTTP 404"), host: host),
    DeviceFlowError(.expired, host: host),
    DeviceFlowError(.clockDrift(slowDowns: 5), host: host),
    RefreshError(.sessionExpired, host: host),
    RefreshError(.noClientID(configFile: file), host: host),
    RefreshError(.accountGone(login: "octocat"), host: host),
    RefreshError(.otherApp(login: "octocat", issuer: "Iv1.a", configured: "Iv1.b"), host: host),
    RefreshError(.failed(ConfigSettingInFile(refusedApp, configFile: file)), host: host),
    RefreshError(.notSaved(KeyringError.failed(operation: "store the token", reason: "D-Bus error")), host: host),
    ForcedRefreshFailed(
      RefreshWarning(
        failure: RefreshError(.failed(ConfigSettingInFile(refusedApp, configFile: file)), host: host), validFor: 60)),
    KeyringError.locked,
    KeyringError.itemMissing(host: "github.com", login: "octocat", kind: .accessToken),
    StoreError.corrupt(path: "/c/credentials.json", detail: "bad JSON"),
    StoreError.tooLarge(path: "/c/credentials.json"),
    StoreError.lockTimeout(path: "/c/credentials.lock", seconds: 10),
    UnstoredLogin(storeFailure: KeyringError.locked, host: host, revocation: .revoked),
    TokenError(.redirect(302), host: host, endpoint: url),
    TokenError(.httpStatus(404), host: host, endpoint: url),
    TokenError(.unsupportedTokenType("mac"), host: host, endpoint: url),
    CredentialResponse.UnsafeValue(key: "password"),
  ]

  /// Errors that name the step of a request and the setting of its URL (a list of its own: one
  /// static array of them all overflows a test thread's stack in a debug build).
  static let stepErrors: [any ReportableError & Sendable] = [
    EndpointRequestError(
      step: "token exchange", setting: .tokenURL, url: url,
      underlying: .connect(host: "github.com", port: 443, reason: "refused")),
    EndpointRequestError(
      step: "device code request", setting: .deviceCodeURL, url: url,
      underlying: .resolve(host: "github.com", reason: "no DNS")),
    TokenError(.httpStatus(503), host: host, endpoint: url, step: refresh),
    TokenError(.httpStatus(404), host: host, endpoint: url, step: exchange),
    GitHubAPIError(.httpStatus(404), host: host, path: "/user", step: identity),
  ]
  /// Every revocation failure, at GitHub's route (`apiURL`) and at an RFC 7009 endpoint
  /// (`revocationURL`), and as a login that could not be stored quotes it.
  static let revocationErrors: [any ReportableError & Sendable] =
    [
      RevocationError.Kind.clientRejected(401), .validationFailed, .httpStatus(500), .httpStatus(404), .redirect(302),
      .notOffered, .oauthError(status: 400, code: "invalid_client"), .oauthError(status: 400, code: nil),
      .unusableToken, .unusableClientID, .otherApp(issuer: "Iv1.a", configured: "Iv1.b"), .tokenMissing,
    ].flatMap { kind in
      [revocation, rfc7009].map { RevocationError(kind, host: host, step: $0) }
    } + [
      UnstoredLogin(
        storeFailure: KeyringError.locked, host: host,
        revocation: .failed(
          reason: RevocationError(.clientRejected(401), host: host, step: revocation), manualURL: "https://x")),
      UnstoredLogin(
        storeFailure: KeyringError.locked, host: host,
        revocation: .failed(reason: RevocationError(.redirect(302), host: host, step: rfc7009), manualURL: "https://x")),
    ]
  static let revocation = EndpointStep("token revocation", setting: .apiURL, url: url)
  static let rfc7009 = EndpointStep("token revocation", setting: .revocationURL, url: url)
  static let refresh = EndpointStep("token refresh", setting: .tokenURL, url: url)
  static let exchange = EndpointStep("token exchange", setting: .tokenURL, url: url)
  static let identity = EndpointStep("identity check", setting: .apiURL, url: url)

  /// A token endpoint's refusal of the app, which names the client ID and secret settings.
  static let refusedApp = TokenError(
    .oauth(OAuthErrorBody(code: "incorrect_client_credentials")), host: host, endpoint: url)

  /// Endpoints on several hosts, as a config file's every endpoint key derives it: a list
  /// that names each setting, so one named by its config key would show.
  static let ambiguousHost: any ReportableError & Sendable = {
    let text =
      #"{"token_url": "https://b.example/t", "device_code_url": "https://c.example/d", "#
      + #""api_url": "https://api.d.example", "revocation_url": "https://e.example/r"}"#
    guard let config = try? Config.parse(bytes: Array(text.utf8), file: file, variables: [:]),
      case .failure(let error)? = config.endpointHost
    else { preconditionFailure("endpoints on several hosts") }
    return error
  }()

  static let loginErrors: [any ReportableError & Sendable] = [
    "invalid_request", "unauthorized_client", "invalid_scope", "access_denied",
  ].map { LoginError(.authorizationError(AuthorizationErrorResponse(error: $0)), host: host) }

  static let tokenErrors: [any ReportableError & Sendable] = [
    "incorrect_client_credentials", "bad_verification_code", "redirect_uri_mismatch", "bad_refresh_token",
    "device_flow_disabled",
  ].map { TokenError(.oauth(OAuthErrorBody(code: $0)), host: host, endpoint: url) }

  static let refusals: [any ReportableError & Sendable] = [ConfigLayer.builtIn, .system, .user, .environment].map {
    ClientIDRefused(
      host: enterprise, code: "unauthorized_client", flow: .device, clientID: "Iv1.x",
      source: ConfigSource(layer: $0, location: "/config.json"), isDefaultHost: false)
  }

  /// Every text the table renders through the library, for a tool with no login command and one
  /// with its own.
  static func rendered() -> [String] {
    [Remedies.tool(loginCommand: nil), .tool(loginCommand: "mytool login")].flatMap { remedies in
      errors.map { GitHubLoginError($0, remedies: remedies).message }
        + notices.map { $0.text(remedies) } + flowNotes.map { $0.text(remedies) }
    }
  }

  @Test func theVocabularyIsGenerated() {
    #expect(CLIVocabulary.optionNames.contains("--device") && CLIVocabulary.configKeys.contains("device_code_url"))
  }

  @Test(arguments: rendered()) func saysNoneOfTheCommandLinesWords(_ text: String) {
    #expect(!text.isEmpty)
    #expect(VoiceCheck.commandLineWords(inLibraryMessage: text) == [], "\(text)")
  }

  /// The check finds each kind of the command line's words in a planted message.
  @Test(arguments: [
    ("ghlogin: warning: could not revoke the previous token", ["ghlogin:"]),
    ("log in with the browser instead ('ghlogin auth --web')", ["'ghlogin ", "--web"]),
    ("set device_code_url, or pass --device", ["--device", "device_code_url"]),
    (#"the endpoints are not on one host; add "host": "HOST""#, [#""host""#]),
    ("check the host and tokenURL settings; pass --no-such-option", []),
  ])
  func theCheckFindsAPlantedWord(_ text: String, _ words: [String]) {
    #expect(Set(VoiceCheck.commandLineWords(inLibraryMessage: text)) == Set(words))
  }

  /// Issue 31 §2: no error a tool's users read names the variables that set the client ID and
  /// secret (a tool's own configuration is not read from them). `GHLOGIN_CONFIG` and the lone
  /// secret notice may be named: only `GitHubLogin()`, which reads them, reports them.
  @Test(arguments: [Remedies.tool(loginCommand: nil), .tool(loginCommand: "mytool login")])
  func errorsNameNoGHLoginVariable(_ remedies: Remedies) {
    for error in Self.errors {
      let text = GitHubLoginError(error, remedies: remedies).message
      #expect(!text.contains("GHLOGIN_CLIENT_"), "\(text)")
    }
  }

  /// Issue 31 §2: the step's setting and the client ID's fix, word for word, in a tool.
  @Test func stepsAndAMissingClientIDInWords() {
    let tool = Remedies.tool(loginCommand: nil)
    #expect(
      TokenError(.httpStatus(404), host: Self.host, endpoint: Self.url, step: Self.exchange).message(tool)
        == "token exchange at tokenURL https://github.com/login/oauth/access_token: the server answered HTTP 404; "
        + "check the host and tokenURL settings")
    let missing = MissingClientID(host: "ghe.example.com", configFile: Self.file, defaultHostHasApp: true)
    #expect(
      missing.message(tool).hasPrefix(
        "no OAuth clientID is configured for ghe.example.com (the top-level clientID and the built-in app are "
          + "github.com's only: an OAuth app exists on one GitHub host)."))
    #expect(missing.message(tool).hasSuffix("Then give its client ID (and secret) in \(Self.file)"))
  }

  /// Settings are named by the library's property names.
  @Test func settingsAreNamedByTheirProperties() {
    let tool = Remedies.tool(loginCommand: nil)
    #expect(
      Self.ambiguousHost.message(tool)
        == "the GitHubLoginConfiguration: the endpoints are not on one host (authorizeURL github.com "
        + "(github.com's default), tokenURL b.example, deviceCodeURL c.example, apiURL api.d.example, "
        + "revocationURL e.example), so the host this login is for is unclear; set host to the server that "
        + "issues the tokens")
    #expect(
      ConfigError.insecureURL(file: Self.file, key: "token_url").message(tool).hasPrefix(
        "the GitHubLoginConfiguration: tokenURL uses http://"))
    #expect(
      DeviceFlowError(.unavailable(reason: "HTTP 404"), host: Self.host).message(tool)
        == "the device flow is not available on github.com (HTTP 404); log in with the browser instead, "
        + "or check deviceCodeURL in the config")
    #expect(
      RefreshError(.noClientID(configFile: Self.file), host: Self.host).message(tool)
        == "the token for github.com has expired and cannot be refreshed: no clientID is configured for "
        + "github.com. Put the client ID of the app you logged in with in the GitHubLoginConfiguration, "
        + "or log in again")
    #expect(
      FlowNote.deviceFlow(overSSH: true).text(tool)
        == "Logged in over SSH: using the device flow (set LoginOptions.flow to .browser for the browser flow).")
  }
}
