import Foundation
import GHLoginTestSupport
import Testing

/// gh's habits and what GitHub says that gh does not show, on the built
/// binary against the fake: `-h HOST`, the `auth WORD` forms, `status --show-token`,
/// `config list`, `setup-git --unset` with nothing to remove, `switch`'s numbered choice and
/// unknown `--user`, `status`'s colour (on a pty), GitHub's token expiry header, organisation
/// SSO, and `status` exit 4 for an expired session.
@Suite struct HabitsEndToEndTests {
  static let token = "gho_habitsTestToken0123456789abcdefghijk"

  /// Runs ghlogin on a pseudo-terminal (`Tests/Scripts/pty_run.py`): each step's `send` is
  /// typed once its `when` has been shown. Returns the exit status and what the terminal showed.
  static func onTerminal(_ args: [String], env: [String: String], steps: [(when: String, send: String)] = [])
    throws -> (status: Int, output: String)
  {
    var spec: [String: Any] = [
      "argv": [try HarnessPaths.ghloginBinary()] + args, "env": env.merging(["TERM": "xterm"]) { old, _ in old },
      "timeout": 20,
    ]
    spec["steps"] = steps.map { ["when": $0.when, "send": $0.send] }
    let json = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)
    let result = try ChildProcess(
      executable: HarnessPaths.python3, arguments: [HarnessPaths.packageRoot + "/Tests/Scripts/pty_run.py", json],
      stdin: ""
    ).finish(timeout: 30)
    guard let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
      throw HarnessError("pty_run.py: \(result)")
    }
    return (report["status"] as? Int ?? -1, report["output"] as? String ?? "")
  }

  /// `seconds` (Unix time) as GitHub writes the expiry header: in UTC, or at `offset` ("+0200").
  static func header(_ seconds: Double, offset: String? = nil) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    if let offset {
      let sign = offset.hasPrefix("-") ? -1 : 1
      let hours = Int(offset.dropFirst().prefix(2)) ?? 0
      let minutes = Int(offset.suffix(2)) ?? 0
      formatter.timeZone = TimeZone(secondsFromGMT: sign * (hours * 3600 + minutes * 60))
      formatter.dateFormat = "yyyy-MM-dd HH:mm:ss '\(offset)'"
    } else {
      formatter.timeZone = TimeZone(identifier: "UTC")
      formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
    }
    return formatter.string(from: Date(timeIntervalSince1970: seconds))
  }

  /// A whole second `days` days from now (plus half a day: far from a day boundary).
  static func inDays(_ days: Double) -> Double {
    (Date().timeIntervalSince1970 + days * 86_400 + 43_200).rounded(.down)
  }

  static func account(_ sandbox: Sandbox, host: String = "github.test") -> [String: Any]? {
    ((sandbox.credentialsJSON()?["hosts"] as? [String: Any])?[host] as? [String: Any])
      .flatMap { ($0["accounts"] as? [[String: Any]])?.first }
  }

  static func jsonAccount(_ stdout: String) -> [String: Any]? {
    let object = (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
    return (((object?["hosts"] as? [String: Any])?["github.test"] as? [String: Any])?["accounts"] as? [[String: Any]])?
      .first
  }

  // MARK: - §2 gh's habits

  /// `-h HOST` is `--host HOST`; `-h` last or before another option is help on a terminal, as
  /// `--help` is, and elsewhere the usage error of `--host` with no value.
  @Test func dashHFollowedByAWordIsTheHost() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let before = scenario.sandbox.credentialsBytes()
    let token = try await scenario.run(["token", "-h", "github.test"])
    #expect(token.status == 0, "\(token)")
    #expect(token.stdout == Self.token + "\n")
    #expect(token.stderr == "")
    let help = try await scenario.run(["token", "--help"])
    #expect(help.status == 0, "\(help)")
    #expect(help.stdout.hasPrefix("Usage: ghlogin token"), "\(help)")
    #expect(!help.stdout.contains(Self.token))
    // Not on a terminal (a script's `-h $H` with H empty), `-h` with no host is --host with no
    // value: exit 2, nothing on stdout (issue 29 §1; on a terminal it is help:
    // ScriptAnswersEndToEndTests).
    for args in [["token", "-h"], ["token", "-h", "--user", "octocat"]] {
      let run = try await scenario.run(args)
      #expect(run.status == 2, "\(args): \(run)")
      #expect(run.stdout == "", "\(args): \(run)")
      #expect(run.stderr.hasPrefix("ghlogin token: option --host needs a value (HOST)\n"), "\(args): \(run)")
    }
    let logout = try await scenario.run(["logout", "-h", "ghe.test"])
    #expect(logout.status == 4, "\(logout)")
    #expect(logout.stderr == "ghlogin: not logged in to ghe.test; run 'ghlogin auth --host ghe.test'\n")
    #expect(scenario.sandbox.credentialsBytes() == before)
    let status = try await scenario.run(["status", "-h", "github.test", "--offline"])
    let long = try await scenario.run(["status", "--hostname", "github.test", "--offline"])
    #expect(status.status == 0 && status.stdout == long.stdout && status.stdout.contains("✓ octocat"), "\(status)")
    // Completion offers hosts after -h, and help documents both meanings.
    let zsh = try await scenario.run(["completion", "zsh"])
    #expect(zsh.stdout.contains("'-h[The GitHub host"), "\(zsh.stdout.prefix(200))")
    #expect(try await scenario.run(["token", "--help"]).stdout.contains("-h, --host, --hostname HOST"))
  }

  /// `auth WORD` is the plain command WORD; a mistyped word is a usage error naming the right one.
  @Test func ghsTwoWordFormsRunThePlainCommands() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let before = scenario.sandbox.credentialsBytes()
    for (two, plain) in [
      (["auth", "token", "-h", "github.test"], ["token"]), (["auth", "status", "--offline"], ["status", "--offline"]),
      (["auth", "logout", "-h", "ghe.test"], ["logout", "--host", "ghe.test"]), (["auth", "refresh"], ["refresh"]),
      (["auth", "switch"], ["switch"]),
    ] {
      let a = try await scenario.run(two)
      let b = try await scenario.run(plain)
      #expect(a.status == b.status && a.stdout == b.stdout && a.stderr == b.stderr, "\(two): \(a)\n\(plain): \(b)")
    }
    #expect(
      try await scenario.run(["auth", "refresh"]).stderr
        == "The token for github.test (octocat) does not expire; there is nothing to refresh.\n")
    #expect(try await scenario.run(["auth", "token"]).stdout == Self.token + "\n")

    let typo = try await scenario.run(["auth", "logni"])
    #expect(typo.status == 2, "\(typo)")
    #expect(
      typo.stderr.hasPrefix("ghlogin auth: unknown subcommand 'logni'; did you mean `auth login`?\nUsage: ghlogin auth")
    )
    #expect(typo.stderr.hasSuffix("\nRun 'ghlogin auth --help' for more.\n"))
    let late = try await scenario.run(["auth", "--host", "github.test", "token"])
    #expect(late.status == 2, "\(late)")
    #expect(late.stderr.hasPrefix("ghlogin auth: put 'token' first, right after auth: ghlogin auth token [options]\n"))
    #expect(scenario.sandbox.credentialsBytes() == before)
    #expect(try scenario.fake.requests(path: "/login/oauth/access_token").isEmpty)

    // auth login --with-token is auth --with-token.
    let other = "gho_habitsSecondToken000000000000000000"
    try scenario.fake.register(["tokens": [["access_token": other, "login": "hubot"]]])
    let withToken = try await scenario.run(["auth", "login", "--with-token", "-h", "github.test"], stdin: other)
    #expect(withToken.status == 0, "\(withToken)")
    #expect(withToken.stderr.hasPrefix("Logged in to github.test as hubot (token from standard input)\n"))
  }

  /// `auth refresh -s LIST` logs in again asking for the granted scopes plus LIST, as gh does.
  @Test func authRefreshWithScopesAddsThem() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let env = scenario.environment()
    let fake = scenario.fake
    let pending = try await offload {
      try PendingLogin(
        child: try startGHLogin(["auth", "refresh", "-s", "read:org", "--no-browser"], env: env), fake: fake)
    }
    #expect(pending.query["scope"] == "repo gist read:org", "\(pending.url)")
    _ = try await pending.browse()
    let run = try await pending.finish()
    #expect(run.status == 0, "\(run)")
    #expect(run.stderr.contains("Logged in to github.test as octocat"), "\(run)")
  }

  /// `status --show-token` shows the whole token on stdout; `status` alone never does.
  @Test func statusShowTokenShowsTheWholeToken() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let shown = try await scenario.run(["status", "--offline", "--show-token"])
    #expect(shown.status == 0, "\(shown)")
    #expect(shown.stdout.contains("    token: \(Self.token)\n"), "\(shown)")
    #expect(try await scenario.run(["auth", "status", "--offline", "-t"]).stdout == shown.stdout)
    #expect(!shown.stderr.contains(Self.token))
    let json = try await scenario.run(["status", "--offline", "--json", "--show-token"])
    #expect(Self.jsonAccount(json.stdout)?["token"] as? String == Self.token)
    for args in [["status", "--offline"], ["status"], ["status", "--json"]] {
      let plain = try await scenario.run(args)
      expectNoSecrets([Self.token], in: [plain.stdout, plain.stderr])
    }
  }

  /// `config list`: every key with its file, the secret only as "set"; `config set client_secret -`
  /// says which file it wrote.
  @Test func configListAndTheSecretsFile() async throws {
    let scenario = try await Scenario.start()
    let file = scenario.sandbox.configFile
    let fake = scenario.fake
    let list = try await scenario.run(["config", "list"])
    #expect(list.status == 0, "\(list)")
    let expected = [
      ("api_url", fake.apiBase), ("authorize_url", fake.webBase + "/login/oauth/authorize"),
      ("client_id", "Iv1.testclient"), ("client_secret", "set"),
      ("device_code_url", fake.webBase + "/login/device/code"), ("host", "github.test"),
      ("token_url", fake.webBase + "/login/oauth/access_token"),
    ].map { "\($0.0)=\($0.1)  (\(file))\n" }.joined()
    #expect(list.stdout == expected)
    expectNoSecrets([testClientSecret], in: [list.stdout, list.stderr])

    let set = try await scenario.run(["config", "set", "client_secret", "-"], stdin: "n3w-s3cret\n")
    #expect(set.status == 0, "\(set)")
    #expect(set.stderr == "client_secret written to \(file)\n")
    let host = try await scenario.run(["config", "set", "-h", "ghe.test", "client_secret", "-"], stdin: "gh3-s3cret\n")
    #expect(host.status == 0, "\(host)")
    #expect(host.stderr == "client_secret for ghe.test written to \(file)\n")
    let after = try await scenario.run(["config", "list"])
    #expect(after.stdout.hasSuffix("hosts.ghe.test.client_secret=set  (\(file))\n"), "\(after)")
    expectNoSecrets(["n3w-s3cret", "gh3-s3cret"], in: [after.stdout, after.stderr, set.stderr, host.stderr])
  }

  /// `setup-git --unset` says when there was nothing to remove.
  @Test func setupGitUnsetSaysWhenThereWasNothing() async throws {
    let scenario = try await Scenario.start()
    let nothing = try await scenario.run(["setup-git", "--unset", "-h", "github.test"])
    #expect(nothing.status == 0, "\(nothing)")
    #expect(
      nothing.stderr == "ghlogin was not one of git's credential helpers for https://github.test; nothing to remove\n")
    #expect(try await scenario.run(["setup-git", "-h", "github.test"]).status == 0)
    let removed = try await scenario.run(["setup-git", "--unset", "-h", "github.test"])
    #expect(removed.stderr == "Removed ghlogin from git's credential helpers for https://github.test\n", "\(removed)")
  }

  static func seedThreeAccounts(_ scenario: Scenario) throws {
    let accounts = [("octocat", 1), ("hubot", 2), ("monalisa", 3)].map { login, id in
      CredentialsFile.account(login: login, userID: id, token: "gho_habits\(login)" + String(repeating: "0", count: 20))
    }
    try CredentialsFile.write(
      hosts: ["github.test": ["active": "octocat", "accounts": accounts]], to: scenario.sandbox.credentialsFile)
  }

  /// On a terminal, more than two accounts: a numbered choice; a wrong answer asks again,
  /// Ctrl-C and three wrong answers change nothing.
  @Test func switchOffersANumberedChoiceOnATerminal() async throws {
    let scenario = try await Scenario.start()
    try Self.seedThreeAccounts(scenario)
    let before = scenario.sandbox.credentialsBytes()
    let env = scenario.environment()
    let prompt = "Switch to [1-3]: "

    let interrupted = try await offload { try Self.onTerminal(["switch"], env: env, steps: [(prompt, "\u{3}")]) }
    #expect(interrupted.status == -2, "\(interrupted)")
    #expect(scenario.sandbox.credentialsBytes() == before)

    let wrong = try await offload {
      try Self.onTerminal(["switch"], env: env, steps: [(prompt, "0\r"), (prompt, "x\r"), (prompt, "4\r")])
    }
    #expect(wrong.status == 2, "\(wrong)")
    #expect(wrong.output.contains("ghlogin switch: no account was chosen; nothing was changed\r\n"), "\(wrong)")
    #expect(scenario.sandbox.credentialsBytes() == before)

    let chosen = try await offload {
      try Self.onTerminal(["switch"], env: env, steps: [(prompt, "9\r"), (prompt, "2\r")])
    }
    #expect(chosen.status == 0, "\(chosen)")
    #expect(
      chosen.output.hasPrefix(
        "Accounts on github.test:\r\n  1. octocat (active)\r\n  2. hubot\r\n  3. monalisa\r\n\(prompt)9\r\n"
          + "'9' is not one of 1 to 3\r\n\(prompt)2\r\n"), "\(chosen)")
    #expect(chosen.output.hasSuffix("Switched the active account on github.test to hubot\r\n"), "\(chosen)")
    let hosts = scenario.sandbox.credentialsJSON()?["hosts"] as? [String: Any]
    #expect((hosts?["github.test"] as? [String: Any])?["active"] as? String == "hubot")

    // Not a terminal: the list and --user, exit 2, as before.
    let piped = try await scenario.run(["switch"])
    #expect(piped.status == 2, "\(piped)")
    #expect(piped.stderr.hasPrefix("ghlogin switch: github.test has 3 accounts; choose one with --user:\n"))
  }

  /// `switch --user NAME` for an account that is not there lists the accounts there are.
  @Test func switchToAnUnknownAccountListsTheAccounts() async throws {
    let scenario = try await Scenario.start()
    try Self.seedThreeAccounts(scenario)
    let before = scenario.sandbox.credentialsBytes()
    let run = try await scenario.run(["switch", "--user", "nobody"])
    #expect(run.status == 4, "\(run)")
    #expect(
      run.stderr == "ghlogin: no account nobody on github.test; the accounts there: octocat (active), hubot, monalisa. "
        + "Log in as it with 'ghlogin auth --host github.test --user nobody'\n")
    #expect(scenario.sandbox.credentialsBytes() == before)
  }

  /// `status` on a terminal: ✓ green, names bold; plain with NO_COLOR and in pipes.
  @Test func statusUsesColourOnATerminal() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let env = scenario.environment()
    let coloured = try await offload { try Self.onTerminal(["status", "--offline"], env: env) }
    #expect(coloured.status == 0, "\(coloured)")
    #expect(
      coloured.output.hasPrefix(
        "\u{1B}[1mgithub.test\u{1B}[0m\r\n  \u{1B}[32m✓\u{1B}[0m \u{1B}[1moctocat\u{1B}[0m (active)\r\n"),
      "\(coloured)")
    let plain = try await offload {
      try Self.onTerminal(["status", "--offline"], env: env.merging(["NO_COLOR": "1"]) { $1 })
    }
    #expect(plain.output.hasPrefix("github.test\r\n  ✓ octocat (active)\r\n"), "\(plain)")
    #expect(!plain.output.contains("\u{1B}["))
    let piped = try await scenario.run(["status", "--offline"])
    #expect(piped.stdout.hasPrefix("github.test\n  ✓ octocat (active)\n") && !piped.stdout.contains("\u{1B}["))

    // A rejected token: a red ✗.
    try scenario.fake.revoke(Self.token)
    let rejected = try await offload { try Self.onTerminal(["status"], env: env) }
    #expect(rejected.status == 4, "\(rejected)")
    #expect(rejected.output.contains("  \u{1B}[31m✗\u{1B}[0m \u{1B}[1moctocat\u{1B}[0m (active)\r\n"), "\(rejected)")
  }

  // MARK: - §5 What GitHub says

  /// GitHub-Authentication-Token-Expiration: stored by auth --with-token, shown by status (and
  /// its JSON), warned about by token and env within 7 days; stdout stays the token.
  @Test func gitHubsTokenExpiryIsStoredShownAndWarnedAbout() async throws {
    let scenario = try await Scenario.start()
    let expiry = Self.inDays(3)
    try scenario.fake.register([
      "tokens": [
        ["access_token": Self.token, "login": "octocat", "expiration_header": Self.header(expiry)]
      ]
    ])
    let login = try await scenario.run(["auth", "--with-token"], stdin: Self.token)
    #expect(login.status == 0, "\(login)")
    #expect((Self.account(scenario.sandbox)?["github_token_expiration"] as? Double) == expiry)
    #expect(Self.account(scenario.sandbox)?["expires_at"] == nil)

    let date = Self.header(expiry)
    let status = try await scenario.run(["status"])
    #expect(status.status == 0, "\(status)")
    #expect(
      status.stdout.contains(
        "    scopes: repo, gist\n    GitHub expiry: \(date) (expires in 3 days)\n    online: valid\n"), "\(status)")
    let json = try await scenario.run(["status", "--json"])
    #expect((Self.jsonAccount(json.stdout)?["github_token_expiration"] as? Int).map(Double.init) == expiry, "\(json)")

    let warning =
      "ghlogin: warning: GitHub says the token for github.test (octocat) expires in 3 days (\(date)); "
      + "make a new one and store it with 'ghlogin auth --with-token --host github.test'\n"
    let token = try await scenario.run(["token"])
    #expect(token.status == 0)
    #expect(token.stdout == Self.token + "\n")
    #expect(token.stderr == warning)
    let env = try await scenario.run(["env"])
    #expect(env.status == 0)
    #expect(env.stdout.hasPrefix("export GH_TOKEN="), "\(env)")
    #expect(env.stderr == warning)
  }

  /// whoami records the expiry (here with a numeric offset); far away, token says nothing; a
  /// header of another form is not stored.
  @Test func whoamiRecordsTheExpiryAndFarAwayIsQuiet() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let expiry = Self.inDays(20)
    try scenario.fake.register([
      "tokens": [
        ["access_token": Self.token, "login": "octocat", "expiration_header": Self.header(expiry, offset: "+0200")]
      ]
    ])
    let whoami = try await scenario.run(["whoami"])
    #expect(whoami.status == 0, "\(whoami)")
    #expect((Self.account(scenario.sandbox)?["github_token_expiration"] as? Double) == expiry)
    let token = try await scenario.run(["token"])
    #expect(token.stdout == Self.token + "\n" && token.stderr == "", "\(token)")
    let status = try await scenario.run(["status", "--offline"])
    #expect(status.stdout.contains("    GitHub expiry: \(Self.header(expiry)) (expires in 20 days)\n"), "\(status)")

    // Refused forms leave the stored value as it was.
    let before = scenario.sandbox.credentialsBytes()
    for bad in ["2026-13-01 00:00:00 UTC", Self.header(expiry) + "Z", "tomorrow", Self.header(expiry, offset: "+2500")]
    {
      try scenario.fake.register([
        "tokens": [["access_token": Self.token, "login": "octocat", "expiration_header": bad]]
      ])
      #expect(try await scenario.run(["whoami"]).status == 0)
      #expect(scenario.sandbox.credentialsBytes() == before, "\(bad)")
    }
  }

  /// A 403 with X-GitHub-SSO: required; url=…: the URL (only https on the host) and what to do.
  @Test func ssoRequiredShowsWhereToAuthorise() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let before = scenario.sandbox.credentialsBytes()
    let url = "https://github.test:\(scenario.fake.port)/orgs/acme/sso?authorization_request=A1B2"
    try scenario.fake.script(["orgs": ["sso_required_url": url]])
    let run = try await scenario.run(["whoami"])
    #expect(run.status == 1, "\(run)")
    #expect(
      run.stderr.hasSuffix(
        "refused /user (HTTP 403): this token must be authorised for an organisation's SAML single sign-on: open \(url) "
          + "in a browser, authorise it, then try again\n"), "\(run)")
    #expect(scenario.sandbox.credentialsBytes() == before)
    for hostile in [
      "https://evil.test/orgs/acme/sso", "http://github.test/orgs/acme/sso", "https://github.test/orgs/a b/sso",
    ] {
      try scenario.fake.script(["orgs": ["sso_required_url": hostile]])
      let refused = try await scenario.run(["whoami"])
      #expect(refused.status == 1)
      #expect(
        refused.stderr.hasSuffix(
          "this token must be authorised for an organisation's SAML single sign-on: authorise it on "
            + "https://github.test/settings/tokens (Configure SSO) or in the app's settings, then try again\n"),
        "\(hostile): \(refused)")
      #expect(!refused.stderr.contains("evil") && !refused.stderr.contains("\u{1B}"))
    }
  }

  /// status asks GET /user/orgs; partial results: how many organisations, and where to authorise.
  @Test func statusCountsOrganisationsTheTokenIsNotAuthorisedFor() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let none = try await scenario.run(["status", "--json"])
    #expect(Self.jsonAccount(none.stdout)?["sso_unauthorized_organizations"] as? Int == 0, "\(none)")
    #expect(try scenario.fake.requests().compactMap { $0["path"] as? String }.sorted() == ["/user", "/user/orgs"])
    try scenario.fake.script(["orgs": ["list": [["login": "acme", "id": 5]], "unauthorized": [7, 9]]])
    let run = try await scenario.run(["status"])
    #expect(run.status == 0, "\(run)")
    #expect(
      run.stdout.contains(
        "    online: valid\n    SSO: not authorised for 2 organisations (SAML single sign-on); authorise the token "
          + "for them at https://github.test/settings/tokens (Configure SSO) for a token you made, or at "
          + "https://github.test/settings/applications for an app's token\n"), "\(run)")
    let json = try await scenario.run(["status", "--json"])
    #expect(Self.jsonAccount(json.stdout)?["sso_unauthorized_organizations"] as? Int == 2, "\(json)")
    let offline = try await scenario.run(["status", "--json", "--offline"])
    #expect(Self.jsonAccount(offline.stdout)?["sso_unauthorized_organizations"] is NSNull)
  }

  /// The chosen host's active account whose session expired: status exits 4, so
  /// `ghlogin status || ghlogin auth` works.
  @Test func statusExits4WhenTheSessionExpired() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    var account = CredentialsFile.account(login: "octocat", userID: 1, token: Self.token)
    account["expired"] = true
    try CredentialsFile.write(
      hosts: ["github.test": ["active": "octocat", "accounts": [account]]], to: scenario.sandbox.credentialsFile)
    let before = scenario.sandbox.credentialsBytes()
    let message = "ghlogin: the session for github.test (octocat) has expired; run 'ghlogin auth --host github.test'\n"
    for args in [["status", "--offline"], ["status"]] {
      let run = try await scenario.run(args)
      #expect(run.status == 4, "\(args): \(run)")
      #expect(run.stderr == message, "\(args): \(run)")
      #expect(run.stdout.contains("(active, session expired)"))
    }
    let json = try await scenario.run(["status", "--json", "--offline"])
    #expect(json.status == 4 && Self.jsonAccount(json.stdout)?["session_expired"] as? Bool == true)
    #expect(scenario.sandbox.credentialsBytes() == before)
    let binary = try HarnessPaths.ghloginBinary()
    let shell = try ChildProcess(
      executable: "/bin/bash",
      arguments: ["-c", "\"$0\" status --offline >/dev/null 2>&1 || echo login-needed", binary],
      environment: scenario.environment(), stdin: ""
    ).finish(timeout: 30)
    #expect(shell.stdout == "login-needed\n", "\(shell)")
  }
}
