import Foundation
import Testing

/// Expiring GitHub App tokens against the fake: refresh on use, the single-use rotation race
/// (R43), dead refresh tokens and network failures (R44) and device-flow refreshes (R41).
@Suite struct RefreshEndToEndTests {
  static let old = "ghu_e2eOLDtoken000000000000000000000001"
  static let oldRefresh = "ghr_e2eOLDrefresh0000000000000000000000000000000000000000000000000000001"

  /// A fake and a sandbox with octocat's expiring login stored: `old` stored as expiring in
  /// `storedExpiresIn` seconds, and the pair `old`/`oldRefresh` known to the fake for `validFor`.
  func expiringLogin(storedExpiresIn: Double, validFor: Int = 60) throws -> (FakeGitHub, Sandbox) {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    try fake.registerExpiringPair(access: Self.old, refresh: Self.oldRefresh, expiresIn: validFor)
    try sandbox.writeCredentials([
      expiringAccount(token: Self.old, refresh: Self.oldRefresh, expiresIn: storedExpiresIn)
    ])
    return (fake, sandbox)
  }

  /// R40: a login that gets an expiring token stores both expiries as absolute times, and the
  /// refresh token; `status` shows them.
  @Test func anExpiringLoginStoresItsExpiries() throws {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    try fake.script(["token": ["expiring": true]])
    let child = try startGHLogin(["auth", "--no-browser"], env: sandbox.environment(), stdin: "")
    let url = try child.waitForLine(.stderr, timeout: 30) { $0.hasPrefix("https://") }
    _ = try runBrowser(url: url, fake: fake)
    let login = try child.finish(timeout: 30)
    #expect(login.status == 0, "\(login.stderr)")
    let now = Date().timeIntervalSince1970
    let stored = try #require(sandbox.storedAccounts().first)
    #expect((stored["token"] as? String)?.hasPrefix("ghu_") == true)
    #expect((stored["refresh_token"] as? String)?.hasPrefix("ghr_") == true)
    #expect(abs((stored["expires_at"] as? Double ?? 0) - (now + 28_800)) < 120)
    #expect(abs((stored["refresh_token_expires_at"] as? Double ?? 0) - (now + 15_811_200)) < 120)
    // Two apps on one host (SECURITY.md): the app that issued the login, which alone may refresh it; so version 2.
    #expect(stored["client_id"] as? String == "Iv1.testclient")
    #expect(sandbox.credentialsJSON()?["version"] as? Int == 2)
    let status = try runGHLogin(["status"], env: sandbox.environment())
    #expect(
      status.stdout.contains("    expires: in 7h 59m\n    refresh token: expires in 182 days\n"), "\(status.stdout)")
  }

  /// Two apps on one host (R111), on the built binary: an expired login another app made (its
  /// `client_id` is not the configured one) is not this binary's login: it is neither used nor
  /// refreshed with the configured app: exit 4, the message says what to run, nothing reaches the
  /// fake, and the file is byte for byte as it was.
  @Test func anExpiredLoginOfAnotherAppIsNotRefreshed() throws {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    try fake.registerExpiringPair(access: Self.old, refresh: Self.oldRefresh, expiresIn: 60)
    var account = expiringAccount(token: Self.old, refresh: Self.oldRefresh, expiresIn: -10)
    account["client_id"] = "Iv1.otherapp"
    try sandbox.writeCredentials([account])
    let before = sandbox.credentialsBytes()
    let run = try runGHLogin(["token"], env: sandbox.environment())
    #expect(run.status == 4, "\(run.stderr)")
    #expect(run.stdout == "")
    #expect(run.stderr == "ghlogin: not logged in to github.test; run 'ghlogin auth --host github.test'\n")
    #expect(try fake.requests().isEmpty)
    #expect(sandbox.credentialsBytes() == before)
  }

  /// R43, R66 with `token`: ten concurrent `ghlogin token` with an expired token make exactly
  /// one refresh request, and all ten print the same new token, which is stored and works.
  @Test func tenConcurrentTokenCallsRefreshOnce() throws {
    let (fake, sandbox) = try expiringLogin(storedExpiresIn: -10, validFor: 1)

    let children = try (0..<10).map { _ in try startGHLogin(["token"], env: sandbox.environment(), stdin: "") }
    let results = try children.map { try $0.finish(timeout: 60) }
    for result in results {
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stderr.isEmpty)
    }
    let printed = Set(results.map(\.stdout))
    #expect(printed.count == 1)
    let token = try #require(printed.first?.split(separator: "\n").first.map(String.init))
    #expect(token.hasPrefix("ghu_") && token != Self.old)
    #expect(try fake.counter("refresh_requests") == 1)
    #expect(try fake.counter("refresh_successes") == 1)

    let refresh = try #require(try fake.requests(path: "/login/oauth/access_token").first)
    #expect(refresh.formValue("grant_type") == "refresh_token")
    #expect(refresh.formValue("refresh_token") == Self.oldRefresh)
    #expect(refresh.formValue("client_id") == "Iv1.testclient")
    #expect(refresh.formValue("client_secret") == "testsecret-s3cr3t")  // R41: web-flow token

    let stored = try #require(sandbox.storedAccounts().first)
    #expect(stored["token"] as? String == token)
    #expect((stored["refresh_token"] as? String)?.hasPrefix("ghr_") == true)
    #expect(stored["refresh_token"] as? String != Self.oldRefresh)
    let expiresAt = try #require(stored["expires_at"] as? Double)
    #expect(abs(expiresAt - (Date().timeIntervalSince1970 + 28_800)) < 120)

    let whoami = try runGHLogin(["whoami"], env: sandbox.environment())
    #expect(whoami.status == 0, "\(whoami.stderr)")
    #expect(whoami.stdout == "octocat (The Octocat) on github.test\n")
    #expect(try fake.counter("refresh_requests") == 1)
  }

  /// The refresh works but the file cannot be written (the rename fails with EIO): the new pair
  /// is not used (R42: saved before used), the file is as it was, and since the refresh token it
  /// replaced is spent the message says the stored login no longer works and what to run. Exit 1,
  /// nothing on stdout, no secret in the message; `token` and `refresh` alike.
  @Test(arguments: [("token", -10.0), ("refresh", 3600.0)])
  func aRefreshThatCannotBeSavedSaysTheLoginIsSpent(_ command: String, storedExpiresIn: Double) throws {
    let (fake, sandbox) = try expiringLogin(storedExpiresIn: storedExpiresIn, validFor: 3600)
    let before = sandbox.credentialsBytes()
    let run = try runGHLogin([command], env: sandbox.environment(["GHLOGIN_TEST_FAULT": "rename"]))
    #expect(run.status == 1, "\(run.stderr)")
    #expect(run.stdout.isEmpty)
    #expect(try fake.counter("refresh_successes") == 1)
    #expect(
      run.stderr.hasPrefix(
        "ghlogin: the token for github.test was refreshed, but the new one could not be saved: "),
      "\(run.stderr)")
    #expect(
      run.stderr.hasSuffix(
        ". The refresh token it replaced is spent, so the stored login no longer works; once that is fixed run "
          + "'ghlogin auth --host github.test'\n"), "\(run.stderr)")
    #expect(!run.stderr.contains("ghu_") && !run.stderr.contains("ghr_"))
    #expect(sandbox.credentialsBytes() == before, "the file is as it was")
  }

  /// R44: the fake no longer accepts the refresh token: exit 4, nothing on stdout, the login is
  /// kept but marked expired, status says so, and the next call does not try again.
  @Test func aDeadRefreshTokenEndsTheSession() throws {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    try sandbox.writeCredentials([expiringAccount(token: Self.old, refresh: "ghr_unknown", expiresIn: -10)])

    let first = try runGHLogin(["token"], env: sandbox.environment())
    #expect(first.status == 4)
    #expect(first.stdout.isEmpty)
    #expect(first.stderr == "ghlogin: the session for github.test expired; run 'ghlogin auth --host github.test'\n")
    #expect(sandbox.storedAccounts().first?["expired"] as? Bool == true)
    #expect(sandbox.storedAccounts().first?["token"] as? String == Self.old)

    let second = try runGHLogin(["token"], env: sandbox.environment())
    #expect(second.status == 4)
    #expect(try fake.counter("refresh_requests") == 1)

    let status = try runGHLogin(["status"], env: sandbox.environment())
    #expect(status.stdout.contains("octocat (active, session expired)"))
  }

  /// R44: the refresh is due but the connection drops while the token is still valid: the
  /// current token is printed with a warning, and the file is unchanged.
  @Test func aNetworkFailureKeepsAStillValidToken() throws {
    let (fake, sandbox) = try expiringLogin(storedExpiresIn: 120, validFor: 120)
    try fake.script(["responses": ["refresh": ["drop"]]])
    let before = sandbox.credentialsBytes()

    let result = try runGHLogin(["token"], env: sandbox.environment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == Self.old + "\n")
    #expect(result.stderr.hasPrefix("ghlogin: warning: could not refresh the token for github.test: "))
    #expect(sandbox.credentialsBytes() == before)
    #expect(try fake.counter("refresh_requests") == 1)
  }

  /// The same failure after the token expired: exit 1, nothing printed, file unchanged.
  @Test func aNetworkFailureAfterExpiryFails() throws {
    let (fake, sandbox) = try expiringLogin(storedExpiresIn: -1)
    try fake.script(["responses": ["refresh": [502]]])
    let before = sandbox.credentialsBytes()

    let result = try runGHLogin(["token"], env: sandbox.environment())
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("has expired and could not be refreshed"))
    #expect(sandbox.credentialsBytes() == before)
  }

  /// R41: a device-flow login refreshes without the client secret (the fake notes it if sent).
  @Test func aDeviceFlowLoginRefreshesWithoutTheSecret() throws {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    try fake.registerExpiringPair(access: Self.old, refresh: Self.oldRefresh, origin: "device")
    try sandbox.writeCredentials([
      expiringAccount(token: Self.old, refresh: Self.oldRefresh, expiresIn: 30, device: true)
    ])

    let result = try runGHLogin(["token"], env: sandbox.environment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("ghu_") && result.stdout != Self.old + "\n")
    let refresh = try #require(try fake.requests(path: "/login/oauth/access_token").first)
    #expect(refresh.formValue("client_secret") == nil)
    #expect(refresh["notes"] == nil)
    #expect(sandbox.storedAccounts().first?["via_device_flow"] as? Bool == true)
  }

  /// `ghlogin refresh` spends the refresh token even with hours left; the old pair dies.
  @Test func refreshCommandForcesARotation() throws {
    let (fake, sandbox) = try expiringLogin(storedExpiresIn: 28_000, validFor: 28_000)

    let result = try runGHLogin(["refresh", "--host", "github.test"], env: sandbox.environment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("Refreshed the token for github.test (octocat); it expires in 7h 59m"))
    #expect(try fake.tokenRecord(Self.old)?["revoked"] as? Bool == true)
    let token = try runGHLogin(["token"], env: sandbox.environment())
    #expect(token.stdout.hasPrefix("ghu_") && token.stdout != Self.old + "\n")
    #expect(try fake.counter("refresh_requests") == 1)
  }
}
