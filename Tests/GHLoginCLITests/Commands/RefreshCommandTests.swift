import Testing

import GHLoginTestSupport
@testable import GHLoginCLI

/// Automatic refresh in `token` and `whoami`, the `refresh` command, and how `status` shows
/// expiring and expired sessions.
@Suite(.verifiesFakes) struct RefreshCommandTests {
  typealias Fixture = LifecycleFixture
  let fixture: LifecycleFixture

  init() throws { fixture = try LifecycleFixture() }

  /// R40–R42: `token` with a token expiring in 60 s sends one refresh, stores the new pair, and
  /// only then prints the new token.
  @Test func tokenRefreshesAndStoresBeforePrinting() throws {
    try fixture.seed(Fixture.expiring(expiresIn: 60))
    let transport = FakeTransport()
    transport.on("POST", Fixture.tokenURL, respond: Fixture.renewal())
    let out = FileSnapshotOutput(file: fixture.store.file)
    let err = BufferOutput()
    let environment = Environment(
      arguments: ["token"], variables: EnvironmentVariables(fixture.variables), stdout: out, stderr: err,
      stdin: BufferInput(""),
      clock: fixture.clock, browser: RecordingBrowser(), transport: { _ in transport })
    #expect(GHLogin.main(environment: environment) == .success)
    #expect(out.text == "ghu_new\n")
    #expect(err.text.isEmpty)
    #expect(out.snapshots.count == 1)
    #expect(out.snapshots.first?.contains("\"ghu_new\"") == true)
    #expect(out.snapshots.first?.contains("\"ghr_new\"") == true)
    #expect(out.snapshots.first?.contains("ghu_old") == false)
    let form = try #require(transport.requests.first).formParameters
    #expect(form.first { $0.name == "grant_type" }?.value == "refresh_token")
    #expect(form.first { $0.name == "refresh_token" }?.value == "ghr_old")
    #expect(form.first { $0.name == "client_secret" }?.value == "the-secret")
  }

  @Test func tokenDoesNotRefreshATokenWithTimeLeft() throws {
    try fixture.seed(Fixture.expiring(expiresIn: 301))
    let run = fixture.run(["token"])
    #expect(run.status == .success)
    #expect(run.stdout == "ghu_old\n")
  }

  /// R44: a rejected refresh token: exit 4, nothing on stdout, the account kept but marked
  /// expired (shown by status), and no second attempt on the next call.
  @Test func tokenWithADeadRefreshTokenExits4AndMarksTheSession() throws {
    try fixture.seed(Fixture.expiring(expiresIn: -30))
    let transport = FakeTransport()
    transport.on("POST", Fixture.tokenURL, respond: .json(#"{"error":"bad_refresh_token"}"#))
    let run = fixture.run(["token"], transport: transport)
    #expect(run.status == .notLoggedIn)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == "ghlogin: the session for github.com expired; run 'ghlogin auth'\n")
    #expect(transport.requests.count == 1)
    #expect(try fixture.account()?.isExpired == true)
    #expect(try fixture.account()?.token == "ghu_old")

    let again = fixture.run(["token"])
    #expect(again.status == .notLoggedIn)
    #expect(again.stdout.isEmpty)

    // The active session expired, so status exits 4 (`status || auth`), with ✗.
    let status = fixture.run(["status", "--offline"])
    #expect(status.status == .notLoggedIn)
    #expect(status.stdout.contains("✗ octocat (active, session expired)\n"))
    #expect(
      status.stderr
        == "ghlogin: the session for github.com (octocat) has expired; run 'ghlogin auth --host github.com'\n")
    #expect(
      status.stdout.contains(
        "    session expired: the refresh token was refused or ran out; run 'ghlogin auth --host github.com'\n"))
    #expect(!status.stdout.contains("ghu_old"))
  }

