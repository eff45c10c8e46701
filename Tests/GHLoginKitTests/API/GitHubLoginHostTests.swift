import GHLoginTestSupport
import Testing

@testable import GHLoginKit

#if canImport(Glibc)
  import Glibc
#endif

/// R87, R97: `GitHubLoginConfiguration(clientID:…, tokenURL:…, apiURL:…)`
/// without `host` was labelled github.com, so `identity()` sent the stored github.com token to
/// that `apiURL` and `logout()` sent it in a revocation body there and deleted the github.com
/// login. Now the configuration gets the config file's rule through the same function
/// (`Config.deriveEndpointHost`, `EndpointHost`): with no `host`, the endpoints it uses must share
/// one host, which is the label; otherwise `GitHubLogin(configuration:)` throws asking for `host`.
@Suite(.verifiesFakes) struct GitHubLoginHostTests {
  let fixture: StoreFixture
  let transport = FakeTransport()
  static let gitHubToken = "gho_16C7e42F292c6912E7710c838347Ae178B4a"
  static let source = GitHubLoginConfiguration.sourceName

  /// A github.com login in the store, as the user's own `ghlogin auth` left it.
  init() throws {
    fixture = try StoreFixture()
    _ = try fixture.store().update { $0.save(sampleCredential(token: Self.gitHubToken), on: "github.com") }
  }

  func environment(_ variables: [String: String]? = nil) -> Environment {
    let transport = transport
    return Environment(
      arguments: [], variables: EnvironmentVariables(variables ?? ["HOME": fixture.home]), stdout: BufferOutput(),
      stderr: BufferOutput(),
      stdin: BufferInput(""), clock: ManualClock(), browser: RecordingBrowser(), transport: { _ in transport })
  }

