/// The refresh-token grant for expiring GitHub App user tokens (RFC 6749 §6; R41, R42, R44).
enum RefreshGrant {
  /// The form parameters of a refresh, in the order sent.
  ///
  /// `client_secret` is sent only when the app has one and the token did not come from the
  /// device flow: GitHub requires it for web-flow tokens and not for device-flow ones (R41),
  /// and a public CLI should send its secret no more often than it must.
  package static func parameters(refreshToken: String, app: OAuthApp, viaDeviceFlow: Bool) -> [(String, String)] {
    var params: [(String, String)] = [("client_id", app.clientID)]
    if !viaDeviceFlow, let secret = app.clientSecret, !secret.isEmpty { params.append(("client_secret", secret)) }
    params += [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
    return params
  }

  /// The OAuth error codes that mean the refresh token is dead for good: GitHub's
  /// `bad_refresh_token` (expired, revoked or already used) and RFC 6749's `invalid_grant`.
  static let deadTokenCodes: Set<String> = ["bad_refresh_token", "invalid_grant"]

  /// Whether `error` says the refresh token will never work again (R44), as opposed to a
  /// failure worth trying again later (network, 5xx) or a configuration problem.
  static func isDeadRefreshToken(_ error: any Error) -> Bool {
    guard let code = (error as? TokenError)?.oauthCode else { return false }
    return deadTokenCodes.contains(code)
  }
}

extension Credential {
  /// This account with the tokens of a refresh `response` received at `receivedAt` (Unix
  /// seconds), replacing both old tokens (R42: the old pair is never kept as a fallback).
  ///
  /// Expiry times are absolute, computed from the time of receipt (R40). An absent
  /// `refresh_token` leaves none (the old one is spent); absent scopes keep the stored ones
  /// (GitHub App tokens have none). The expired mark is cleared.
  package func refreshed(with response: TokenResponse, receivedAt: Double) -> Credential {
    var credential = self
    credential.token = response.accessToken
    credential.tokenType = response.tokenType
    if !response.scopes.isEmpty { credential.scopes = response.scopes }
    credential.createdAt = receivedAt
    credential.expiresAt = response.expiresIn.map { receivedAt + Double($0) }
    credential.refreshToken = response.refreshToken
    credential.refreshTokenExpiresAt = response.refreshTokenExpiresIn.map { receivedAt + Double($0) }
    credential.isExpired = false
    credential.gitHubExpiration = nil  // GitHub's expiry was the old token's
    return credential
  }
}
