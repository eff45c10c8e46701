import Testing

import GHLoginTestSupport
@testable import GHLoginKit

/// Two apps on one host (SECURITY.md). A `GitHubLogin(configuration:)` sees the logins its own
/// app made and tokens stored with `--with-token` (no client ID), never another app's, so it
/// never spends another app's refresh token; `GitHubLogin()` does the same with the app the
/// configuration resolves for the host, as the commands do (R111).
@Suite(.verifiesFakes) struct GitHubLoginAppTests {
  typealias Fixture = LifecycleFixture
  let fixture: LifecycleFixture
  let transport = FakeTransport()

  static let appA = GitHubLoginConfiguration(clientID: "Iv1.appA", scopes: ["repo"])
  static let appB = GitHubLoginConfiguration(clientID: "Iv1.appB", scopes: ["repo"])

  init() throws { fixture = try LifecycleFixture() }

  func environment() -> Environment {
    let transport = transport
    return Environment(
      arguments: [], variables: EnvironmentVariables(fixture.variables), stdout: BufferOutput(), stderr: BufferOutput(),
      stdin: BufferInput(""), clock: fixture.clock, browser: RecordingBrowser(), transport: { _ in transport })
  }

  func github(_ app: GitHubLoginConfiguration) throws -> GitHubLogin {
    try GitHubLogin(environment: environment(), configuration: app)
  }

  /// An account of `login` (user id `id`) made by the app `clientID`, expiring in `expiresIn` seconds.
  static func login(
    _ login: String = "octocat", id: Int64 = 583_231, clientID: String?, expiresIn: Double = 3600
  ) -> Credential {
    var credential = Fixture.expiring(login, token: "ghu_\(login)", expiresIn: expiresIn)
    credential.userID = id
    credential.clientID = clientID
    return credential
  }

  /// Expects `body` to fail as not logged in, with `message`.
  func expectNotLoggedIn(
    _ message: String = "not logged in to github.com; log in first",
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
  ) async {
    do {
      try await body()
      Issue.record("another app's login was used", sourceLocation: sourceLocation)
    } catch let error as GitHubLoginError {
      #expect(error.kind == .notLoggedIn, sourceLocation: sourceLocation)
      #expect(error.exitStatus == .notLoggedIn, sourceLocation: sourceLocation)
      #expect(error.message == message, sourceLocation: sourceLocation)
    } catch {
      Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
    }
  }

  /// App A logs in (the device flow, stored with A's client ID); app B does not see it.
  @Test func appBDoesNotSeeTheLoginAppAMade() async throws {
    PollScript(clock: fixture.clock, [.token]).install(on: transport)
    transport.on("POST", DeviceStub.codeURL, respond: DeviceStub.codeAnswer())
    transport.on("GET", DeviceStub.userURL, respond: DeviceStub.user)
    let outcome = try await github(Self.appA).login(LoginOptions(flow: .device, opensBrowser: false)) { _ in }
    #expect(outcome.stored)
    #expect(try fixture.account()?.clientID == "Iv1.appA")
    #expect(fixture.fileText.contains(#""version": 2"#))
    #expect(try github(Self.appA).freshToken()?.value == "gho_device")

    let sent = transport.requests.count
    let before = fixture.fileBytes
    let appB = try github(Self.appB)
    await expectNotLoggedIn { _ = try await appB.token() }
    await expectNotLoggedIn { _ = try appB.freshToken() }
    await expectNotLoggedIn("not logged in to github.com as octocat; log in first") {
      _ = try await appB.token(account: "octocat")
    }
    #expect(transport.requests.count == sent)
    #expect(fixture.fileBytes == before)
  }

  /// B never sends A's refresh token: not for a due token, not for a forced refresh, not to
  /// log it out; nothing is sent and the file is unchanged.
  @Test func appBNeverSpendsAppAsRefreshToken() async throws {
    try fixture.seed(Self.login(clientID: "Iv1.appA", expiresIn: 60))
    let before = fixture.fileBytes
    let appB = try github(Self.appB)
    await expectNotLoggedIn { _ = try await appB.token() }
    await expectNotLoggedIn { _ = try await appB.refreshedToken() }
    await expectNotLoggedIn { _ = try await appB.identity() }
    await expectNotLoggedIn { _ = try await appB.logout() }
    #expect(transport.requests.isEmpty)
    #expect(fixture.fileBytes == before)
  }

  /// A's own expiring token refreshes with A, and keeps A's client ID.
  @Test func appARefreshesItsOwnLoginWithItsOwnApp() async throws {
    try fixture.seed(Self.login(clientID: "Iv1.appA", expiresIn: 60))
    transport.on("POST", Fixture.tokenURL, respond: Fixture.renewal())
    let token = try await github(Self.appA).token()
    #expect(token.value == "ghu_new")
    let request = try #require(transport.requests.first)
    #expect(request.formParameters.map(\.name) == ["client_id", "grant_type", "refresh_token"])
    #expect(request.formParameters.first?.value == "Iv1.appA")
    #expect(try fixture.account()?.token == "ghu_new")
    #expect(try fixture.account()?.clientID == "Iv1.appA")
  }

  /// A token stored with `--with-token` has no client ID: every app sees it.
  @Test func everyAppSeesATokenStoredWithoutAClientID() async throws {
    try fixture.seed(sampleCredential(token: "ghp_pasted"))
    #expect(try await github(Self.appB).token().value == "ghp_pasted")
    #expect(try await github(Self.appA).token().value == "ghp_pasted")
    #expect(transport.requests.isEmpty)
  }

  /// When the host's active account is another app's, a caller gets its first visible one.
  @Test func theActiveAccountHiddenGivesTheFirstVisibleOne() async throws {
    let octocat = Self.login("octocat", id: 1, clientID: "Iv1.appA")
    let hubot = Self.login("hubot", id: 2, clientID: "Iv1.appB")
    let monalisa = Self.login("monalisa", id: 3, clientID: nil)
    try fixture.seed(
      Credentials(hosts: ["github.com": HostEntry(activeLogin: "octocat", accounts: [octocat, hubot, monalisa])]))
    #expect(try await github(Self.appB).token().login == "hubot")
    #expect(try await github(Self.appA).token().login == "octocat")
    let appC = try github(GitHubLoginConfiguration(clientID: "Iv1.appC"))
    #expect(try await appC.token().login == "monalisa")
    await expectNotLoggedIn("not logged in to github.com as hubot; log in first") {
      _ = try await appC.token(account: "hubot")
    }
    // No app of its own: the configured app's (`Iv1.client`), as the commands: none of its logins here.
    #expect(try await GitHubLogin(environment: environment()).token().login == "monalisa")
    #expect(transport.requests.isEmpty)
  }

  /// `GitHubLogin()` acts as the configured app (`Iv1.client`): another app's login, valid or
  /// not, is not its own; nothing is sent or written.
  @Test func noAppInMindDoesNotSeeAnotherAppsLogin() async throws {
    try fixture.seed(Self.login(clientID: "Iv1.appA", expiresIn: 120))
    let before = fixture.fileBytes
    await expectNotLoggedIn("not logged in to github.com; log in first") {
      _ = try await GitHubLogin(environment: environment()).token()
    }
    #expect(transport.requests.isEmpty)
    #expect(fixture.fileBytes == before)
  }
}
