import Testing

import GHLoginTestSupport
@testable import GHLoginCLI

/// Two apps on one host (SECURITY.md, R111) through the command line, whose app is the configured
/// one (`Iv1.client` here): it sees its own app's logins and those without a client ID, never a
/// login made by another OAuth app, which it neither uses, refreshes, revokes nor replaces.
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

  static let notLoggedIn = "ghlogin: not logged in to github.com; run 'ghlogin auth'\n"

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

  @Test(arguments: [-1.0, 120, 3600])
  func anotherAppsLoginIsNotSeenByToken(expiresIn: Double) throws {
    let run = try runSendingNothing(["token"], expiresIn: expiresIn)
    #expect(run.status == .notLoggedIn)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == Self.notLoggedIn)
    #expect(fixture.fileText.contains(#""version": 2"#))
  }

  /// git's helper answers nothing, as for any host without a login.
  @Test func gitCredentialGetAnswersNothingForAnotherAppsLogin() throws {
    let run = try runSendingNothing(["git-credential", "get"], expiresIn: -1)
    #expect(run.status == .success)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.isEmpty)
  }

  @Test(arguments: [["refresh"], ["logout"], ["switch", "--user", "octocat"]])
  func otherCommandsDoNotTouchAnotherAppsLogin(arguments: [String]) throws {
    let run = try runSendingNothing(arguments, expiresIn: 3600)
    #expect(run.status == .notLoggedIn)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix("ghlogin: "), "\(run.stderr)")
    #expect(run.stderr.contains("octocat") || run.stderr == Self.notLoggedIn, "\(run.stderr)")
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

  /// `logout --all-apps` removes every app's login of the user, but does not send another app's
  /// tokens to be revoked with the configured app's credentials (GitHub's 404 to them would look
  /// like "already invalid"): it says the token may still be valid and names the page of the app
  /// that issued it.
  @Test func logoutAllAppsDoesNotRevokeAnotherAppsTokenWithTheConfiguredApp() throws {
    try fixture.seed(Self.login(expiresIn: 3600))
    let transport = FakeTransport()
    let run = fixture.run(["logout", "--all-apps", "--user", "octocat"], transport: transport)
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

  /// A token stored with `--with-token` for a user who has another app's login is a login of its
  /// own beside it (R111), and `auth` says so; the app's login is neither replaced nor revoked.
  @Test func aGivenTokenIsKeptBesideAnotherAppsLogin() throws {
    let appLogin = Self.login(expiresIn: 3600)
    try fixture.seed(appLogin)
    let transport = FakeTransport()
    transport.on("GET", Fixture.userURL, respond: Fixture.user)
    let run = fixture.run(["auth", "--with-token"], stdin: "gho_pasted\n", transport: transport)
    #expect(run.status == .success)
    #expect(
      run.stderr.hasPrefix(
        "octocat also has a login of the OAuth app Iv1.appA on github.com, which is unchanged; this token is kept "
          + "as a login of its own beside it\nLogged in to github.com as octocat (token from standard input)\n"),
      "\(run.stderr)")
    #expect(!run.stderr.contains("revoke"))
    #expect(transport.requests.map(\.method) == ["GET"])
    let accounts = try fixture.load().hosts["github.com"]?.accounts
    #expect(accounts?.count == 2)
    #expect(accounts?.first == appLogin)
    #expect(accounts?.last?.token == "gho_pasted" && accounts?.last?.clientID == nil)
    #expect(fixture.fileText.contains(#""version": 3"#))
    // The configured app now sees the given token (no client ID), never app A's.
    let token = fixture.run(["token"], transport: FakeTransport())
    #expect(token.stdout == "gho_pasted\n")
  }
}
