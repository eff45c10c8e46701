import Testing

import GHLoginTestSupport

@testable import GHLoginCore

@Suite struct RefreshPolicyTests {
  static let now = 1_700_000_000.0

  /// An expiring account: token expires `expiresIn` seconds from now, refresh token (if any)
  /// `refreshIn` seconds from now.
  static func account(
    expiresIn: Double?, refresh: Bool = true, refreshIn: Double? = 15_811_200, expired: Bool = false
  ) -> Credential {
    var credential = sampleCredential(token: "ghu_current")
    credential.expiresAt = expiresIn.map { now + $0 }
    credential.refreshToken = refresh ? "ghr_current" : nil
    credential.refreshTokenExpiresAt = refresh ? refreshIn.map { now + $0 } : nil
    credential.isExpired = expired
    return credential
  }

  @Test(
    arguments: [
      // (expires in, has refresh token, refresh token expires in, marked expired, force, decision)
      (nil, false, nil, false, false, RefreshPolicy.Decision.use),  // OAuth app token: never expires
      (nil, false, nil, false, true, .use),  // forced, but nothing to refresh with
      (nil, true, nil, false, true, .refresh),  // forced, with a refresh token
      (28_800.0, true, 15_811_200.0, false, false, .use),  // 8 h left
      (301.0, true, 15_811_200.0, false, false, .use),  // just outside the margin
      (300.0, true, 15_811_200.0, false, false, .refresh),  // at the margin
      (60.0, true, 15_811_200.0, false, false, .refresh),  // R40–R42
      (-10.0, true, 15_811_200.0, false, false, .refresh),  // already expired, refresh token alive
      (28_800.0, true, 15_811_200.0, false, true, .refresh),  // forced
      (60.0, true, nil, false, false, .refresh),  // refresh token without expiry
      (60.0, true, -1.0, false, false, .sessionOver),  // refresh token past its expiry
      (60.0, true, 0.0, false, false, .sessionOver),  // refresh token expiring right now
      (60.0, false, nil, false, false, .useUntilExpiry),  // no refresh token, still valid
      (-1.0, false, nil, false, false, .sessionOver),  // no refresh token, expired
      (28_800.0, true, 15_811_200.0, true, false, .sessionOver),  // marked expired
      (nil, false, nil, true, true, .sessionOver),  // marked expired, forced
    ] as [(Double?, Bool, Double?, Bool, Bool, RefreshPolicy.Decision)])
  func decides(
    expiresIn: Double?, refresh: Bool, refreshIn: Double?, expired: Bool, force: Bool,
    decision: RefreshPolicy.Decision
  ) {
    let credential = Self.account(expiresIn: expiresIn, refresh: refresh, refreshIn: refreshIn, expired: expired)
    #expect(RefreshPolicy.decide(credential, now: Self.now, force: force) == decision)
  }

  @Test func theMarginIsFiveMinutes() {
    #expect(RefreshPolicy.margin == 300)
    let credential = Self.account(expiresIn: 600)
    #expect(RefreshPolicy.decide(credential, now: Self.now, margin: 900) == .refresh)
    #expect(RefreshPolicy.decide(credential, now: Self.now) == .use)
  }

  @Test func hasExpiredHasNoMargin() {
    #expect(!RefreshPolicy.hasExpired(Self.account(expiresIn: 1), now: Self.now))
    #expect(RefreshPolicy.hasExpired(Self.account(expiresIn: 0), now: Self.now))
    #expect(!RefreshPolicy.hasExpired(Self.account(expiresIn: nil), now: Self.now))
  }
}
