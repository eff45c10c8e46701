import GHLoginTestSupport
import Glibc
import Testing

@testable import GHLoginCore

/// The account rules' matching and the one resolver (issue 33 §2, R112): whole path
/// components, symbolic links, `~`, the owner's case, first match wins, never a fallback.
@Suite struct AccountResolutionTests {
  @Test(
    arguments: [
      ("/home/a/work", "/home/a/work", true), ("/home/a/work/x/y", "/home/a/work", true),
      ("/home/a/workshop", "/home/a/work", false), ("/home/a", "/home/a/work", false),
      ("/home/a/work2/x", "/home/a/work", false), ("/anything", "/", true),
    ])
  func directoriesMatchByWholeComponents(directory: String, root: String, matches: Bool) {
    #expect(AccountRule.directory(directory, isWithin: root) == matches)
  }

  @Test func ownersMatchIgnoringCase() {
    let rule = AccountRule(.owner("Acme"), account: "alice-work")
    #expect(rule.matchesOwner(ofPath: "acme/api.git"))
    #expect(rule.matchesOwner(ofPath: "/ACME/api"))
    #expect(!rule.matchesOwner(ofPath: "acme-labs/api.git"))
    #expect(!rule.matchesOwner(ofPath: "other/acme.git"))
    #expect(!rule.matchesOwner(ofPath: ""))
  }

  /// A HOME with `work/`, `workshop/`, `oss/` and `link` → `work/`, and a credentials file
  /// holding alice and alice-work on github.com (alice active).
  struct Home {
    let directory: TemporaryDirectory
    var home: String { directory.path }

    init() throws {
      directory = try TemporaryDirectory()
      for name in ["work", "work/sub", "workshop", "oss"] { try makeDirectory(directory.at(name), mode: 0o700) }
      #expect(symlink(directory.at("work"), directory.at("link")) == 0)
    }

    func workspace(rules: String?, directory: String, variables extra: [String: String] = [:]) throws -> Workspace {
      if let rules { try writeFile(home + "/config.json", #"{"account_rules": \#(rules)}"#) }
      // No PATH: git is never found, so only the rules decide here.
      var variables = ["HOME": home, "GHLOGIN_CONFIG": home + "/config.json", "PATH": "/nonexistent"]
      if rules == nil { try writeFile(home + "/config.json", "{}") }
      variables.merge(extra) { _, new in new }
      let environment = Environment(
        arguments: [], variables: EnvironmentVariables(variables), stdout: BufferOutput(), stderr: BufferOutput(),
        stdin: BufferInput(), clock: ManualClock(), browser: RecordingBrowser(), transport: { _ in NoNetwork() })
      var workspace = try Workspace(collectingWarnings: environment)
      workspace.accountRequest.directory = directory
      return workspace
    }

    static let credentials = Credentials(hosts: [
      "github.com": HostEntry(
        activeLogin: "alice",
        accounts: [
          Credential(login: "alice", userID: 1, token: "gho_alice", scopes: ["repo"], createdAt: 1),
          Credential(login: "alice-work", userID: 2, token: "gho_work", scopes: ["repo"], createdAt: 1),
        ])
    ])

    func choice(rules: String?, in directory: String, variables: [String: String] = [:], user: String? = nil) throws
      -> AccountChoice
    {
      try workspace(rules: rules, directory: directory, variables: variables)
        .accountChoice(on: .gitHubDotCom, user: user, in: Self.credentials)
    }
  }

  @Test func aDirRuleChoosesAtAndBelowItsDirectoryOnly() throws {
    let home = try Home()
    let rules = #"[{"dir": "~/work", "account": "alice-work"}]"#
    for inside in ["work", "work/sub", "link", "link/sub"] {
      let choice = try home.choice(rules: rules, in: home.directory.at(inside))
      #expect(choice.account.login == "alice-work", "\(inside)")
      #expect(choice.reason.key == "account_rules")
      #expect(choice.reason.described == "account_rules[0] (dir ~/work) in \(home.home)/config.json")
    }
    for outside in ["workshop", "oss", ""] {
      let choice = try home.choice(rules: rules, in: home.directory.at(outside))
      #expect(choice.account.login == "alice", "\(outside)")
      #expect(choice.reason == .defaultAccount)
    }
  }

  /// The rule's own directory given through a symbolic link matches the real directory.
  @Test func aRulesDirectoryIsResolvedToo() throws {
    let home = try Home()
    let choice = try home.choice(
      rules: #"[{"dir": "\#(home.directory.at("link"))", "account": "alice-work"}]"#, in: home.directory.at("work/sub"))
    #expect(choice.account.login == "alice-work")
  }

  @Test func theFirstMatchingRuleWinsAndTheHostMustFit() throws {
    let home = try Home()
    let rules = #"""
      [{"host": "ghe.example.com", "dir": "~/work", "account": "nobody"},
       {"dir": "~/work/sub", "account": "alice"}, {"dir": "~/work", "account": "alice-work"}]
      """#
    #expect(try home.choice(rules: rules, in: home.directory.at("work/sub")).account.login == "alice")
    #expect(try home.choice(rules: rules, in: home.directory.at("work")).reason.key == "account_rules")
    #expect(try home.choice(rules: rules, in: home.directory.at("work")).account.login == "alice-work")
  }

  @Test func namesRankAboveRules() throws {
    let home = try Home()
    let rules = #"[{"dir": "~/work", "account": "alice-work"}]"#
    let work = home.directory.at("work")
    #expect(try home.choice(rules: rules, in: work, user: "alice").reason == .option)
    #expect(try home.choice(rules: rules, in: work, user: "alice").account.login == "alice")
    let environment = try home.choice(rules: rules, in: work, variables: ["GHLOGIN_USER": "ALICE"])
    #expect(environment.reason == .environment)
    #expect(environment.account.login == "alice")
  }

  @Test func anOwnerRuleMatchesGitsPath() throws {
    let home = try Home()
    var workspace = try home.workspace(
      rules: #"[{"owner": "ACME", "account": "alice-work"}]"#, directory: home.directory.at("oss"))
    #expect(try workspace.accountChoice(on: .gitHubDotCom, user: nil, in: Home.credentials).account.login == "alice")
    workspace.accountRequest = AccountRequest(caller: .git, path: "acme/api.git", directory: home.directory.at("oss"))
    #expect(
      try workspace.accountChoice(on: .gitHubDotCom, user: nil, in: Home.credentials).account.login == "alice-work")
  }

  /// T97's core: a rule naming a logged-out account fails, naming it, even with one login.
  @Test func aRuleNamingALoggedOutAccountNeverFallsBack() throws {
    let home = try Home()
    let workspace = try home.workspace(
      rules: #"[{"dir": "~/work", "account": "bob"}]"#, directory: home.directory.at("work"))
    let one = Credentials(hosts: [
      "github.com": HostEntry(activeLogin: "alice", accounts: [Home.credentials.hosts["github.com"]!.accounts[0]])
    ])
    for credentials in [one, Home.credentials] {
      let error = try #require(throws: NotLoggedIn.self) {
        try workspace.accountChoice(on: .gitHubDotCom, user: nil, in: credentials)
      }
      #expect(error.user == "bob")
      #expect(
        error.message
          == "not logged in to github.com as bob, chosen here by account_rules[0] (dir ~/work) in "
          + "\(home.home)/config.json; log in first")
    }
  }
}