  /// R44: the refresh fails on the network while the token is still valid: the current token
  /// is printed, with a warning on stderr, and the file is unchanged.
  @Test func tokenKeepsAStillValidTokenWhenTheNetworkFails() throws {
    try fixture.seed(Fixture.expiring(expiresIn: 120))
    let before = fixture.fileBytes
    let transport = FakeTransport()
    transport.on("POST", Fixture.tokenURL) { _ in throw HTTPError.resolve(host: "github.com", reason: "no network") }
    let run = fixture.run(["token"], transport: transport)
    #expect(run.status == .success)
    #expect(run.stdout == "ghu_old\n")
    #expect(
      run.stderr
        == "ghlogin: warning: could not refresh the token for github.com: token refresh at "
        + "\(Fixture.tokenURL): could not resolve github.com: no network; check your network connection; "
        + "using the current token, which expires in 2m\n")
    #expect(fixture.fileBytes == before)
  }

  @Test func tokenFailsWithExit1WhenTheNetworkFailsAfterExpiry() throws {
    try fixture.seed(Fixture.expiring(expiresIn: -1))
    let before = fixture.fileBytes
    let transport = FakeTransport()
    transport.on("POST", Fixture.tokenURL) { _ in throw HTTPError.resolve(host: "github.com", reason: "no network") }
    let run = fixture.run(["token"], transport: transport)
    #expect(run.status == .failure)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr
        == "ghlogin: the token for github.com has expired and could not be refreshed: token refresh at "
        + "\(Fixture.tokenURL): could not resolve github.com: no network; check your network connection. "
        + "The stored login was left as it was; try again later\n"
    )
    #expect(fixture.fileBytes == before)
  }

  /// R41 through the command: a device-flow login refreshes without the secret.
  @Test func tokenRefreshesADeviceFlowLoginWithoutTheSecret() throws {
    try fixture.seed(Fixture.expiring(expiresIn: 10, device: true))
    let transport = FakeTransport()
    transport.on("POST", Fixture.tokenURL, respond: Fixture.renewal())
    #expect(fixture.run(["token"], transport: transport).stdout == "ghu_new\n")
    #expect(
      try #require(transport.requests.first).formParameters.map(\.name) == ["client_id", "grant_type", "refresh_token"])
  }

  @Test func whoamiRefreshesThenAsksWithTheNewToken() throws {
    try fixture.seed(Fixture.expiring(expiresIn: -100))
    let transport = FakeTransport()
    transport.on("POST", Fixture.tokenURL, respond: Fixture.renewal())
    transport.on("GET", Fixture.userURL, respond: Fixture.user)
    let run = fixture.run(["whoami"], transport: transport)
    #expect(run.status == .success)
    #expect(run.stdout == "octocat (The Octocat) on github.com\n")
    #expect(transport.requests.last?.headers["Authorization"] == "Bearer ghu_new")
    #expect(try fixture.account()?.token == "ghu_new")
  }

  @Test func whoamiWithAnExpiredSessionExits4WithoutAsking() throws {
    var credential = Fixture.expiring(expiresIn: 3600)
    credential.isExpired = true
    try fixture.seed(credential)
    let run = fixture.run(["whoami"])
    #expect(run.status == .notLoggedIn)
    #expect(run.stderr == "ghlogin: the session for github.com expired; run 'ghlogin auth'\n")
  }

  @Test func refreshForcesARefreshOfATokenWithTimeLeft() throws {
    try fixture.seed(Fixture.expiring(expiresIn: 7 * 3600))
    let transport = FakeTransport()
    transport.on("POST", Fixture.tokenURL, respond: Fixture.renewal())
    let run = fixture.run(["refresh"], transport: transport)
    #expect(run.status == .success)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == "Refreshed the token for github.com (octocat); it expires in 8h 0m.\n")
    #expect(try fixture.account()?.token == "ghu_new")
  }

  @Test func refreshOfATokenThatCannotExpireSaysSo() throws {
    try fixture.seed(sampleCredential())
    let before = fixture.fileBytes
    let run = fixture.run(["refresh"])
    #expect(run.status == .success)
    #expect(run.stderr == "The token for github.com (octocat) does not expire; there is nothing to refresh.\n")
    #expect(fixture.fileBytes == before)
  }

  @Test func refreshOfAnExpiringTokenWithoutRefreshToken() throws {
    var credential = Fixture.expiring(expiresIn: 3600)
    credential.refreshToken = nil
    credential.refreshTokenExpiresAt = nil
    try fixture.seed(credential)
    let run = fixture.run(["refresh"])
    #expect(run.status == .success)
    #expect(
      run.stderr
        == "The token for github.com (octocat) cannot be refreshed: it came without a refresh token. "
        + "It expires in 1h 0m; run 'ghlogin auth' then.\n")

    var expired = credential
    expired.expiresAt = Fixture.now - 1
    try fixture.seed(expired)
    #expect(fixture.run(["refresh"]).status == .notLoggedIn)
  }

  @Test func refreshWithADeadRefreshTokenExits4() throws {
    try fixture.seed(Fixture.expiring(expiresIn: 3600))
    let transport = FakeTransport()
    transport.on("POST", Fixture.tokenURL, respond: .json(#"{"error":"invalid_grant"}"#))
    let run = fixture.run(["refresh"], transport: transport)
    #expect(run.status == .notLoggedIn)
    #expect(run.stderr == "ghlogin: the session for github.com expired; run 'ghlogin auth'\n")
    #expect(try fixture.account()?.isExpired == true)
  }

  @Test func refreshThatFailsWhileTheTokenStillWorksExits1AndKeepsIt() throws {
    try fixture.seed(Fixture.expiring(expiresIn: 3600))
    let before = fixture.fileBytes
    let transport = FakeTransport()
    transport.on("POST", Fixture.tokenURL, respond: .typed("text/plain", "busy", status: 503))
    let run = fixture.run(["refresh"], transport: transport)
    #expect(run.status == .failure)
    #expect(
      run.stderr.hasPrefix(
        "ghlogin: could not refresh the token for github.com: token refresh at token_url "
          + "https://github.com/login/oauth/access_token: github.com answered HTTP 503; try again later"))
    #expect(run.stderr.hasSuffix("The current token was kept; it expires in 1h 0m\n"))
    #expect(fixture.fileBytes == before)
  }

  /// R48 through the command: an Enterprise host refreshes at its own token endpoint, with the
  /// app of its `hosts` block.
  @Test func refreshOnAnEnterpriseHostUsesItsOwnEndpointAndApp() throws {
    try writeFile(
      fixture.store.paths.configFile,
      #"{"client_id": "Iv1.client", "client_secret": "the-secret", "hosts": {"ghe.test": {"client_id": "Iv1.ghe"}}}"#)
    try fixture.seed(Fixture.expiring(expiresIn: -1), host: "ghe.test")
    let transport = FakeTransport()
    transport.on("POST", "https://ghe.test/login/oauth/access_token", respond: Fixture.renewal())
    let run = fixture.run(["token", "--host", "GHE.test"], transport: transport)
    #expect(run.stdout == "ghu_new\n")
    let form = try #require(transport.requests.first).formParameters
    #expect(form.map(\.name) == ["client_id", "grant_type", "refresh_token"])
    #expect(form.first?.value == "Iv1.ghe")
  }

  @Test func statusShowsExpiryAndRefreshTokenExpiry() throws {
    var later = Fixture.expiring("hubot", token: "ghu_hubot0000000000000000001", expiresIn: -60)
    later.userID = 2
    var credentials = sampleCredentials(Fixture.expiring(expiresIn: 3 * 3600))
    credentials.save(later, on: "github.com")
    credentials.hosts["github.com"]?.activeLogin = "octocat"
    try fixture.seed(credentials)
    let run = fixture.run(["status", "--offline"])
    #expect(run.status == .success)
    #expect(run.stdout.contains("    expires: in 3h 0m\n    refresh token: expires in 183 days\n"))
    #expect(run.stdout.contains("    expires: expired (refreshed on next use)\n"))
  }
}
