import Foundation
import GHLoginTestSupport
import Testing

/// Issue 29 §1: a script gets the right answer or a clear failure. `--host` with no value is a
/// usage error (not help on stdout); several hosts and no choice name at most five and both ways
/// to choose; `ghlogin token | ghlogin auth --with-token` changes nothing, and replacing a
/// refreshable login says what is lost; `config get` of a key nobody set says how to set it.
@Suite struct ScriptAnswersEndToEndTests {
  static let token = "gho_scriptAnswersToken000000000000000001"

  /// Every command that takes `--host`, with the words that make it run (`config get KEY`).
  static let hostCommands: [[String]] = [
    ["auth"], ["whoami"], ["token"], ["env"], ["status"], ["logout"], ["refresh"], ["switch"], ["migrate"],
    ["setup-git"], ["setup-docker"], ["config", "get", "client_id"],
  ]

  /// `--host`/`--hostname` with nothing after them, or before another option, and `-h` in the
  /// same places when stdout is not a terminal: exit 2, the message on stderr, nothing on
  /// stdout, nothing stored or changed. `--help` is help on stdout (exit 0).
  @Test(arguments: hostCommands)
  func aHostOptionWithNoValueIsAUsageError(_ command: [String]) async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let before = scenario.sandbox.credentialsBytes()
    let config = FileManager.default.contents(atPath: scenario.sandbox.configFile)
    let name = command[0]
    for tail in [["--host"], ["--hostname"], ["-h"], ["--host", "--user", "octocat"], ["-h", "--user", "octocat"]] {
      let run = try await scenario.run(command + tail, stdin: "")
      #expect(run.status == 2, "\(command + tail): \(run)")
      #expect(run.stdout == "", "\(command + tail): \(run)")
      #expect(
        run.stderr.hasPrefix("ghlogin \(name): option --host needs a value (HOST)\nUsage: ghlogin \(name)"),
        "\(command + tail): \(run)")
    }
    let help = try await scenario.run(command + ["--help"])
    #expect(help.status == 0, "\(help)")
    #expect(help.stdout.hasPrefix("Usage: ghlogin \(name)"), "\(help)")
    #expect(help.stderr == "")
    #expect(scenario.sandbox.credentialsBytes() == before)
    #expect(FileManager.default.contents(atPath: scenario.sandbox.configFile) == config)
    #expect(try scenario.fake.requests().isEmpty)
  }

  /// The script of the issue: `GH_TOKEN=$(ghlogin token --host $H)` with `H` empty.
  @Test func anEmptyHostVariableInAScriptFails() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let env = scenario.environment().merging(["H": "", "GHLOGIN": try HarnessPaths.ghloginBinary()]) { $1 }
    let script = "GH_TOKEN=$(\"$GHLOGIN\" token --host $H); status=$?; printf '%s|%s' \"$status\" \"$GH_TOKEN\""
    let result = try await offload {
      RunResult(
        try ChildProcess(executable: "/bin/sh", arguments: ["-c", script], environment: env, stdin: "")
          .finish(timeout: 30))
    }
    #expect(result.stdout == "2|", "\(result)")
    #expect(result.stderr.hasPrefix("ghlogin token: option --host needs a value (HOST)\n"))
  }

  /// Commands without `--host` take `-h` as help wherever it is.
  @Test func withoutAHostOptionDashHIsAlwaysHelp() async throws {
    let scenario = try await Scenario.start()
    for command in [["version"], ["completion"], ["goauth"], ["help"]] {
      let run = try await scenario.run(command + ["-h"])
      #expect(run.status == 0, "\(command): \(run)")
      #expect(run.stdout.hasPrefix("Usage: ghlogin \(command[0])"), "\(command): \(run)")
    }
  }

  /// On a terminal `-h` with no host after it is help, as in gh.
  @Test func onATerminalDashHAloneIsHelp() throws {
    let sandbox = try Sandbox(fake: try FakeGitHub.start())
    for args in [["token", "-h"], ["logout", "-h", "--user", "octocat"]] {
      let (status, output) = try runOnTerminal(args, env: sandbox.environment())
      #expect(status == 0, "\(args): \(output)")
      #expect(output.hasPrefix("Usage: ghlogin \(args[0])"), "\(args): \(output)")
    }
    let (status, output) = try runOnTerminal(["token", "--host"], env: sandbox.environment())
    #expect(status == 2)
    #expect(output.hasPrefix("ghlogin token: option --host needs a value (HOST)\r\n"), "\(output)")
  }

  // MARK: - Several hosts

  /// Seven hosts logged in, no `host` in the config and no endpoints to derive one from.
  func sevenHosts() async throws -> Scenario {
    let scenario = try await Scenario.start(config: [
      "host": NSNull(), "authorize_url": NSNull(), "token_url": NSNull(), "device_code_url": NSNull(),
      "api_url": NSNull(),
    ])
    var accounts: [String: (login: String, userID: Int, token: String)] = [:]
    for (index, host) in ["g.example", "c.example", "a.example", "f.example", "b.example", "e.example", "d.example"]
      .enumerated()
    {
      accounts[host] = ("octocat", 1, "gho_severalHosts\(index)0000000000000000000000")
    }
    try scenario.sandbox.writeCredentials(accounts)
    return scenario
  }

  @Test(arguments: [["token"], ["env"], ["whoami"], ["refresh"], ["logout"]])
  func severalHostsNameFiveAndBothWaysToChoose(_ command: [String]) async throws {
    let scenario = try await sevenHosts()
    let before = scenario.sandbox.credentialsBytes()
    let run = try await scenario.run(command)
    #expect(run.status == 2, "\(run)")
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "ghlogin: logged in to 7 hosts (a.example, b.example, c.example, d.example, e.example and 2 more); "
        + "choose one with 'ghlogin \(command[0]) --host HOST' or 'ghlogin config set host HOST' (or set GH_HOST)\n")
    #expect(scenario.sandbox.credentialsBytes() == before)
    #expect(try scenario.fake.requests().isEmpty)
    // Either way chooses.
    let chosen = try await scenario.run(["token", "--host", "d.example"])
    #expect(chosen.stdout == "gho_severalHosts60000000000000000000000\n", "\(chosen)")
    #expect(try await scenario.run(["config", "set", "host", "a.example"]).status == 0)
    #expect(try await scenario.run(["token"]).stdout == "gho_severalHosts20000000000000000000000\n")
  }

  // MARK: - ghlogin token | ghlogin auth --with-token

  /// The stored token piped back changes nothing, says so, exits 0, and asks nothing of GitHub.
  @Test func theStoredTokenPipedBackChangesNothing() async throws {
    let scenario = try await Scenario.start()
    let access = "ghu_scriptAnswersAccess0000000000000000001"
    let refresh = "ghr_scriptAnswersRefresh000000000000000000000000000000000000000000000001"
    try scenario.fake.registerExpiringPair(access: access, refresh: refresh, expiresIn: 28800)
    try scenario.sandbox.writeCredentials([expiringAccount(token: access, refresh: refresh, expiresIn: 28800)])
    let before = scenario.sandbox.credentialsBytes()
    let run = try await scenario.run(["auth", "--with-token"], stdin: access + "\n")
    #expect(run.status == 0, "\(run)")
    #expect(run.stdout == "")
    #expect(run.stderr == "Already logged in to github.test as octocat with this token; nothing was changed\n")
    #expect(scenario.sandbox.credentialsBytes() == before)
    #expect(try scenario.fake.requests().isEmpty)
  }

  /// A token that cannot refresh replacing a refreshable login, from a pipe: a warning naming the
  /// refresh token and the new token's expiry, then the replacement.
  @Test func replacingARefreshableLoginFromAPipeWarns() async throws {
    let scenario = try await Scenario.start()
    let access = "ghu_scriptAnswersAccess0000000000000000002"
    let refresh = "ghr_scriptAnswersRefresh000000000000000000000000000000000000000000000002"
    let pat = "github_pat_scriptAnswersFineGrained000000000000000002"
    try scenario.fake.registerExpiringPair(access: access, refresh: refresh, expiresIn: 28800)
    let expiry = Date().addingTimeInterval(7.5 * 3600)
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
    try scenario.fake.register([
      "tokens": [["access_token": pat, "login": "octocat", "expiration_header": formatter.string(from: expiry)]]
    ])
    try scenario.sandbox.writeCredentials([expiringAccount(token: access, refresh: refresh, expiresIn: 28800)])
    let run = try await scenario.run(["auth", "--with-token"], stdin: pat + "\n")
    #expect(run.status == 0, "\(run)")
    #expect(run.stdout == "")
    #expect(
      run.stderr.hasPrefix(
        "ghlogin: warning: replacing the refreshable login of octocat on github.test with a token that cannot be "
          + "refreshed: its refresh token is lost, and the new token (it expires in 8 h) is not renewed when it "
          + "expires. To keep a refreshable login: ghlogin auth --host github.test\n"
          + "Logged in to github.test as octocat (token from standard input)\n"), "\(run)")
    let account = try #require(scenario.sandbox.storedAccounts().first)
    #expect(account["token"] as? String == pat)
    #expect(account["refresh_token"] == nil)
  }

  /// Typed at a terminal: the question, and anything but yes keeps the login (exit 1, nothing stored).
  @Test func replacingARefreshableLoginAtATerminalAsksFirst() async throws {
    let scenario = try await Scenario.start()
    let access = "ghu_scriptAnswersAccess0000000000000000003"
    let refresh = "ghr_scriptAnswersRefresh000000000000000000000000000000000000000000000003"
    let pat = "ghp_scriptAnswersClassic00000000000000003"
    try scenario.fake.registerExpiringPair(access: access, refresh: refresh, expiresIn: 28800)
    try scenario.fake.register(["tokens": [["access_token": pat, "login": "octocat"]]])
    try scenario.sandbox.writeCredentials([expiringAccount(token: access, refresh: refresh, expiresIn: 28800)])
    let before = scenario.sandbox.credentialsBytes()
    let steps = [("Paste the token", pat + "\r"), ("[y/N] ", "n\r")]
    let (status, output) = try runOnTerminal(
      ["auth", "--with-token"], env: scenario.environment(), steps: steps)
    #expect(status == 1, "\(output)")
    #expect(output.contains("Replace the refreshable login of octocat on github.test? [y/N] n\r\n"), "\(output)")
    #expect(
      output.hasSuffix("ghlogin: kept the refreshable login of octocat on github.test; nothing was stored\r\n"),
      "\(output)")
    #expect(scenario.sandbox.credentialsBytes() == before)
    let (yes, replaced) = try runOnTerminal(
      ["auth", "--with-token"], env: scenario.environment(),
      steps: [("Paste the token", pat + "\r"), ("[y/N] ", "y\r")])
    #expect(yes == 0, "\(replaced)")
    #expect(scenario.sandbox.storedAccounts().first?["token"] as? String == pat)
  }

  // MARK: - config get

  @Test func configGetOfAKeyNobodySetSaysHowToSetIt() async throws {
    let scenario = try await Scenario.start(config: ["client_secret": NSNull()])
    let file = scenario.sandbox.configFile
    let before = FileManager.default.contents(atPath: file)
    let cases: [([String], [String: String], String)] = [
      (["scopes"], [:], "scopes is not set; set it with: ghlogin config set scopes VALUE\n"),
      (
        ["--host", "ghe.test", "revocation_url"], [:],
        "revocation_url is not set; set it with: ghlogin config set --host ghe.test revocation_url VALUE\n"
      ),
      (["client_secret"], [:], "client_secret is not set; set it with: ghlogin config set client_secret -\n"),
      (
        ["client_secret"], ["GHLOGIN_CLIENT_SECRET": "s3cr3t-from-env"],
        "client_secret is not set in \(file); the environment layer sets it (GHLOGIN_CLIENT_SECRET): "
          + "see 'ghlogin help config'\n"
      ),
    ]
    for (words, env, message) in cases {
      let run = try await scenario.run(["config", "get"] + words, env: env)
      #expect(run.status == 1, "\(words): \(run)")
      #expect(run.stdout == "", "\(words): \(run)")
      #expect(run.stderr == message, "\(words): \(run)")
    }
    #expect(FileManager.default.contents(atPath: file) == before)
  }
}

/// ghlogin `args` on a new pseudo-terminal with `TERM=dumb` (``runOnPseudoTerminal(_:env:steps:)``).
func runOnTerminal(_ args: [String], env: [String: String], steps: [(when: String, send: String)] = []) throws -> (
  status: Int, output: String
) {
  try runOnPseudoTerminal(
    [try HarnessPaths.ghloginBinary()] + args, env: env.merging(["TERM": "dumb"]) { $1 }, steps: steps)
}
