import Testing

import GHLoginTestSupport
@testable import GHLoginKit

/// The library's token calls: `token()` is async and refreshes off the cooperative pool,
/// `freshToken()` is the synchronous read of a token that needs no refresh, `refreshedToken()`
/// forces one, and `reportRejected(_:)` applies R102's check to a 401 a tool saw.
@Suite(.verifiesFakes) struct GitHubLoginTokenTests {
  typealias Fixture = LifecycleFixture
  let fixture: LifecycleFixture
  let transport = FakeTransport()

  init() throws { fixture = try LifecycleFixture() }

  func github() throws -> GitHubLogin {
    let transport = transport
    return try GitHubLogin(
      environment: Environment(
        arguments: [], variables: EnvironmentVariables(fixture.variables), stdout: BufferOutput(),
        stderr: BufferOutput(),
        stdin: BufferInput(""), clock: fixture.clock, browser: RecordingBrowser(), transport: { _ in transport }))
  }

  @Test func freshTokenReadsATokenThatIsNotDue() throws {
    try fixture.seed(sampleCredential())
    let token = try #require(try github().freshToken())
    #expect(token.value == "gho_16C7e42F292c6912E7710c838347Ae178B4a")
    #expect(token.apiURL == "https://api.github.com")
    #expect(transport.requests.isEmpty)
  }

  @Test func freshTokenIsNilWhenARefreshIsDueAndSendsNothing() throws {
    try fixture.seed(Fixture.expiring(expiresIn: 60))
    let before = fixture.fileBytes
    #expect(try github().freshToken() == nil)
    #expect(transport.requests.isEmpty)
    #expect(fixture.fileBytes == before)
  }

  @Test func freshTokenWithoutALoginThrowsNotLoggedIn() throws {
    #expect {
      _ = try github().freshToken()
    } throws: { error in
      let error = try #require(error as? GitHubLoginError)
      return error.kind == .notLoggedIn && error.message == "not logged in to github.com; log in first"
    }
  }

  @Test func tokenRefreshesADueTokenAndStoresItFirst() async throws {
    try fixture.seed(Fixture.expiring(expiresIn: 60))
    transport.on("POST", Fixture.tokenURL, respond: Fixture.renewal())
    let token = try await github().token()
    #expect(token.value == "ghu_new")
    #expect(try fixture.account()?.token == "ghu_new")
    #expect(try fixture.account()?.refreshToken == "ghr_new")
  }

  @Test func refreshedTokenRefreshesATokenThatWasNotDue() async throws {
    try fixture.seed(Fixture.expiring(expiresIn: 6 * 3600))
    transport.on("POST", Fixture.tokenURL, respond: Fixture.renewal())
    let token = try await github().refreshedToken()
    #expect(token.value == "ghu_new")
    #expect(try fixture.account()?.token == "ghu_new")
  }

  @Test func refreshedTokenWithoutARefreshTokenSaysSoAndChangesNothing() async throws {
    try fixture.seed(sampleCredential())
    let before = fixture.fileBytes
    let github = try github()
    do {
      _ = try await github.refreshedToken()
      Issue.record("a token without a refresh token was refreshed")
    } catch let error as GitHubLoginError {
      #expect(error.kind == .tokenRejected)
      #expect(
        error.message
          == "the token for github.com (octocat) cannot be refreshed: it came without a refresh token; "
          + "log in again for a new one")
    }
    #expect(fixture.fileBytes == before)
    #expect(transport.requests.isEmpty)
  }

  /// A 401 a tool saw removes the login only when `/user` rejects that exact token now.
  @Test func reportRejectedForgetsATokenTheAPIRejects() async throws {
    try fixture.seed(sampleCredential())
    transport.on("GET", Fixture.userURL, respond: .json(#"{"message":"Bad credentials"}"#, status: 401))
    let github = try github()
    let token = try #require(try github.freshToken())
    #expect(try await github.reportRejected(token) == .forgotten)
    #expect(try fixture.account() == nil)
  }

  @Test func reportRejectedKeepsATokenTheAPIAccepts() async throws {
    try fixture.seed(sampleCredential())
    transport.on("GET", Fixture.userURL, respond: Fixture.user)
    let github = try github()
    let token = try #require(try github.freshToken())
    let before = fixture.fileBytes
    #expect(try await github.reportRejected(token) == .accepted)
    #expect(fixture.fileBytes == before)
  }

  @Test func reportRejectedKeepsALoginWhenTheCheckFails() async throws {
    try fixture.seed(sampleCredential())
    transport.on("GET", Fixture.userURL, respond: .json(#"{"message":"oops"}"#, status: 502))
    let github = try github()
    let token = try #require(try github.freshToken())
    let before = fixture.fileBytes
    guard case .unchecked = try await github.reportRejected(token) else {
      Issue.record("a 502 was not 'unchecked'")
      return
    }
    #expect(fixture.fileBytes == before)
  }
}