  /// The github.com login is exactly as it was, and no request carried its token.
  func expectGitHubLoginUntouched(_ before: [UInt8]?, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(readFile(fixture.file) == before, "the credentials file changed", sourceLocation: sourceLocation)
    #expect(
      try fixture.store().load().hosts["github.com"]?.accounts.map(\.token) == [Self.gitHubToken],
      sourceLocation: sourceLocation)
    expectNoRequestCarriesTheGitHubToken(sourceLocation: sourceLocation)
  }

  func expectNoRequestCarriesTheGitHubToken(sourceLocation: SourceLocation = #_sourceLocation) {
    for request in transport.requests {
      let text =
        request.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
        + String(decoding: request.body, as: UTF8.self)
      #expect(
        !text.contains(Self.gitHubToken), "\(request.url) got the github.com token", sourceLocation: sourceLocation)
    }
  }

  /// `call` on a configuration for evil.example.com fails as not logged in, sends nothing and
  /// leaves the github.com login as it was.
  func expectNotLoggedInAndNothingSent(
    _ call: (GitHubLogin) async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let before = readFile(fixture.file)
    let github = try GitHubLogin(environment: environment(), configuration: Self.evilApp)
    do {
      try await call(github)
      Issue.record("it ran without a login for evil.example.com", sourceLocation: sourceLocation)
    } catch let error as GitHubLoginError {
      #expect(error.kind == .notLoggedIn, sourceLocation: sourceLocation)
      #expect(
        error.message == "not logged in to evil.example.com; log in first",
        sourceLocation: sourceLocation)
    }
    #expect(transport.requests.isEmpty, sourceLocation: sourceLocation)
    try expectGitHubLoginUntouched(before, sourceLocation: sourceLocation)
  }

  static let evil = "https://evil.example.com"

  struct Ambiguous: CustomTestStringConvertible, Sendable {
    let name: String
    let configuration: GitHubLoginConfiguration
    let endpoints: String
    var testDescription: String { name }
  }

  /// Configurations whose endpoints are on more than one host, and no `host`.
  static let ambiguous: [Ambiguous] = [
    Ambiguous(
      name: "the attack: tokenURL and apiURL elsewhere",
      configuration: GitHubLoginConfiguration(
        clientID: "Iv1.evil", clientSecret: "app-secret", tokenURL: evil + "/login/oauth/access_token",
        apiURL: "https://api.evil.example.com"),
      endpoints: "authorizeURL github.com (github.com's default), tokenURL evil.example.com, "
        + "apiURL api.evil.example.com"),
    Ambiguous(
      name: "only tokenURL (the default authorize endpoint is github.com's)",
      configuration: GitHubLoginConfiguration(clientID: "Iv1.evil", tokenURL: evil + "/login/oauth/access_token"),
      endpoints: "authorizeURL github.com (github.com's default), tokenURL evil.example.com"),
    Ambiguous(
      name: "only apiURL",
      configuration: GitHubLoginConfiguration(clientID: "Iv1.evil", apiURL: evil + "/api/v3"),
      endpoints: "authorizeURL github.com (github.com's default), tokenURL github.com (github.com's default), "
        + "apiURL evil.example.com"),
    Ambiguous(
      name: "only deviceCodeURL",
      configuration: GitHubLoginConfiguration(clientID: "Iv1.evil", deviceCodeURL: evil + "/login/device/code"),
      endpoints: "authorizeURL github.com (github.com's default), tokenURL github.com (github.com's default), "
        + "deviceCodeURL evil.example.com"),
    Ambiguous(
      name: "web endpoints elsewhere, API on api.github.com",
      configuration: GitHubLoginConfiguration(
        clientID: "Iv1.evil", authorizeURL: evil + "/login/oauth/authorize",
        tokenURL: evil + "/login/oauth/access_token",
        apiURL: "https://api.github.com"),
      endpoints: "authorizeURL evil.example.com, tokenURL evil.example.com, apiURL api.github.com"),
  ]

  /// `GitHubLogin(configuration:)` (the init): throws a configuration error asking for `host`,
  /// nothing sent, nothing stored or removed.
  @Test(arguments: ambiguous)
  func initThrowsAskingForHost(_ testCase: Ambiguous) throws {
    let before = readFile(fixture.file)
    let result = Result { try GitHubLogin(environment: environment(), configuration: testCase.configuration) }
    let error = try #require(result.error as? GitHubLoginError)
    #expect(error.kind == .configuration)
    #expect(error.exitStatus == .usage)
    #expect(
      error.message
        == "\(Self.source): the endpoints are not on one host (\(testCase.endpoints)), so the host this login is for "
        + "is unclear; set host to the server that issues the tokens")
    #expect(transport.requests.isEmpty)
    try expectGitHubLoginUntouched(before)
  }

  /// Logins for seven hosts and nothing choosing: `host` names five, sorted, and "and 2 more",
  /// in the tool's words (no ghlogin command); nothing is read from the network or changed.
  @Test func severalHostsNameFiveInTheToolsWords() throws {
    _ = try fixture.store().update { credentials in
      for name in ["f.example", "b.example", "e.example", "a.example", "c.example", "d.example"] {
        credentials.save(sampleCredential(token: Self.gitHubToken), on: name)
      }
    }
    let before = readFile(fixture.file)
    let error = try #require(throws: GitHubLoginError.self) { try GitHubLogin(environment: environment()).host }
    #expect(error.kind == .configuration)
    #expect(error.exitStatus == .usage)
    #expect(
      error.message
        == "logged in to 7 hosts (a.example, b.example, c.example, d.example, e.example and 2 more); "
        + "choose one with GH_HOST")
    #expect(readFile(fixture.file) == before)
    #expect(transport.requests.isEmpty)
  }

  /// The same when the property is set after the init (the struct's fields are public vars).
  @Test func settingAnEndpointLaterIsCheckedToo() throws {
    var app = GitHubLoginConfiguration(clientID: "Iv1.evil")
    #expect(try GitHubLogin(environment: environment(), configuration: app).host == "github.com")
    app.tokenURL = Self.evil + "/login/oauth/access_token"
    #expect(throws: GitHubLoginError.self) { try GitHubLogin(environment: environment(), configuration: app) }
  }

  /// `host` throws the configuration error when no host can be chosen (a config file whose
  /// endpoints share no host, or an invalid `GH_HOST`), instead of answering github.com.
  @Test func hostThrowsWhenNoHostCanBeChosen() throws {
    let config = fixture.home + "/config.json"
    try writeFile(
      config, #"{"client_id": "Iv1.x", "authorize_url": "https://a.test/a", "token_url": "https://b.test/t"}"#)
    var variables = ["HOME": fixture.home, "GHLOGIN_CONFIG": config]
    let before = readFile(fixture.file)
    let ambiguous = try GitHubLogin(environment: environment(variables))
    let error = try #require(throws: GitHubLoginError.self) { try ambiguous.host }
    #expect(error.kind == .configuration)
    #expect(error.exitStatus == .usage)
    #expect(
      error.message
        == "\(config): the endpoints are not on one host (authorizeURL a.test, tokenURL b.test), so the host this "
        + "login is for is unclear; set host to the server that issues the tokens")
    variables = ["HOME": fixture.home, "GH_HOST": "bad host"]
    let badHost = try GitHubLogin(environment: environment(variables))
    #expect(try #require(throws: GitHubLoginError.self) { try badHost.host }.kind == .configuration)
    #expect(readFile(fixture.file) == before)
    #expect(transport.requests.isEmpty)
  }

  /// Endpoints on one host, no `host`: that host is the label (api on the host or `api.` it).
  @Test(arguments: [
    (GitHubLoginConfiguration(clientID: "Iv1.x"), "github.com"),
    (GitHubLoginConfiguration(clientID: "Iv1.x", apiURL: "https://api.github.com"), "github.com"),
    (
      GitHubLoginConfiguration(
        clientID: "Iv1.x", authorizeURL: evil + "/login/oauth/authorize", tokenURL: evil + "/login/oauth/access_token"),
      "evil.example.com"
    ),
    (
      GitHubLoginConfiguration(
        clientID: "Iv1.x", authorizeURL: "https://ghe.example.com:8443/a", tokenURL: "https://ghe.example.com:8443/t",
        deviceCodeURL: "https://ghe.example.com:8443/d", apiURL: "https://ghe.example.com:8443/api/v3"),
      "ghe.example.com:8443"
    ),
    (
      GitHubLoginConfiguration(
        clientID: "Iv1.x", authorizeURL: evil + "/a", tokenURL: evil + "/t", apiURL: "https://api.evil.example.com"),
      "evil.example.com"
    ),
    // An explicit host is the caller's word, as in a config file.
    (GitHubLoginConfiguration(clientID: "Iv1.x", host: "GHE.example.com", tokenURL: evil + "/t"), "ghe.example.com"),
  ])
  func endpointsOnOneHostAreThatHost(_ app: GitHubLoginConfiguration, _ host: String) throws {
    let github = try GitHubLogin(environment: environment(), configuration: app)
    #expect(try github.host == host)
    #expect(transport.requests.isEmpty)
  }

  /// Every endpoint on evil.example.com: the configuration is for that host.
  static let evilApp = GitHubLoginConfiguration(
    clientID: "Iv1.evil", clientSecret: "app-secret", authorizeURL: evil + "/login/oauth/authorize",
    tokenURL: evil + "/login/oauth/access_token", deviceCodeURL: evil + "/login/device/code", apiURL: evil + "/api/v3")

  /// `token()`: the github.com token is not handed out as this configuration's.
  @Test func tokenIsNotTheGitHubToken() async throws {
    try await expectNotLoggedInAndNothingSent { _ = try await $0.token() }
  }

  /// `identity()`: no `GET /user` to evil.example.com with the github.com token.
  @Test func identityDoesNotSendTheGitHubToken() async throws {
    try await expectNotLoggedInAndNothingSent { _ = try await $0.identity() }
  }

  /// `logout()`: no revocation at evil.example.com, and the github.com login stays.
  @Test func logoutLeavesTheGitHubLogin() async throws {
    try await expectNotLoggedInAndNothingSent { _ = try await $0.logout() }
  }

  /// `login()`: the new login is stored as evil.example.com's, every request went there, and
  /// the github.com login is untouched (its token was sent nowhere).
  @Test func loginIsStoredUnderTheEndpointsHost() async throws {
    let before = readFile(fixture.file)
    transport.on(
      "POST", Self.evil + "/login/device/code",
      respond: DeviceStub.codeAnswer(["verification_uri": "\"\(Self.evil)/login/device\""]))
    transport.on("POST", Self.evil + "/login/oauth/access_token", respond: DeviceStub.token)
    transport.on("GET", Self.evil + "/api/v3/user", respond: DeviceStub.user)
    let github = try GitHubLogin(environment: environment(), configuration: Self.evilApp)
    let outcome = try await github.login(LoginOptions(flow: .device, opensBrowser: false)) { _ in }
    #expect(outcome.token.host == "evil.example.com")
    #expect(outcome.stored)
    #expect(transport.requests.map(\.url.host) == ["evil.example.com", "evil.example.com", "evil.example.com"])
    let stored = try fixture.store().load()
    #expect(stored.hosts["evil.example.com"]?.accounts.map(\.token) == ["gho_device"])
    #expect(readFile(fixture.file) != before)
    #expect(stored.hosts["github.com"]?.accounts.map(\.token) == [Self.gitHubToken])
    #expect(
      stored.hosts["github.com"] == sampleCredentials(sampleCredential(token: Self.gitHubToken)).hosts["github.com"])
    expectNoRequestCarriesTheGitHubToken()
  }
}
