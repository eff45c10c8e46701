import Foundation
import Testing

/// `GET /user` through the built binary: rejected tokens, hostile logins, redirects that must
/// not carry the token away, and the account check of `auth --user` (`whoami`;
/// R24, R75, R83).
@Suite struct WhoamiEndToEndTests {
  static let token = "gho_whoamiTestToken0123456789abcdefghij"

  /// A stored token the fake does not know: exit 4 with the documented message, file unchanged.
  @Test func rejectedTokenExits4() async throws {
    let scenario = try await Scenario.start()
    try scenario.sandbox.writeCredentials(["github.test": ("octocat", 1, Self.token)])  // not registered
    let before = scenario.sandbox.credentialsBytes()
    let run = try await scenario.run(["whoami"])
    #expect(run.status == 4, "\(run)")
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "ghlogin: the token for github.test was rejected (revoked or expired); run 'ghlogin auth --host github.test'\n"
    )
    #expect(scenario.sandbox.credentialsBytes() == before)
    let request = try #require(try scenario.fake.requests(path: "/user").first)
    #expect(request["status"] as? Int == 401)
    #expect(request.header("Authorization") == "Bearer " + Self.token)
    expectNoSecrets([Self.token], in: [run.stderr])
  }

  /// A network failure: exit 1 with a message naming the address, file unchanged.
  @Test func unreachableAPIExits1() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    try scenario.sandbox.writeConfig(["api_url": "https://127.0.0.1:1"])
    let before = scenario.sandbox.credentialsBytes()
    let run = try await scenario.run(["whoami"])
    #expect(run.status == 1, "\(run)")
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "ghlogin: identity check at api_url https://127.0.0.1:1/: could not connect to 127.0.0.1:1: Connection refused\n"
    )
    #expect(scenario.sandbox.credentialsBytes() == before)
  }

  /// A server error or an answer that is not JSON names the step, the config key
  /// and the URL; exit 1, the file unchanged, the token in no message.
  @Test(arguments: [
    (503, "text/plain", "the server answered HTTP 503 for /user; try again later"),
    (200, "text/html", "the server answered /user with 'text/html', not JSON; check the host and api_url settings"),
  ])
  func serverErrorsNameTheStep(_ status: Int, _ contentType: String, _ what: String) async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let answer: [String: Any] = [
      "kind": "status", "status": status, "body": "<html>down</html>", "content_type": contentType,
    ]
    try scenario.fake.script(["responses": ["user": [answer]]])
    let before = scenario.sandbox.credentialsBytes()
    let run = try await scenario.run(["whoami"])
    #expect(run.status == 1, "\(run)")
    #expect(run.stdout == "")
    #expect(run.stderr == "ghlogin: identity check at api_url \(scenario.fake.apiBase)/: \(what)\n")
    #expect(scenario.sandbox.credentialsBytes() == before)
    expectNoSecrets([Self.token], in: [run.stderr])
  }

  /// R83: a login and name with terminal escapes are printed with the control characters
  /// stripped; `--json` passes the JSON through as received (escaped, so no raw ESC).
  @Test func escapeSequencesInTheLoginAreStripped() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    try scenario.fake.script([
      "user": ["override": ["login": "oct\u{1b}[31mocat", "name": "The\u{07} \u{1b}]0;pwned\u{07}Cat"]]
    ])
    let run = try await scenario.run(["whoami"])
    #expect(run.status == 0, "\(run)")
    #expect(run.stdout == "oct[31mocat (The ]0;pwnedCat) on github.test\n")
    let json = try await scenario.run(["whoami", "--json"])
    #expect(json.status == 0, "\(json)")
    #expect(!json.stdout.contains("\u{1b}") && !json.stdout.contains("\u{07}"))
    #expect(json.stdout.contains(#""login":"oct\u001b[31mocat""#), "\(json.stdout)")
  }

  /// R83 at login: the account name printed and stored is the stripped one.
  @Test func loginWithEscapeSequenceIsPrintedStripped() async throws {
    let scenario = try await Scenario.start()
    try scenario.fake.script(["user": ["override": ["login": "oct\u{1b}[31mocat"]]])
    let (run, browser, _) = try await scenario.login()
    #expect(run.status == 0, "\(run)")
    #expect(
      run.stderr.hasSuffix("Logged in to github.test as oct[31mocat\nTo let git use this login: ghlogin setup-git\n"),
      "\(run)")
    #expect(!run.stderr.contains("\u{1b}"))
    #expect(browser.callbackBody?.contains("as oct[31mocat") == true)
  }

  /// R75: `/user` redirected to another origin is not followed, so the token goes nowhere else.
  @Test(arguments: [
    "https://ghe.test:{port}/api/v3/user", "https://github.test:{port}/api/v3/user",
    "https://api.github.test:1/user", "http://api.github.test:{port}/user",
  ])
  func crossOriginRedirectIsNotFollowed(_ location: String) async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    // The message names the other origin only (scheme, host and port).
    let origin = location.replacingOccurrences(of: "{port}", with: String(scenario.fake.port))
      .split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false).prefix(3).joined(separator: "/")
    try scenario.fake.script(["responses": ["user": [["kind": "redirect", "location": location]]]])
    let run = try await scenario.run(["whoami"])
    #expect(run.status == 1, "\(run)")
    #expect(
      run.stderr
        == "ghlogin: identity check at api_url https://api.github.test:\(scenario.fake.port)/: the server redirected "
        + "/user to \(origin); not followed, so the token "
        + "was not sent there. Check the host and api_url settings\n")
    let requests = try scenario.fake.requests()
    #expect(requests.count == 1, "only the redirected request: \(requests)")
    #expect(requests.allSatisfy { ($0["host"] as? String)?.hasPrefix("api.github.test:") == true })
  }

  /// R24: `auth --user hubot` while GitHub logs in octocat: exit 1, nothing stored.
  @Test func loginAsAnotherAccountThanAskedFails() async throws {
    let scenario = try await Scenario.start()
    try scenario.fake.script(["authorize": ["user": "octocat"]])
    let (run, browser, pending) = try await scenario.login(["--user", "hubot"])
    #expect(pending.query["login"] == "hubot")
    #expect(run.status == 1, "\(run)")
    #expect(
      run.stderr.hasSuffix(
        "ghlogin: logged in to github.test as octocat, but hubot was asked for; nothing was stored. "
          + "Switch accounts in the browser and run 'ghlogin auth --host github.test' again\n"), "\(run)")
    #expect(browser.callbackBody?.contains("Login failed") == true)
    expectNothingStored(scenario)
  }
}
