import Testing

import GHLoginTestSupport
@testable import GHLoginCLI
@testable import GHLoginCore
@testable import GHLoginKit

/// Two apps on one host (SECURITY.md) through the command line, which has no app in mind: it takes the host's active
/// account as always, but a login made by another OAuth app than the configured one
/// (`Iv1.client` here) is never refreshed with the configured app's credentials.
@Suite(.verifiesFakes) struct OtherAppLoginTests {
  typealias Fixture = LifecycleFixture
  let fixture: LifecycleFixture

  init() throws { fixture = try LifecycleFixture() }

  /// octocat's expiring login, made by the app `clientID`.
  static func login(expiresIn: Double, clientID: String? = "Iv1.appA") -> Credential {
    var credential = Fixture.expiring(expiresIn: expiresIn)
    credential.clientID = clientID
    return credential
  }

  static let expiredMessage =
    "ghlogin: the token for github.com (octocat) has expired and cannot be refreshed here: octocat logged in with "
    + "another OAuth app (client ID Iv1.appA) than the configured one (Iv1.client), and a refresh token is only "
    + "sent with the app that issued it. Run 'ghlogin auth --user octocat' to log in with the configured app\n"

  @Test func anExpiredLoginOfAnotherAppFailsWithoutARequest() throws {
    try fixture.seed(Self.login(expiresIn: -1))
    let before = fixture.fileBytes
    let transport = FakeTransport()
    let run = fixture.run(["token"], transport: transport)
    #expect(run.status == .notLoggedIn)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == Self.expiredMessage)
    #expect(transport.requests.isEmpty)
    #expect(fixture.fileBytes == before)
    #expect(fixture.fileText.contains(#""version": 2"#))
  }

  /// git's helper says why on stderr and answers nothing, as for any token it cannot give.
  @Test func gitCredentialGetAnswersNothingForAnExpiredLoginOfAnotherApp() throws {
    try fixture.seed(Self.login(expiresIn: -1))
    let before = fixture.fileBytes
    let transport = FakeTransport()
    let out = BufferOutput()
    let err = BufferOutput()
    let environment = Environment(
      arguments: ["git-credential", "get"], variables: fixture.variables, stdout: out, stderr: err,
      stdin: BufferInput("protocol=https\nhost=github.com\n\n"), clock: fixture.clock, browser: RecordingBrowser(),
      transport: { _ in transport })
    let status = GHLogin.main(environment: environment)
    #expect(status == .success)
    #expect(out.text.isEmpty)
    #expect(err.text == Self.expiredMessage)
    #expect(transport.requests.isEmpty)
    #expect(fixture.fileBytes == before)
  }

