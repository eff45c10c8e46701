import Testing

import GHLoginTestSupport
@testable import GHLoginCLI

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

  /// `arguments` run on octocat's login made by app A, expiring in `expiresIn` seconds: no
  /// request is sent and the file is unchanged.
  func runSendingNothing(
    _ arguments: [String], expiresIn: Double, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> CommandRun {
    try fixture.seed(Self.login(expiresIn: expiresIn))
    let before = fixture.fileBytes
    let transport = FakeTransport()
    let run =
      arguments == ["git-credential", "get"]
      ? fixture.gitCredentialGet(transport: transport) : fixture.run(arguments, transport: transport)
    #expect(transport.requests.isEmpty, sourceLocation: sourceLocation)
    #expect(fixture.fileBytes == before, sourceLocation: sourceLocation)
    return run
  }

  @Test func anExpiredLoginOfAnotherAppFailsWithoutARequest() throws {
    let run = try runSendingNothing(["token"], expiresIn: -1)
    #expect(run.status == .notLoggedIn)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == Self.expiredMessage)
    #expect(fixture.fileText.contains(#""version": 2"#))
  }

  /// git's helper says why on stderr and answers nothing, as for any token it cannot give.
  @Test func gitCredentialGetAnswersNothingForAnExpiredLoginOfAnotherApp() throws {
    let run = try runSendingNothing(["git-credential", "get"], expiresIn: -1)
    #expect(run.status == .success)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == Self.expiredMessage)
  }

  @Test func aStillValidLoginOfAnotherAppIsPrintedWithAWarning() throws {
    let run = try runSendingNothing(["token"], expiresIn: 120)
    #expect(run.status == .success)
    #expect(run.stdout == "ghu_old\n")
    #expect(
      run.stderr
        == "ghlogin: warning: could not refresh the token for github.com: octocat logged in with another OAuth app "
        + "(client ID Iv1.appA) than the configured one (Iv1.client), and its refresh token is only sent with the "
        + "app that issued it; using the current token, which expires in 2m\n")
  }

  @Test func refreshOfAnotherAppsLoginSendsNothing() throws {
    let run = try runSendingNothing(["refresh"], expiresIn: 3600)
    #expect(run.status == .notLoggedIn)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr
        == "ghlogin: could not refresh the token for github.com: octocat logged in with another OAuth app (client ID "
        + "Iv1.appA) than the configured one (Iv1.client), and its refresh token is only sent with the app that "
        + "issued it. The current token was kept; it expires in 1h 0m\n")
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
    let run = fixture.run(["auth", "--with-token"], stdin: "gho_pasted\n", transport: transport)
    #expect(run.status == .success, "\(run.stderr)")
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
    let run = fixture.run(["auth", "--with-token"], stdin: "gho_pasted\n", transport: transport)
    #expect(run.status == .success)
    #expect(
      run.stderr.contains(
        "ghlogin: warning: could not revoke the previous token of octocat at github.com: it was issued to another "
          + "OAuth app (client ID Iv1.appA) than the configured one (Iv1.client), which cannot revoke it. It may "
          + "still be valid; revoke it by hand at https://github.com/settings/connections/applications/Iv1.appA\n"),
      "\(run.stderr)")
    #expect(transport.requests.map(\.method) == ["GET"])
    #expect(try fixture.account()?.token == "gho_pasted")
    #expect(try fixture.account()?.clientID == nil)
  }
}
