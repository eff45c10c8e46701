import Testing

import GHLoginTestSupport

@testable import GHLoginCore

@Suite struct RefreshGrantTests {
  let app = OAuthApp(clientID: "Iv1.client", clientSecret: "the-secret")

  /// R41: a web-flow token's refresh carries the client secret.
  @Test func webFlowRefreshSendsTheSecret() {
    let params = RefreshGrant.parameters(refreshToken: "ghr_abc", app: app, viaDeviceFlow: false)
    #expect(params.map(\.0) == ["client_id", "client_secret", "grant_type", "refresh_token"])
    #expect(params.map(\.1) == ["Iv1.client", "the-secret", "refresh_token", "ghr_abc"])
  }

  /// R41: a device-flow token's refresh never carries the client secret.
  @Test func deviceFlowRefreshOmitsTheSecret() {
    let params = RefreshGrant.parameters(refreshToken: "ghr_abc", app: app, viaDeviceFlow: true)
    #expect(params.map(\.0) == ["client_id", "grant_type", "refresh_token"])
    #expect(!params.contains { $0.1 == "the-secret" })
  }

  @Test func anAppWithoutSecretSendsNone() {
    for secret in [nil, ""] as [String?] {
      let params = RefreshGrant.parameters(
        refreshToken: "ghr_abc", app: OAuthApp(clientID: "Iv1.client", clientSecret: secret), viaDeviceFlow: false)
      #expect(params.map(\.0) == ["client_id", "grant_type", "refresh_token"])
    }
  }

  @Test(arguments: [
    ("bad_refresh_token", true), ("invalid_grant", true), ("incorrect_client_credentials", false),
    ("unsupported_grant_type", false), ("invalid_request", false),
  ])
  func deadRefreshTokenCodes(code: String, dead: Bool) throws {
    let error = TokenError(
      .oauth(OAuthErrorBody(code: code)), host: .gitHubDotCom,
      endpoint: try WebURL(parsing: "https://github.com/login/oauth/access_token"))
    #expect(RefreshGrant.isDeadRefreshToken(error) == dead)
  }

  @Test func failuresThatMayPassAreNotDead() throws {
    let endpoint = try WebURL(parsing: "https://github.com/login/oauth/access_token")
    #expect(!RefreshGrant.isDeadRefreshToken(HTTPError.connect(host: "github.com", port: 443, reason: "refused")))
    #expect(!RefreshGrant.isDeadRefreshToken(TokenError(.httpStatus(502), host: .gitHubDotCom, endpoint: endpoint)))
  }

  /// R40, R42: both tokens are replaced and the expiries count from the time of receipt.
  @Test func refreshedReplacesBothTokensAndExpiries() {
    var old = sampleCredential(token: "ghu_old")
    old.refreshToken = "ghr_old"
    old.expiresAt = 1_700_000_100
    old.refreshTokenExpiresAt = 1_715_000_000
    old.viaDeviceFlow = true
    old.isExpired = true
    let response = TokenResponse(
      accessToken: "ghu_new", expiresIn: 28_800, refreshToken: "ghr_new", refreshTokenExpiresIn: 15_811_200)
    let renewed = old.refreshed(with: response, receivedAt: 1_700_000_050)
    #expect(renewed.token == "ghu_new")
    #expect(renewed.refreshToken == "ghr_new")
    #expect(renewed.expiresAt == 1_700_028_850.0)
    #expect(renewed.refreshTokenExpiresAt == 1_715_811_250.0)
    #expect(renewed.createdAt == 1_700_000_050)
    #expect(renewed.scopes == old.scopes)
    #expect(renewed.login == old.login && renewed.userID == old.userID)
    #expect(renewed.viaDeviceFlow)
    #expect(!renewed.isExpired)
  }

  /// R42: a response without a refresh token leaves none; the spent one is not kept.
  @Test func refreshedNeverKeepsTheOldPair() {
    var old = sampleCredential(token: "ghu_old")
    old.refreshToken = "ghr_old"
    old.expiresAt = 1_700_000_100
    old.refreshTokenExpiresAt = 1_715_000_000
    let renewed = old.refreshed(
      with: TokenResponse(accessToken: "gho_new", scopes: ["repo"]), receivedAt: 1_700_000_000)
    #expect(renewed.token == "gho_new")
    #expect(renewed.refreshToken == nil)
    #expect(renewed.refreshTokenExpiresAt == nil)
    #expect(renewed.expiresAt == nil)
    #expect(renewed.scopes == ["repo"])
  }
}
