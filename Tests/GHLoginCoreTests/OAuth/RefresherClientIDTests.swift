import Testing

import GHLoginTestSupport
@testable import GHLoginCore

/// Two apps on one host (SECURITY.md): a refresh uses only the app that issued the refresh token. A login another app
/// made is never refreshed with the configured app's credentials: nothing is sent, nothing is
/// written; a token still valid is used with a warning, an expired one is an error that says
/// which app made the login and what to run.
@Suite(.verifiesFakes) struct RefresherClientIDTests {
  typealias Base = RefresherTests
  let fixture: StoreFixture
  let clock = ManualClock(now: RefresherTests.now)

  init() throws { fixture = try StoreFixture() }

  static func expiring(expiresIn: Double, clientID: String?) -> Credential {
    var credential = Base.expiring(expiresIn: expiresIn)
    credential.clientID = clientID
    return credential
  }

  func seed(_ credential: Credential) throws { try fixture.store().update { $0 = sampleCredentials(credential) } }

  func refresher(_ transport: any HTTPTransport) throws -> Refresher {
    let endpoint = TokenEndpoint(url: try WebURL(parsing: Base.tokenURL), host: .gitHubDotCom, transport: transport)
    return Refresher(
      host: .gitHubDotCom, store: fixture.store(), endpoint: endpoint, app: Base.app, configFile: "/cfg/config.json",
      clock: clock)
  }

  /// The message up to its remedy (the command line's remedy: RefresherClientIDCLIVoiceTests).
  static let expectedReason =
    "the token for github.com (octocat) has expired and cannot be refreshed here: octocat logged in with another "
    + "OAuth app (client ID Iv1.other) than the configured one (Iv1.client), and a refresh token is only sent with "
    + "the app that issued it. "

  @Test func anExpiredTokenOfAnotherAppIsNotRefreshed() throws {
    let expired = Self.expiring(expiresIn: -1, clientID: "Iv1.other")
    try seed(expired)
    let before = readFile(fixture.file)
    let transport = FakeTransport()
    let error = try #require(throws: RefreshError.self) { try refresher(transport).usable(expired) }
    #expect(error.kind == .otherApp(login: "octocat", issuer: "Iv1.other", configured: "Iv1.client"))
    #expect(error.message.hasPrefix(Self.expectedReason))
    #expect(error.exitStatus == .notLoggedIn)
    #expect(error.errorKind == .notLoggedIn)
    #expect(!error.message.contains("ghr_old") && !error.message.contains("the-secret"))
    #expect(transport.requests.isEmpty)
    #expect(readFile(fixture.file) == before)
  }

  @Test func aValidTokenOfAnotherAppIsUsedWithAWarning() throws {
    let valid = Self.expiring(expiresIn: 60, clientID: "Iv1.other")
    try seed(valid)
    let before = readFile(fixture.file)
    let transport = FakeTransport()
    let outcome = try refresher(transport).usable(valid)
    #expect(outcome.credential == valid)
    #expect(!outcome.refreshed)
    #expect(
      outcome.deferredFailure?.reason(.words)
        == "octocat logged in with another OAuth app (client ID Iv1.other) than the configured one (Iv1.client), "
        + "and its refresh token is only sent with the app that issued it")
    #expect(transport.requests.isEmpty)
    #expect(readFile(fixture.file) == before)
  }

  /// `ghlogin refresh` (forced) does not send it either.
  @Test func aForcedRefreshOfAnotherAppsLoginSendsNothing() throws {
    try seed(Self.expiring(expiresIn: 28_000, clientID: "Iv1.other"))
    let before = readFile(fixture.file)
    let transport = FakeTransport()
    let outcome = try refresher(transport).refresh(login: "octocat", force: true)
    #expect(!outcome.refreshed)
    #expect(outcome.deferredFailure?.kind == .otherApp(login: "octocat", issuer: "Iv1.other", configured: "Iv1.client"))
    #expect(transport.requests.isEmpty)
    #expect(readFile(fixture.file) == before)
  }

  /// The app's own login refreshes with it, and keeps its client ID.
  @Test func theIssuingAppRefreshesAndTheClientIDIsKept() throws {
    let due = Self.expiring(expiresIn: 60, clientID: "Iv1.client")
    try seed(due)
    let transport = FakeTransport()
    transport.on("POST", Base.tokenURL, respond: Base.renewal)
    let outcome = try refresher(transport).usable(due)
    #expect(outcome.refreshed)
    #expect(outcome.credential.clientID == "Iv1.client")
    let stored = try #require(try fixture.store().load().hosts["github.com"]?.accounts.first)
    #expect(stored.token == "ghu_new")
    #expect(stored.clientID == "Iv1.client")
    #expect(transport.requests.first?.formParameters.first { $0.name == "client_id" }?.value == "Iv1.client")
  }

  /// A login with no client ID (stored before they were kept) refreshes with the configured app,
  /// as before, and still has none.
  @Test func aLoginWithoutAClientIDRefreshesWithTheConfiguredApp() throws {
    let due = Self.expiring(expiresIn: 60, clientID: nil)
    try seed(due)
    let transport = FakeTransport()
    transport.on("POST", Base.tokenURL, respond: Base.renewal)
    let outcome = try refresher(transport).usable(due)
    #expect(outcome.refreshed)
    #expect(try fixture.store().load().hosts["github.com"]?.accounts.first?.clientID == nil)
    #expect(readFile(fixture.file).map { String(decoding: $0, as: UTF8.self) }?.contains(#""version": 1"#) == true)
  }
}
