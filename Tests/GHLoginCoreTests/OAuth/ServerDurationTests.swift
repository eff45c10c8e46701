import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// R89: every duration a server sends is clamped when parsed, and nothing that
/// formats or schedules a duration traps, whatever a server sent or a file holds.
@Suite struct ServerDurationTests {
  static let huge = [
    "9223372036854775807", "9223372036854775808", "18446744073709551616", String(repeating: "9", count: 400),
  ]
  static let endpoint = GitHubHost.gitHubDotCom.defaultEndpoints.token

  func token(_ body: String) throws -> TokenResponse {
    try TokenResponse.parse(.json(body), host: .gitHubDotCom, endpoint: Self.endpoint)
  }

  @Test(arguments: huge)
  func hugeTokenLifetimesAreClampedToTenYears(_ number: String) throws {
    let parsed = try token(
      #"{"access_token":"ghu_x","token_type":"bearer","expires_in":\#(number),"refresh_token":"ghr_y","#
        + #""refresh_token_expires_in":\#(number)}"#)
    #expect(parsed.expiresIn == ServerDuration.maxTokenLifetime)
    #expect(parsed.refreshTokenExpiresIn == ServerDuration.maxTokenLifetime)
    #expect(ServerDuration.maxTokenLifetime == 316_224_000)
    let form = try TokenResponse.parse(
      .typed("application/x-www-form-urlencoded", "access_token=ghu_x&token_type=bearer&expires_in=\(number)"),
      host: .gitHubDotCom, endpoint: Self.endpoint)
    #expect(form.expiresIn == ServerDuration.maxTokenLifetime)
  }

  @Test func ordinaryLifetimesAreKept() throws {
    let parsed = try token(
      #"{"access_token":"ghu_x","token_type":"bearer","expires_in":28800,"refresh_token_expires_in":"015811200"}"#)
    #expect(parsed.expiresIn == 28800)
    #expect(parsed.refreshTokenExpiresIn == 15_811_200)
  }

  @Test(arguments: ["-1", "-9223372036854775808", "1.5", "1e30", "\"12a\"", "\"\"", "true"])
  func nonIntegersAreStillRefused(_ value: String) {
    #expect(throws: TokenError(.invalidValue(field: "expires_in"), host: .gitHubDotCom, endpoint: Self.endpoint)) {
      try token(#"{"access_token":"ghu_x","token_type":"bearer","expires_in":\#(value)}"#)
    }
  }

  @Test(arguments: huge)
  func slowDownIntervalIsClamped(_ number: String) {
    #expect(
      throws: TokenError(
        .oauth(OAuthErrorBody(code: "slow_down", interval: ServerDuration.maxPollInterval)), host: .gitHubDotCom,
        endpoint: Self.endpoint)
    ) { try token(#"{"error":"slow_down","interval":\#(number)}"#) }
  }

  @Test(arguments: huge)
  func hugeDeviceCodeNumbersAreClamped(_ number: String) throws {
    let parsed = try DeviceAuthorization.parse(
      DeviceStub.codeAnswer(["expires_in": number, "interval": number]), host: .gitHubDotCom,
      endpoint: GitHubHost.gitHubDotCom.defaultEndpoints.deviceCode)
    #expect(parsed.expiresIn == 3600)
    #expect(parsed.interval == 300)
    #expect(DeviceFlowLogin.duration(Double(parsed.expiresIn)) == "60 minutes")
  }

  @Test func pacingNeverGrowsPastItsBounds() {
    var pacing = DeviceFlowPacing(interval: Int.max)
    #expect(pacing.interval == 300)
    pacing.slowDown(serverInterval: Int.max)
    #expect(pacing.interval == 305)
    for _ in 0..<100 { pacing.networkError() }
    #expect(pacing.wait.isFinite)
  }

  /// `Int(seconds)` trapped for 2^63 (exit 132 in `status` and `refresh`).
  @Test(arguments: [
    9.223372036854775808e18, 1.8446744073709552e19, 1e300, Double.greatestFiniteMagnitude, -1e300, .infinity,
    -.infinity, .nan,
  ])
  func durationTextNeverTraps(_ seconds: Double) {
    let text = DurationText.describe(seconds)
    #expect(!text.isEmpty)
    if seconds > 1e10 { #expect(text == "more than 100 years") }
    _ = DurationText.wholeSeconds(seconds, rounding: .up)
    _ = DeviceFlowLogin.duration(seconds)
  }

  @Test func durationTextOrdinaryValues() {
    #expect(DurationText.describe(28_740) == "7h 59m")
    #expect(DurationText.describe(3 * 86_400 + 5) == "3 days")
    #expect(DurationText.describe(59.9) == "59s")
    #expect(DurationText.wholeSeconds(.nan) == 0)
    #expect(DurationText.wholeSeconds(1e300) == 1 << 52)
  }

}
