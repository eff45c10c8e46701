import Foundation
import Testing

/// R81: `auth --with-token` (a token from standard input, checked with GET /user before
/// it is stored) and `auth --add-scopes` (the granted scopes plus new ones).
@Suite struct WithTokenEndToEndTests {
  static let pat = "ghp_withTokenClassicPAT0123456789abcdefgh"

  /// A scenario whose config has no client ID or secret: --with-token needs neither.
  func scenarioWithoutApp() async throws -> Scenario {
    let scenario = try await Scenario.start(config: ["client_id": NSNull(), "client_secret": NSNull()])
    try scenario.fake.register(["tokens": [["access_token": Self.pat, "login": "octocat", "scopes": "repo,read:org"]]])
    return scenario
  }

  @Test func aTokenFromAPipeIsCheckedAndStored() async throws {
    let scenario = try await scenarioWithoutApp()
    let run = try await scenario.run(["auth", "--with-token"], stdin: Self.pat + "\n")
    #expect(run.status == 0, "\(run)")
    #expect(run.stdout == "")
    #expect(
      run.stderr == "Logged in to github.test as octocat (token from standard input)\n"
        + "To let git use this login: ghlogin setup-git\n")
    let hosts = try #require(scenario.sandbox.credentialsJSON()?["hosts"] as? [String: Any])
    let entry = try #require(hosts["github.test"] as? [String: Any])
    #expect(entry["active"] as? String == "octocat")
    let account = try #require((entry["accounts"] as? [[String: Any]])?.first)
    #expect(account["login"] as? String == "octocat")
    #expect(account["user_id"] as? Int == 1)
    #expect(account["token"] as? String == Self.pat)
    #expect(account["scopes"] as? [String] == ["repo", "read:org"])
    let requests = try scenario.fake.requests()
    #expect(requests.map { $0["path"] as? String } == ["/user"])
    #expect(requests.first?.header("Authorization") == "Bearer " + Self.pat)
    #expect(Scenario.mode(of: scenario.sandbox.credentialsFile) == 0o600)

