import Testing

import GHLoginTestSupport

@testable import GHLoginCLI

/// `switch`, and choosing an account for one process with `--user` and `GHLOGIN_USER`.
@Suite struct SwitchCommandTests {
  let fixture: LifecycleFixture

  init() throws { fixture = try LifecycleFixture() }

  /// Accounts octocat (active), hubot and, when `three`, monalisa on github.com.
  func seedAccounts(three: Bool = false) throws {
    var credentials = sampleCredentials(sampleCredential("octocat", token: "gho_octocat"))
    var logins = [("hubot", "gho_hubot")]
    if three { logins.append(("monalisa", "gho_monalisa")) }
    for (index, (login, token)) in logins.enumerated() {
      var account = sampleCredential(login, token: token)
      account.userID = Int64(index + 2)
      credentials.save(account, on: "github.com")
    }
    credentials.hosts["github.com"]?.activeLogin = "octocat"
    try fixture.seed(credentials)
  }

  var active: String? { (try? fixture.load())?.hosts["github.com"]?.activeLogin }

  @Test func withTwoAccountsItToggles() throws {
    try seedAccounts()
    let first = fixture.run(["switch"])
    #expect(first.status == .success)
    #expect(first.stderr == "Switched the active account on github.com to hubot\n")
    #expect(active == "hubot")
    #expect(fixture.run(["token"]).stdout == "gho_hubot\n")
    #expect(fixture.run(["switch"]).stderr == "Switched the active account on github.com to octocat\n")
    #expect(active == "octocat")
  }

  @Test func userChoosesTheAccountIgnoringCase() throws {
    try seedAccounts(three: true)
    let run = fixture.run(["switch", "--user", "MonaLisa"])
    #expect(run.status == .success)
    #expect(run.stderr == "Switched the active account on github.com to monalisa\n")
    #expect(active == "monalisa")
    #expect(fixture.run(["status", "--offline"]).stdout.contains("  ✓ monalisa (active)\n"))
    #expect(
      fixture.run(["switch", "--user", "monalisa"]).stderr == "monalisa is already the active account on github.com\n")
  }

  @Test func withMoreThanTwoItListsThemAndAsksForUser() throws {
    try seedAccounts(three: true)
    let before = fixture.fileBytes
    let run = fixture.run(["switch"])
    #expect(run.status == .usage)
    #expect(
      run.stderr.hasPrefix(
        "ghlogin switch: github.com has 3 accounts; choose one with --user:\n  octocat (active)\n  hubot\n  monalisa\n")
    )
    #expect(fixture.fileBytes == before)
  }

  @Test func anUnknownUserIsNotLoggedIn() throws {
    try seedAccounts()
    let before = fixture.fileBytes
    let run = fixture.run(["switch", "--user", "nobody"])
    #expect(run.status == .notLoggedIn)
    #expect(
      run.stderr == "ghlogin: no account nobody on github.com; the accounts there: octocat (active), hubot. "
        + "Log in as it with 'ghlogin auth --user nobody'\n")
    #expect(fixture.fileBytes == before)
  }

  @Test func withOneAccountItStaysActive() throws {
    try fixture.seed(sampleCredential())
    let run = fixture.run(["switch"])
    #expect(run.status == .success)
    #expect(run.stderr == "octocat is already the active account on github.com\n")
  }

  @Test func withNoAccountItExits4() throws {
    let run = fixture.run(["switch", "--host", "ghe.test"])
    #expect(run.status == .notLoggedIn)
    #expect(run.stderr == "ghlogin: not logged in to ghe.test; run 'ghlogin auth --host ghe.test'\n")
  }

  @Test func withSeveralHostsItNeedsTheHost() throws {
    try seedAccounts()
    var credentials = try fixture.load()
    credentials.save(sampleCredential("octocat", token: "gho_ghe"), on: "ghe.test")
    var second = sampleCredential("hubot", token: "gho_ghe_hubot")
    second.userID = 2
    credentials.save(second, on: "ghe.test")
    try fixture.seed(credentials)
    #expect(fixture.run(["switch"]).status == .usage)
    let run = fixture.run(["switch", "--host", "ghe.test"])
    #expect(run.stderr == "Switched the active account on ghe.test to octocat\n")
    #expect(active == "octocat")
    #expect(try fixture.load().hosts["ghe.test"]?.activeLogin == "octocat")
  }

  /// GHLOGIN_USER picks the account for one process and leaves the active one alone.
  @Test func ghloginUserSelectsForOneProcessOnly() throws {
    try seedAccounts()
    let before = fixture.fileBytes
    let run = fixture.run(["token"], extra: ["GHLOGIN_USER": "hubot"])
    #expect(run.stdout == "gho_hubot\n")
    #expect(fixture.fileBytes == before)
    #expect(fixture.run(["token"]).stdout == "gho_octocat\n")
    #expect(fixture.run(["token", "--user", "hubot"], extra: ["GHLOGIN_USER": "octocat"]).stdout == "gho_hubot\n")
  }

  @Test func switchIgnoresGhloginUser() throws {
    try seedAccounts()
    let run = fixture.run(["switch"], extra: ["GHLOGIN_USER": "octocat"])
    #expect(run.stderr == "Switched the active account on github.com to hubot\n")
  }
}
