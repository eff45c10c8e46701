import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// What `logout`, `refresh` and `auth` say about the account rules (issue 33 §2, R112).
@Suite struct AccountChoiceNoteTests {
  let home: TemporaryDirectory

  init() throws {
    home = try TemporaryDirectory()
    try makeDirectory(home.at("work"), mode: 0o700)
    try makeDirectory(home.at("oss"), mode: 0o700)
    try makeDirectory(home.at(".config"), mode: 0o700)
    try makeDirectory(home.at(".config/ghlogin"), mode: 0o700)
    let accounts = [
      CredentialsFile.account(login: "alice", userID: 1, token: "gho_alice"),
      CredentialsFile.account(login: "alice-work", userID: 2, token: "gho_work"),
    ]
    try CredentialsFile.write(
      hosts: ["github.com": ["active": "alice", "accounts": accounts]], to: home.at(".config/ghlogin/credentials.json"))
    try writeFile(
      home.at(".config/ghlogin/config.json"), #"{"account_rules": [{"dir": "~/work", "account": "alice-work"}]}"#)
  }

  func workspace(in directory: String) throws -> Workspace {
    let environment = Environment(
      arguments: [], variables: EnvironmentVariables(["HOME": home.path, "PATH": "/nonexistent"]),
      stdout: BufferOutput(), stderr: BufferOutput(), stdin: BufferInput(), clock: ManualClock(),
      browser: RecordingBrowser(), transport: { _ in NoNetwork() })
    var workspace = try Workspace(collectingWarnings: environment)
    workspace.accountRequest.directory = home.at(directory)
    return workspace
  }

  var config: String { home.at(".config/ghlogin/config.json") }

  @Test func logoutAndRefreshSayWhenARuleChose() throws {
    #expect(
      try workspace(in: "work").accountRuleNote(AccountSelection())
        == "alice-work on github.com chosen by account_rules[0] (dir ~/work) in \(config)\n")
    // The default, or the caller's own name, needs no note.
    #expect(try workspace(in: "oss").accountRuleNote(AccountSelection()) == nil)
    #expect(try workspace(in: "work").accountRuleNote(AccountSelection(user: "alice")) == nil)
  }

  @Test func authSaysWhenTheRulesChooseAnotherAccountHere() throws {
    #expect(
      try workspace(in: "work").ruleMismatchNote(newLogin: "alice", on: .gitHubDotCom)
        == "Note: commands here use alice-work on github.com, not alice: account_rules[0] (dir ~/work) in "
        + "\(config) chooses it\n")
    #expect(try workspace(in: "work").ruleMismatchNote(newLogin: "Alice-Work", on: .gitHubDotCom) == nil)
    #expect(try workspace(in: "oss").ruleMismatchNote(newLogin: "alice-work", on: .gitHubDotCom) == nil)
  }
}