    // The stored token then serves `token`, as any login.
    let token = try await scenario.run(["token"])
    #expect(token.stdout == Self.pat + "\n")
  }

  /// A GitHub App user token has no X-OAuth-Scopes: stored with no scopes; CRLF is trimmed.
  @Test func aGitHubAppUserTokenIsStoredWithoutScopes() async throws {
    let scenario = try await scenarioWithoutApp()
    let appToken = "ghu_withTokenAppUserToken0123456789abcdef"
    try scenario.fake.register(["tokens": [["access_token": appToken, "login": "hubot", "kind": "app"]]])
    let run = try await scenario.run(["auth", "--with-token"], stdin: "  " + appToken + "\r\n")
    #expect(run.status == 0, "\(run)")
    let hosts = scenario.sandbox.credentialsJSON()?["hosts"] as? [String: Any]
    let account = ((hosts?["github.test"] as? [String: Any])?["accounts"] as? [[String: Any]])?.first
    #expect(account?["login"] as? String == "hubot")
    #expect(account?["token"] as? String == appToken)
    #expect(account?["scopes"] as? [String] == [])
  }

  /// A token that replaces the account's stored one revokes the old token; when revoking fails,
  /// the new token still stands and a warning says where to revoke the old one by hand.
  @Test func aFailedRevocationOfTheReplacedTokenWarns() async throws {
    let scenario = try await Scenario.start()
    let old = "gho_withTokenReplacedOld0000000000000000"
    try scenario.seedLogin(token: old)
    try scenario.fake.register(["tokens": [["access_token": Self.pat, "login": "octocat", "scopes": "repo"]]])
    try scenario.fake.script(["responses": ["revoke": [503]]])
    let run = try await scenario.run(["auth", "--with-token"], stdin: Self.pat + "\n")
    #expect(run.status == 0, "\(run)")
    #expect(run.stderr.hasPrefix("Logged in to github.test as octocat (token from standard input)\n"))
    #expect(
      run.stderr.contains(
        "ghlogin: warning: could not revoke the previous token of octocat at github.test: "),
      "\(run)")
    // github.test's endpoints are configured: not known to be GitHub, so no GitHub page (R103).
    #expect(run.stderr.contains("revoke it by hand at the server that issued it"))
    #expect(!run.stderr.contains(old) && !run.stderr.contains(Self.pat))
    let hosts = scenario.sandbox.credentialsJSON()?["hosts"] as? [String: Any]
    let accounts = (hosts?["github.test"] as? [String: Any])?["accounts"] as? [[String: Any]]
    #expect(accounts?.map { $0["token"] as? String } == [Self.pat])
  }

  /// A token GitHub rejects: exit 4, nothing stored, the token in no message.
  @Test func aRejectedTokenExits4AndStoresNothing() async throws {
    let scenario = try await scenarioWithoutApp()
    let unknown = "ghp_notKnownAtGitHub000000000000000000000"
    let run = try await scenario.run(["auth", "--with-token"], stdin: unknown + "\n")
    #expect(run.status == 4, "\(run)")
    #expect(run.stdout == "")
    #expect(
      run.stderr == "ghlogin: github.test rejected the token (HTTP 401: revoked, expired or mistyped); "
        + "nothing was stored\n")
    expectNothingStored(scenario)
    expectNoSecrets([unknown], in: [run.stdout, run.stderr])
  }

  /// A login already stored stays as it was when the new token is rejected.
  @Test func aRejectedTokenLeavesTheStoredLoginAlone() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: "gho_storedBefore000000000000000000000000")
    let before = scenario.sandbox.credentialsBytes()
    let run = try await scenario.run(["auth", "--with-token"], stdin: "ghp_rejected0000000000000000000000000000\n")
    #expect(run.status == 4, "\(run)")
    #expect(scenario.sandbox.credentialsBytes() == before)
  }

  struct BadInput: CustomTestStringConvertible, Sendable {
    let name: String
    let stdin: String
    let message: String
    var testDescription: String { name }
  }

  static let badInputs: [BadInput] = [
    BadInput(
      name: "empty", stdin: "",
      message: "no token on standard input; pipe one in, for example: ghlogin auth --with-token < token.txt"),
    BadInput(
      name: "only whitespace", stdin: " \n\t\n",
      message: "no token on standard input; pipe one in, for example: ghlogin auth --with-token < token.txt"),
    BadInput(
      name: "two words", stdin: "ghp_one ghp_two\n",
      message: "standard input holds more than one word; give the token alone (one line). Nothing was stored"),
    BadInput(
      name: "two lines", stdin: "ghp_one\nghp_two\n",
      message: "standard input holds more than one word; give the token alone (one line). Nothing was stored"),
    BadInput(
      name: "an equals sign", stdin: "GH_TOKEN=ghp_abc\n",
      message: "standard input is not a token: it has characters tokens never have (control characters, "
        + "non-ASCII or '='). Nothing was stored"),
    BadInput(
      name: "non-ASCII", stdin: "ghp_tökén\n",
      message: "standard input is not a token: it has characters tokens never have (control characters, "
        + "non-ASCII or '='). Nothing was stored"),
    BadInput(
      name: "over 16 KiB", stdin: String(repeating: "a", count: 16 * 1024 + 1),
      message: "standard input is larger than 16 KiB; it is not a token. Nothing was stored"),
  ]

  /// Input that is not one token: exit 2, nothing stored, nothing sent to GitHub.
  @Test(arguments: badInputs)
  func inputThatIsNotATokenIsRefused(_ input: BadInput) async throws {
    let scenario = try await scenarioWithoutApp()
    let run = try await scenario.run(["auth", "--with-token"], stdin: input.stdin)
    #expect(run.status == 2, "\(run)")
    #expect(run.stdout == "")
    #expect(run.stderr == "ghlogin: " + input.message + "\n")
    expectNothingStored(scenario)
    #expect(try scenario.fake.log().isEmpty, "nothing reached GitHub")
  }

  /// The options of a GitHub login make no sense with a token: a usage error.
  @Test(arguments: [["--device"], ["--scopes", "repo"], ["--add-scopes", "repo"], ["--port", "0"]])
  func loginOptionsAreRefused(_ extra: [String]) async throws {
    let scenario = try await scenarioWithoutApp()
    let run = try await scenario.run(["auth", "--with-token"] + extra, stdin: Self.pat)
    #expect(run.status == 2, "\(run)")
    #expect(
      run.stderr.hasPrefix(
        "ghlogin auth: \(extra[0]) is for logging in through GitHub; --with-token stores a token you already have\n"))
    expectNothingStored(scenario)
  }

  /// `--user` checks whose token it is.
  @Test func anotherAccountThanUserIsRefused() async throws {
    let scenario = try await scenarioWithoutApp()
    let run = try await scenario.run(["auth", "--with-token", "--user", "hubot"], stdin: Self.pat)
    #expect(run.status == 1, "\(run)")
    #expect(
      run.stderr.hasPrefix("ghlogin: logged in to github.test as octocat, but hubot was asked for; nothing was stored.")
    )
    expectNothingStored(scenario)
  }

  /// `--add-scopes admin:org` asks for the granted scopes plus admin:org, as the same account,
  /// and stores what GitHub granted.
  @Test func addScopesAsksForTheUnion() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: "gho_addScopesBefore00000000000000000000")  // granted repo, gist
    let pending = try await scenario.startAuth(["--add-scopes", "admin:org,gist"])
    #expect(pending.query["scope"] == "repo gist admin:org")
    #expect(pending.query["login"] == "octocat")
    _ = try await pending.browse()
    let run = try await pending.finish()
    #expect(run.status == 0, "\(run)")
    let hosts = scenario.sandbox.credentialsJSON()?["hosts"] as? [String: Any]
    let accounts = (hosts?["github.test"] as? [String: Any])?["accounts"] as? [[String: Any]]
    #expect(accounts?.count == 1)
    #expect(accounts?.first?["scopes"] as? [String] == ["repo", "gist", "admin:org"])
  }

  /// No login to add scopes to: exit 4, nothing started.
  @Test func addScopesWithoutALoginExits4() async throws {
    let scenario = try await Scenario.start()
    let run = try await scenario.run(["auth", "--no-browser", "--add-scopes", "admin:org"])
    #expect(run.status == 4, "\(run)")
    #expect(run.stderr == "ghlogin: not logged in to github.test; run 'ghlogin auth --host github.test'\n")
    #expect(try scenario.fake.log().isEmpty)
  }
}
