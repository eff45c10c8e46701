import Testing

import GHLoginTestSupport

@testable import GHLoginCLI

/// Issue 33 §1, R111 through the command line, whose app is the configured `Iv1.client`:
/// `switch` changes only its own app's default, `logout` removes only its app's login (else the
/// one without a client ID), `--all-apps` every app's login of the user, and `status` names each
/// login's app.
@Suite(.verifiesFakes) struct AppDefaultsCommandTests {
  let fixture: LifecycleFixture

  init() throws { fixture = try LifecycleFixture() }

  static func login(_ name: String, id: Int64, token: String, clientID: String?) -> Credential {
    var credential = sampleCredential(name, token: token)
    credential.userID = id
    credential.clientID = clientID
    return credential
  }

  static let aliceOurs = login("alice", id: 7, token: "gho_aliceOurs", clientID: "Iv1.client")
  static let aliceTool = login("alice", id: 7, token: "gho_aliceTool", clientID: "Iv1.tool")
  static let bobOurs = login("bob", id: 8, token: "gho_bobOurs", clientID: "Iv1.client")
  static let carolTool = login("carol", id: 9, token: "gho_carolTool", clientID: "Iv1.tool")

  /// alice and bob for this app, alice and carol for the tool; the tool's default is carol.
  func seed() throws {
    var credentials = Credentials()
    credentials.save(Self.aliceOurs, on: "github.com")
    credentials.save(Self.bobOurs, on: "github.com", defaultFor: "Iv1.client")
    credentials.save(Self.aliceTool, on: "github.com")
    credentials.save(Self.carolTool, on: "github.com")
    try fixture.seed(credentials)
  }

  var entry: HostEntry? { (try? fixture.load())?.hosts["github.com"] }

  @Test func switchChangesOnlyThisAppsDefault() throws {
    try seed()
    #expect(entry?.defaultAccount(forApp: "Iv1.client") == Self.bobOurs)
    #expect(entry?.defaultAccount(forApp: "Iv1.tool") == Self.carolTool)
    let run = fixture.run(["switch"], transport: FakeTransport())
    #expect(run.status == .success, "\(run.stderr)")
    #expect(run.stderr == "Switched the active account on github.com to alice\n")
    #expect(entry?.defaultAccount(forApp: "Iv1.client") == Self.aliceOurs)
    #expect(entry?.defaultAccount(forApp: "Iv1.tool") == Self.carolTool)
    #expect(fixture.run(["token"], transport: FakeTransport()).stdout == "gho_aliceOurs\n")
    // The tool's carol is not one of this app's accounts.
    let other = fixture.run(["switch", "--user", "carol"], transport: FakeTransport())
    #expect(other.status == .notLoggedIn)
    #expect(entry?.defaultAccount(forApp: "Iv1.client") == Self.aliceOurs)
  }

  @Test func logoutRemovesOnlyThisAppsLogin() throws {
    try seed()
    let run = fixture.run(["logout", "--user", "alice", "--local-only"], transport: FakeTransport())
    #expect(run.status == .success, "\(run.stderr)")
    #expect(run.stderr.hasPrefix("Logged out of github.com as alice."), "\(run.stderr)")
    #expect(entry?.accounts == [Self.bobOurs, Self.aliceTool, Self.carolTool])
    #expect(entry?.defaultAccount(forApp: "Iv1.tool") == Self.carolTool)
    #expect(entry?.account("alice", forApp: "Iv1.tool") == Self.aliceTool)
  }

  @Test func logoutAllAppsRemovesEveryAppsLoginOfTheUser() throws {
    try seed()
    let run = fixture.run(["logout", "--all-apps", "--user", "alice", "--local-only"], transport: FakeTransport())
    #expect(run.status == .success, "\(run.stderr)")
    #expect(run.stderr.components(separatedBy: "Logged out of github.com as alice.").count == 3, "\(run.stderr)")
    #expect(entry?.accounts == [Self.bobOurs, Self.carolTool])
    #expect(entry?.defaultAccount(forApp: "Iv1.client") == Self.bobOurs)
    #expect(entry?.defaultAccount(forApp: "Iv1.tool") == Self.carolTool)
  }

  @Test func statusNamesEachLoginsApp() throws {
    try seed()
    let run = fixture.run(["status", "--offline"], transport: FakeTransport())
    #expect(run.status == .success, "\(run.stderr)")
    #expect(run.stdout.components(separatedBy: "    app: client ID Iv1.client\n").count == 3, "\(run.stdout)")
    #expect(run.stdout.components(separatedBy: "    app: client ID Iv1.tool\n").count == 3, "\(run.stdout)")
    #expect(run.stdout.contains("✓ bob (active)"), "\(run.stdout)")
    #expect(!run.stdout.contains("carol (active)"), "\(run.stdout)")
  }
}
