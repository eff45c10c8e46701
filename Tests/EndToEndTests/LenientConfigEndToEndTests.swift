import Foundation
import Testing

/// A typo in the config does not break `token`, `env`, `whoami` or
/// `git-credential` (one warning on stderr), while the commands that change a login stay strict,
/// and a wrong type or a bad URL still stops every command.
@Suite struct LenientConfigEndToEndTests {
  static let token = "gho_lenientConfigToken0123456789abcdefgh"

  /// A scenario logged in as octocat whose config has the typo `scopse` and, in a host block, `clinet_id`.
  func scenarioWithTypos() async throws -> Scenario {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    try scenario.sandbox.writeConfig(["scopse": ["repo"], "hosts": ["ghe.test": ["clinet_id": "Iv1.x"]]])
    return scenario
  }

  func warning(_ scenario: Scenario) -> String {
    "ghlogin: warning: \(scenario.sandbox.configFile): ignoring unknown keys \"hosts.ghe.test.clinet_id\" "
      + "(did you mean \"client_id\"?), \"scopse\" (did you mean \"scopes\"?); fix the file: 'ghlogin auth', "
      + "'setup-git', 'logout' and 'refresh' refuse it\n"
  }

  @Test func tokenEnvWhoamiAndGitCredentialWarnOnceAndGoOn() async throws {
    let scenario = try await scenarioWithTypos()
    let warning = warning(scenario)

    let token = try await scenario.run(["token"])
    #expect(token.status == 0, "\(token)")
    #expect(token.stdout == Self.token + "\n")
    #expect(token.stderr == warning)

    let env = try await scenario.run(["env"])
    #expect(env.status == 0, "\(env)")
    #expect(
      env.stdout
        == "export GH_TOKEN='\(Self.token)'\nexport GITHUB_TOKEN='\(Self.token)'\nexport GH_HOST='github.test'\n")
    #expect(env.stderr == warning)

    let whoami = try await scenario.run(["whoami"])
    #expect(whoami.status == 0, "\(whoami)")
    #expect(whoami.stdout == "octocat (The Octocat) on github.test\n")
    #expect(whoami.stderr == warning)

    let get = try await scenario.run(["git-credential", "get"], stdin: "protocol=https\nhost=github.test\n\n")
    #expect(get.status == 0, "\(get)")
    #expect(get.stdout == "username=octocat\npassword=\(Self.token)\n")
    #expect(get.stderr == warning)
  }

  /// The commands that change a login refuse the same file: exit 2, the key named, nothing changed.
  @Test(arguments: [["auth", "--timeout", "5"], ["setup-git"], ["logout"], ["refresh"]])
  func commandsThatChangeALoginStayStrict(_ args: [String]) async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    try scenario.sandbox.writeConfig(["scopse": ["repo"]])
    let before = scenario.sandbox.credentialsBytes()
    let run = try await scenario.run(args)
    #expect(run.status == 2, "\(run)")
    #expect(run.stdout == "")
    #expect(run.stderr == "ghlogin: \(scenario.sandbox.configFile): unknown key \"scopse\"; did you mean \"scopes\"?\n")
    #expect(scenario.sandbox.credentialsBytes() == before)
    #expect(!FileManager.default.fileExists(atPath: scenario.sandbox.home + "/.gitconfig"))
  }

  /// A wrong type, or a bad URL in a key the command uses, still stops the lenient commands.
  @Test func wrongTypeAndBadURLStillStop() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    try scenario.sandbox.writeConfig(["scopse": ["repo"], "scopes": "repo"])
    let token = try await scenario.run(["token"])
    #expect(token.status == 2, "\(token)")
    #expect(token.stdout == "")
    #expect(token.stderr == "ghlogin: \(scenario.sandbox.configFile): \"scopes\" must be an array of strings\n")

    try scenario.sandbox.writeConfig(["api_url": "https://"])
    let whoami = try await scenario.run(["whoami"])
    #expect(whoami.status == 2, "\(whoami)")
    #expect(whoami.stdout == "")
    #expect(
      whoami.stderr == "ghlogin: \(scenario.sandbox.configFile): \"api_url\" is not a valid URL: it has no host\n")
  }
}
