import GHLoginTestSupport
import Testing

@testable import GHLoginKit

/// `GitHubLogin.token(host:account:directory:)` (issue 33 §2, R112): the account the rules
/// choose for the directory given, as `ghlogin token` run there would; never a fallback.
@Suite struct GitHubLoginDirectoryTests {
  let home: TemporaryDirectory

  init() throws {
    home = try TemporaryDirectory()
    for name in ["work", "work/api", "oss", ".config", ".config/ghlogin"] {
      try makeDirectory(home.at(name), mode: 0o700)
    }
    let accounts = [
      CredentialsFile.account(login: "alice", userID: 1, token: "gho_alice"),
      CredentialsFile.account(login: "alice-work", userID: 2, token: "gho_work"),
    ]
    try CredentialsFile.write(
      hosts: ["github.com": ["active": "alice", "accounts": accounts]], to: home.at(".config/ghlogin/credentials.json"))
  }

  func github(rules: String) throws -> GitHubLogin {
    try writeFile(home.at(".config/ghlogin/config.json"), #"{"account_rules": \#(rules)}"#)
    let environment = Environment(
      arguments: [], variables: EnvironmentVariables(["HOME": home.path, "PATH": "/nonexistent"]),
      stdout: BufferOutput(), stderr: BufferOutput(), stdin: BufferInput(""), clock: ManualClock(),
      browser: RecordingBrowser(), transport: { _ in NoNetwork() })
    return try GitHubLogin(environment: environment)
  }

  @Test func eachDirectoryGetsItsRulesAccount() async throws {
    let github = try github(rules: #"[{"dir": "~/work", "account": "alice-work"}]"#)
    #expect(try await github.token(directory: home.at("work/api")).login == "alice-work")
    #expect(try await github.token(directory: home.at("oss")).login == "alice")
    #expect(try await github.token(account: "alice", directory: home.at("work")).login == "alice")
  }

  @Test func aRuleNamingALoggedOutAccountThrowsNotLoggedIn() async throws {
    let github = try github(rules: #"[{"dir": "~/work", "account": "bob"}]"#)
    let error = try await #require(throws: GitHubLoginError.self) {
      try await github.token(directory: home.at("work"))
    }
    #expect(error.kind == .notLoggedIn)
    #expect(error.message.contains("not logged in to github.com as bob, chosen here by account_rules[0] (dir ~/work)"))
    #expect(!error.message.contains("gho_alice"))
  }
}
