import Foundation
import Synchronization
import Testing

import GHLoginTestSupport
@testable import GHLoginCore

/// The refresher against a real credentials file, a fake token endpoint and a manual clock.
@Suite(.verifiesFakes) struct RefresherTests {
  static let tokenURL = "https://github.com/login/oauth/access_token"
  static let now = 1_700_000_000.0
  static let app = OAuthApp(clientID: "Iv1.client", clientSecret: "the-secret")

  let fixture: StoreFixture
  let clock = ManualClock(now: RefresherTests.now)

  init() throws { fixture = try StoreFixture() }

  /// An expiring GitHub App token for octocat, expiring `expiresIn` seconds from now.
  static func expiring(expiresIn: Double = 60, refreshIn: Double? = 15_811_200, device: Bool = false) -> Credential {
    var credential = sampleCredential(token: "ghu_old")
    credential.expiresAt = now + expiresIn
    credential.refreshToken = "ghr_old"
    credential.refreshTokenExpiresAt = refreshIn.map { now + $0 }
    credential.viaDeviceFlow = device
    return credential
  }

  static let renewal = HTTPResponse.json(
    #"{"access_token":"ghu_new","token_type":"bearer","scope":"","expires_in":28800,"#
      + #""refresh_token":"ghr_new","refresh_token_expires_in":15811200}"#)

  func seed(_ credential: Credential) throws {
    try fixture.store().update { $0 = sampleCredentials(credential) }
  }

  func refresher(_ transport: any HTTPTransport, app: OAuthApp? = RefresherTests.app) throws -> Refresher {
    let endpoint = TokenEndpoint(url: try WebURL(parsing: Self.tokenURL), host: .gitHubDotCom, transport: transport)
    return Refresher(
      host: .gitHubDotCom, store: fixture.store(), endpoint: endpoint, app: app, configFile: "/cfg/config.json",
      clock: clock)
  }

  func stored() throws -> Credential {
    try #require(try fixture.store().load().hosts["github.com"]?.accounts.first)
  }

  func fileText() -> String { String(decoding: readFile(fixture.file) ?? [], as: UTF8.self) }

  @Test func aTokenThatIsNotDueIsUsedWithoutARequest() throws {
    let credential = Self.expiring(expiresIn: 3600)
    try seed(credential)
    let outcome = try refresher(NoNetwork()).usable(credential)
    #expect(outcome == Refresher.Outcome(credential: credential))
  }

  @Test func aTokenThatNeverExpiresIsUsedWithoutARequest() throws {
    let credential = sampleCredential()
    try seed(credential)
    #expect(try refresher(NoNetwork()).usable(credential).credential == credential)
  }

  /// R40–R42: due within the margin → one refresh request; both new tokens stored with absolute
  /// expiries before the new token is returned.
  @Test func aDueTokenIsRefreshedAndStored() throws {
    let credential = Self.expiring(expiresIn: 60)
    try seed(credential)
    let transport = FakeTransport()
    transport.on("POST", Self.tokenURL, respond: Self.renewal)
    let outcome = try refresher(transport).usable(credential)
    #expect(outcome.refreshed)
    #expect(outcome.deferredFailure == nil)
    #expect(outcome.credential.token == "ghu_new")
    let sent = try #require(transport.requests.first)
    #expect(
      sent.formParameters.map { "\($0.name)=\($0.value)" } == [
        "client_id=Iv1.client", "client_secret=the-secret", "grant_type=refresh_token", "refresh_token=ghr_old",
      ])
    let saved = try stored()
    #expect(saved == outcome.credential)
    #expect(saved.refreshToken == "ghr_new")
    #expect(saved.expiresAt == Self.now + 28_800)
    #expect(saved.refreshTokenExpiresAt == Self.now + 15_811_200)
    #expect(!fileText().contains("ghu_old"))
    #expect(!fileText().contains("ghr_old"))
  }

  /// R41: a device-flow token refreshes without the client secret.
  @Test func aDeviceFlowTokenRefreshesWithoutTheSecret() throws {
    let credential = Self.expiring(expiresIn: 60, device: true)
    try seed(credential)
    let transport = FakeTransport()
    transport.on("POST", Self.tokenURL, respond: Self.renewal)
    _ = try refresher(transport).usable(credential)
    let sent = try #require(transport.requests.first)
    #expect(sent.formParameters.map(\.name) == ["client_id", "grant_type", "refresh_token"])
    #expect(!String(decoding: sent.body, as: UTF8.self).contains("the-secret"))
    #expect(try stored().viaDeviceFlow)
  }