  @Test func aStillValidLoginOfAnotherAppIsPrintedWithAWarning() throws {
    try fixture.seed(Self.login(expiresIn: 120))
    let before = fixture.fileBytes
    let transport = FakeTransport()
    let run = fixture.run(["token"], transport: transport)
    #expect(run.status == .success)
    #expect(run.stdout == "ghu_old\n")
    #expect(
      run.stderr
        == "ghlogin: warning: could not refresh the token for github.com: octocat logged in with another OAuth app "
        + "(client ID Iv1.appA) than the configured one (Iv1.client), and its refresh token is only sent with the "
        + "app that issued it; using the current token, which expires in 2m\n")
    #expect(transport.requests.isEmpty)
    #expect(fixture.fileBytes == before)
  }

  @Test func refreshOfAnotherAppsLoginSendsNothing() throws {
    try fixture.seed(Self.login(expiresIn: 3600))
    let before = fixture.fileBytes
    let transport = FakeTransport()
    let run = fixture.run(["refresh"], transport: transport)
    #expect(run.status == .notLoggedIn)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr
        == "ghlogin: could not refresh the token for github.com: octocat logged in with another OAuth app (client ID "
        + "Iv1.appA) than the configured one (Iv1.client), and its refresh token is only sent with the app that "
        + "issued it. The current token was kept; it expires in 1h 0m\n")
    #expect(transport.requests.isEmpty)
    #expect(fixture.fileBytes == before)
  }

  /// The configured app's own login refreshes as always, and keeps its client ID.
  @Test func theConfiguredAppsOwnLoginRefreshes() throws {
    try fixture.seed(Self.login(expiresIn: 60, clientID: "Iv1.client"))
    let transport = FakeTransport()
    transport.on("POST", Fixture.tokenURL, respond: Fixture.renewal())
    let run = fixture.run(["token"], transport: transport)
    #expect(run.status == .success)
    #expect(run.stdout == "ghu_new\n")
    #expect(try fixture.account()?.clientID == "Iv1.client")
    #expect(transport.requests.first?.formParameters.first { $0.name == "client_id" }?.value == "Iv1.client")
  }

  /// A token stored with `--with-token` has no client ID, and the file stays version 1.
  @Test func withTokenStoresNoClientID() throws {
    let transport = FakeTransport()
    transport.on("GET", Fixture.userURL, respond: Fixture.user)
    let out = BufferOutput()
    let err = BufferOutput()
    let environment = Environment(
      arguments: ["auth", "--with-token"], variables: fixture.variables, stdout: out, stderr: err,
      stdin: BufferInput("gho_pasted\n"), clock: fixture.clock, browser: RecordingBrowser(),
      transport: { _ in transport })
    #expect(GHLogin.main(environment: environment) == .success, "\(err.text)")
    #expect(try fixture.account()?.token == "gho_pasted")
    #expect(try fixture.account()?.clientID == nil)
    #expect(fixture.fileText.contains(#""version": 1"#))
    #expect(!fixture.fileText.contains("client_id"))
  }

  /// `logout` does not send another app's tokens to be revoked with the configured app's
  /// credentials (GitHub's 404 to them would look like "already invalid"): it says the token may
  /// still be valid and names the page of the app that issued it; the login is removed.
  @Test func logoutDoesNotRevokeAnotherAppsTokenWithTheConfiguredApp() throws {
    try fixture.seed(Self.login(expiresIn: 3600))
    let transport = FakeTransport()
    let run = fixture.run(["logout"], transport: transport)
    #expect(run.status == .success)
    #expect(
      run.stderr
        == "ghlogin: warning: could not revoke the token at github.com: it was issued to another OAuth app (client ID "
        + "Iv1.appA) than the configured one (Iv1.client), which cannot revoke it. The token may still be valid; "
        + "revoke it by hand at https://github.com/settings/connections/applications/Iv1.appA\n"
        + "Logged out of github.com as octocat\n")
    #expect(transport.requests.isEmpty)
    #expect(try fixture.load().hosts.isEmpty)
  }

  /// A new login that replaces another app's login of the same account does not revoke the old
  /// token with the configured app either; it warns instead.
  @Test func aLoginReplacingAnotherAppsLoginDoesNotRevokeItWithTheConfiguredApp() throws {
    try fixture.seed(Self.login(expiresIn: 3600))
    let transport = FakeTransport()
    transport.on("GET", Fixture.userURL, respond: Fixture.user)
    let out = BufferOutput()
    let err = BufferOutput()
    let environment = Environment(
      arguments: ["auth", "--with-token"], variables: fixture.variables, stdout: out, stderr: err,
      stdin: BufferInput("gho_pasted\n"), clock: fixture.clock, browser: RecordingBrowser(),
      transport: { _ in transport })
    #expect(GHLogin.main(environment: environment) == .success)
    #expect(
      err.text.contains(
        "ghlogin: warning: could not revoke the previous token of octocat at github.com: it was issued to another "
          + "OAuth app (client ID Iv1.appA) than the configured one (Iv1.client), which cannot revoke it. It may "
          + "still be valid; revoke it by hand at https://github.com/settings/connections/applications/Iv1.appA\n"),
      "\(err.text)")
    #expect(transport.requests.map(\.method) == ["GET"])
    #expect(try fixture.account()?.token == "gho_pasted")
    #expect(try fixture.account()?.clientID == nil)
  }
}
