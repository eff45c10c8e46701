import Glibc
import Testing

import GHLoginTestSupport
@testable import GHLoginCLI

/// `token`, `status` and `logout` against a real credentials file in a temporary HOME.
@Suite struct StoreCommandsTests {
  static let token = "gho_16C7e42F292c6912E7710c838347Ae178B4a"
  static let secondToken = "gho_SECONDaccountTOKEN000000000000000042"

  let fixture: StoreFixture
  var variables: [String: String] { ["HOME": fixture.home] }

  init() throws { fixture = try StoreFixture() }

  func seed(_ credentials: Credentials) throws {
    try fixture.store().update { $0 = credentials }
  }

  func twoAccounts() -> Credentials {
    var credentials = sampleCredentials(sampleCredential("octocat", token: Self.token))
    var second = sampleCredential("hubot", token: Self.secondToken)
    second.userID = 2
    credentials.save(second, on: "github.com")
    credentials.hosts["github.com"]?.activeLogin = "octocat"
    return credentials
  }

  @Test func tokenPrintsTheTokenAloneOnStdout() throws {
    try seed(sampleCredentials(sampleCredential(token: Self.token)))
    let run = runCommand(["token"], variables: variables)
    #expect(run.status == .success)
    #expect(run.stdout == Self.token + "\n")
    #expect(run.stderr.isEmpty)
  }

  @Test func tokenWhenNotLoggedInExits4WithNothingOnStdout() {
    let run = runCommand(["token"], variables: variables)
    #expect(run.status == .notLoggedIn)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == "ghlogin: not logged in to github.com; run 'ghlogin auth'\n")
    #expect(readFile(fixture.file) == nil)
  }

  @Test func tokenNeverFallsBackToAnotherHost() throws {
    try seed(sampleCredentials(sampleCredential(token: Self.token)))
    for host in ["tuf-repo.github.com", "gist.evil.test", "github.com.evil.test"] {
      let run = runCommand(["token", "--host", host], variables: variables)
      #expect(run.status == .notLoggedIn)
      #expect(run.stdout.isEmpty)
      #expect(run.stderr == "ghlogin: not logged in to \(host); run 'ghlogin auth --host \(host)'\n")
    }
  }

  @Test func tokenWithSeveralHostsAndNoChoiceRefusesToGuess() throws {
    var credentials = sampleCredentials(sampleCredential(token: Self.token))
    credentials.save(sampleCredential(token: Self.secondToken), on: "ghe.example.com")
    try seed(credentials)
    let run = runCommand(["token"], variables: variables)
    #expect(run.status == .usage)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr
        == "ghlogin: logged in to 2 hosts (ghe.example.com, github.com); choose one with "
        + "'ghlogin token --host HOST' or 'ghlogin config set host HOST' (or set GH_HOST)\n")
    #expect(runCommand(["token", "--host", "GHE.example.com"], variables: variables).stdout == Self.secondToken + "\n")
    var withHost = variables
    withHost["GH_HOST"] = "github.com"
    #expect(runCommand(["token"], variables: withHost).stdout == Self.token + "\n")
  }

  @Test func tokenChoosesTheAccount() throws {
    try seed(twoAccounts())
    #expect(runCommand(["token"], variables: variables).stdout == Self.token + "\n")
    #expect(runCommand(["token", "--user", "hubot"], variables: variables).stdout == Self.secondToken + "\n")
    var chosen = variables
    chosen["GHLOGIN_USER"] = "HUBOT"
    #expect(runCommand(["token"], variables: chosen).stdout == Self.secondToken + "\n")
    let missing = runCommand(["token", "--user", "nobody"], variables: variables)
    #expect(missing.status == .notLoggedIn)
    #expect(missing.stdout.isEmpty)
    #expect(missing.stderr == "ghlogin: not logged in to github.com as nobody; run 'ghlogin auth --user nobody'\n")
  }

  @Test func tokenRefusesAFileOthersCanRead() throws {
    try seed(sampleCredentials(sampleCredential(token: Self.token)))
    chmod(fixture.file, 0o644)
    let before = readFile(fixture.file)
    let run = runCommand(["token"], variables: variables)
    #expect(run.status == .failure)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.contains("chmod 600 \(fixture.file)"))
    #expect(!run.stderr.contains(Self.token))
    #expect(readFile(fixture.file) == before)
  }

  @Test func tokenTakesNoTokenArgument() {
    let run = runCommand(["token", "--token", Self.token], variables: variables)
    #expect(run.status == .usage)
    #expect(run.stdout.isEmpty)
    #expect(!run.stderr.contains(Self.token))
  }

  @Test func statusRedactsTheTokenAndMarksTheActiveAccount() throws {
    var credentials = twoAccounts()
    credentials.hosts["github.com"]?.accounts[1].expiresAt = 1_700_000_000 + 8 * 3600
    try seed(credentials)
    let run = runCommand(["status", "--offline"], variables: variables, clock: ManualClock(now: 1_700_000_000))
    #expect(run.status == .success)
    #expect(
      run.stdout == """
        github.com
          ✓ octocat (active)
            token: gho_****8B4a
            kept in: the credentials file
            scopes: repo, read:org
          - hubot
            token: gho_****0042
            kept in: the credentials file
            scopes: repo, read:org
            expires: in 8h 0m

        Credentials: \(fixture.file) (mode 0600, owned by you: safe)

        """)
    #expect(!run.stdout.contains(Self.token))
    #expect(!run.stdout.contains(Self.secondToken))
  }

  @Test func statusWithNoLoginsExits4() {
    let run = runCommand(["status", "--offline"], variables: variables)
    #expect(run.status == .notLoggedIn)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr == "not logged in to any host; run 'ghlogin auth'\nCredentials: \(fixture.file) (no login stored)\n")
  }

  @Test func logoutRemovesOnlyThatAccount() throws {
    try seed(twoAccounts())
    let run = runCommand(["logout", "--user", "octocat"], variables: variables)
    #expect(run.status == .success)
    #expect(
      run.stderr.hasPrefix(
        "Logged out of github.com as octocat. The token was removed from this machine but not revoked"))
    let left = try fixture.store().load()
    #expect(left.hosts["github.com"]?.accounts.map(\.login) == ["hubot"])
    #expect(left.hosts["github.com"]?.activeLogin == "hubot")
    let bytes = try #require(readFile(fixture.file))
    #expect(!String(decoding: bytes, as: UTF8.self).contains(Self.token))
  }

  @Test func logoutWhenNotLoggedInExits4AndChangesNothing() throws {
    try seed(sampleCredentials(sampleCredential(token: Self.token)))
    let before = readFile(fixture.file)
    let run = runCommand(["logout", "--host", "ghe.example.com"], variables: variables)
    #expect(run.status == .notLoggedIn)
    #expect(run.stderr == "ghlogin: not logged in to ghe.example.com; run 'ghlogin auth --host ghe.example.com'\n")
    #expect(readFile(fixture.file) == before)
  }
}