  /// R43: the file is re-read under the lock; when another process refreshed meanwhile, the
  /// refresh token is not spent again.
  @Test func aRefreshDoneByAnotherProcessIsNotRepeated() throws {
    let stale = Self.expiring(expiresIn: 60)
    var fresh = Self.expiring(expiresIn: 28_800)
    fresh.token = "ghu_other"
    fresh.refreshToken = "ghr_other"
    try seed(fresh)
    let outcome = try refresher(NoNetwork()).usable(stale)
    #expect(outcome.credential == fresh)
    #expect(!outcome.refreshed)
  }

  /// R43: ten threads with an expired token, each with its own store instance (and so its own
  /// lock descriptor), make exactly one refresh request and all get the same new token.
  @Test func concurrentCallersRefreshOnce() throws {
    let credential = Self.expiring(expiresIn: -5)
    try seed(credential)
    let transport = FakeTransport()
    transport.on("POST", Self.tokenURL) { _ in
      usleep(20_000)  // hold the lock while the others queue up on it
      return Self.renewal
    }
    let results = TestLock<[String]>([])
    let refreshers = try (0..<10).map { _ in try refresher(transport) }
    DispatchQueue.concurrentPerform(iterations: 10) { index in
      let token = (try? refreshers[index].usable(credential).credential.token) ?? "failed"
      results.withLock { $0.append(token) }
    }
    #expect(transport.requests.count == 1)
    #expect(results.withLock { $0 } == Array(repeating: "ghu_new", count: 10))
  }

