import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// GHLoginCoreTests' `ServerDurationTests` through the commands: a huge expiry does not trap.
@Suite struct ServerDurationCommandTests {
  /// A stored login from today's builds: `created_at + 2^63` as its expiry. `status`, `refresh`
  /// and the refresh decision run without trapping.
  @Test func storedHugeExpiryDoesNotTrapStatusOrRefresh() throws {
    let fixture = try LifecycleFixture()
    var credential = LifecycleFixture.expiring(expiresIn: 9.223372036854775807e18)
    credential.refreshTokenExpiresAt = 1.7e9 + 9.223372036854775807e18
    try fixture.seed(credential)
    let status = fixture.run(["status", "--offline"])
    #expect(status.status == .success)
    #expect(status.stdout.contains("expires: in more than 100 years"), "\(status.stdout)")
    #expect(status.stdout.contains("refresh token: expires in more than 100 years"))
    let json = fixture.run(["status", "--json", "--offline"])
    #expect(json.status == .success)
    _ = try JSON.parse(json.stdout)
    credential.refreshToken = nil
    try fixture.seed(credential)
    let refresh = fixture.run(["refresh"])
    #expect(refresh.stderr.contains("It expires in more than 100 years"), "\(refresh.stderr)")
    #expect(RefreshPolicy.decide(credential, now: 1.7e9) == .use)
  }
}