  /// R44: bad_refresh_token marks the account expired, keeps it, throws exit 4, and does
  /// not retry; the next call does not try again either.
  @Test(arguments: ["bad_refresh_token", "invalid_grant"])
  func aDeadRefreshTokenEndsTheSession(code: String) throws {
    let credential = Self.expiring(expiresIn: -5)
    try seed(credential)
    let transport = FakeTransport()
    transport.on("POST", Self.tokenURL, respond: .json(#"{"error":"\#(code)"}"#))
    let error = try #require(throws: RefreshError.self) { try refresher(transport).usable(credential) }
    #expect(error == RefreshError(.sessionExpired, host: .gitHubDotCom))
    #expect(error.exitStatus == .notLoggedIn)
    #expect(transport.requests.count == 1)
    var expected = credential
    expected.isExpired = true
    #expect(try stored() == expected)

    let again = try #require(throws: RefreshError.self) { try refresher(NoNetwork()).usable(try stored()) }
    #expect(again.kind == .sessionExpired)
  }

  /// R44: a refresh token past its expiry is not sent; the session ends.
  @Test func anExpiredRefreshTokenIsNotSent() throws {
    let credential = Self.expiring(expiresIn: 60, refreshIn: -1)
    try seed(credential)
    let error = try #require(throws: RefreshError.self) { try refresher(NoNetwork()).usable(credential) }
    #expect(error.kind == .sessionExpired)
    #expect(try stored().isExpired)
  }

  @Test func anExpiredTokenWithoutRefreshTokenEndsTheSession() throws {
    var credential = Self.expiring(expiresIn: -1)
    credential.refreshToken = nil
    credential.refreshTokenExpiresAt = nil
    try seed(credential)
    let error = try #require(throws: RefreshError.self) { try refresher(NoNetwork()).usable(credential) }
    #expect(error.kind == .sessionExpired)
    #expect(try stored().isExpired)
  }

  @Test func aDueTokenWithoutRefreshTokenIsUsedWhileValid() throws {
    var credential = Self.expiring(expiresIn: 60)
    credential.refreshToken = nil
    credential.refreshTokenExpiresAt = nil
    try seed(credential)
    #expect(try refresher(NoNetwork()).usable(credential) == Refresher.Outcome(credential: credential))
  }

  /// R44: a network failure while the token is still valid: the current token is used, the
  /// failure is reported for a warning, and the file is not touched.
  @Test func aNetworkFailureKeepsAStillValidToken() throws {
    let credential = Self.expiring(expiresIn: 120)
    try seed(credential)
    let before = readFile(fixture.file)
    let transport = FakeTransport()
    transport.on("POST", Self.tokenURL) { _ in
      throw HTTPError.connect(host: "github.com", port: 443, reason: "Connection refused")
    }
    let outcome = try refresher(transport).usable(credential)
    #expect(outcome.credential == credential)
    #expect(!outcome.refreshed)
    let failure = try #require(outcome.deferredFailure)
    #expect(
      failure.reason(.words)
        == "token refresh at token_url \(Self.tokenURL): could not connect to github.com:443: Connection refused")
    #expect(failure.exitStatus == .failure)
    #expect(readFile(fixture.file) == before)
  }

  /// A failure that may pass, once the token has expired: exit 1, nothing changed, not marked.
  @Test(arguments: [0, 502])
  func aFailureWithAnExpiredTokenThrowsAndChangesNothing(status: Int) throws {
    let credential = Self.expiring(expiresIn: -1)
    try seed(credential)
    let before = readFile(fixture.file)
    let transport = FakeTransport()
    transport.on("POST", Self.tokenURL) { _ in
      if status == 0 { throw HTTPError.timedOut(host: "github.com", phase: .response) }
      return .typed("text/html", "<h1>Bad gateway</h1>", status: status)
    }
    let error = try #require(throws: RefreshError.self) { try refresher(transport).usable(credential) }
    #expect(error.exitStatus == .failure)
    #expect(error.message.hasPrefix("the token for github.com has expired and could not be refreshed: "))
    #expect(readFile(fixture.file) == before)
    #expect(transport.requests.count == 1)
  }

  /// A configuration error keeps its own exit status (2) and does not mark the session expired.
  @Test func rejectedClientCredentialsFailWithoutMarkingTheSessionExpired() throws {
    let credential = Self.expiring(expiresIn: -1)
    try seed(credential)
    let transport = FakeTransport()
    transport.on("POST", Self.tokenURL, respond: .json(#"{"error":"incorrect_client_credentials"}"#))
    let error = try #require(throws: RefreshError.self) { try refresher(transport).usable(credential) }
    #expect(error.exitStatus == .failure)
    #expect(!error.message.contains("the-secret"))
    #expect(try !stored().isExpired)
  }

  @Test func noClientIDWhileValidIsAWarningAndWhenExpiredAConfigurationError() throws {
    let valid = Self.expiring(expiresIn: 60)
    try seed(valid)
    let outcome = try refresher(NoNetwork(), app: nil).usable(valid)
    #expect(outcome.credential == valid)
    #expect(outcome.deferredFailure?.reason(.words) == "no client_id is configured for github.com in /cfg/config.json")

    let expired = Self.expiring(expiresIn: -1)
    try seed(expired)
    let error = try #require(throws: RefreshError.self) { try refresher(NoNetwork(), app: nil).usable(expired) }
    #expect(error.kind == .noClientID(configFile: "/cfg/config.json"))
    #expect(error.exitStatus == .usage)
    #expect(try stored() == expired)
  }

  @Test func anAccountLoggedOutMeanwhileIsNotLoggedIn() throws {
    let credential = Self.expiring(expiresIn: -1)
    try fixture.store().update { $0 = Credentials() }
    let error = try #require(throws: RefreshError.self) { try refresher(NoNetwork()).usable(credential) }
    #expect(error.kind == .accountGone(login: "octocat"))
    #expect(error.exitStatus == .notLoggedIn)
  }

  @Test func forceRefreshesATokenThatIsNotDue() throws {
    try seed(Self.expiring(expiresIn: 28_000))
    let transport = FakeTransport()
    transport.on("POST", Self.tokenURL, respond: Self.renewal)
    let outcome = try refresher(transport).refresh(login: "OctoCat", force: true)
    #expect(outcome.refreshed)
    #expect(try stored().token == "ghu_new")
  }

  /// A refresh answer that is not a usable token changes nothing (and is not a dead session).
  @Test func anUnusableAnswerChangesNothing() throws {
    let credential = Self.expiring(expiresIn: -1)
    try seed(credential)
    let before = readFile(fixture.file)
    let transport = FakeTransport()
    transport.on("POST", Self.tokenURL, respond: .json(#"{"access_token":"ghu_a b","token_type":"bearer"}"#))
    let error = try #require(throws: RefreshError.self) { try refresher(transport).usable(credential) }
    #expect(error.exitStatus == .failure)
    #expect(readFile(fixture.file) == before)
  }
}
