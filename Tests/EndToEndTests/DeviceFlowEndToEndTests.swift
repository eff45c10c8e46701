import Foundation
import Testing

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// `ghlogin auth --device` (and plain `auth` with no display) against the fake GitHub, which
/// hands out `interval=1` to keep these fast and records the time of every poll.
@Suite struct DeviceFlowEndToEndTests {
  /// A fake, a sandbox whose config points at it, and a script with `interval: 1`.
  static func setUp(_ script: [String: Any] = [:], device: [String: Any] = [:]) throws -> Sandbox {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    var settings: [String: Any] = ["interval": 1]
    settings.merge(device) { _, new in new }
    var full = script
    full["device"] = settings
    try fake.script(full)
    return sandbox
  }

  /// Writes a valid credentials file for `hubot` (so "unchanged" means something) and returns its bytes.
  static func seedCredentials(_ sandbox: Sandbox) throws -> [UInt8] {
    let json = #"""
      {"version":1,"hosts":{"github.test":{"active":"hubot","accounts":[{"login":"hubot","user_id":2,"token":"gho_before","token_type":"bearer","scopes":["repo"],"created_at":1700000000}]}}}
      """#
    _ = FileManager.default.createFile(
      atPath: sandbox.credentialsFile, contents: Data(json.utf8), attributes: [.posixPermissions: 0o600])
    let check = try runGHLogin(["token"], env: sandbox.environment())
    #expect(check.stdout == "gho_before\n", "the seeded credentials must be readable: \(check.stderr)")
    return try #require(sandbox.credentialsBytes())
  }

  /// The one device session's issue time and poll records.
  static func session(_ fake: FakeGitHub) throws -> (issuedAt: Double, polls: [[String: Any]]) {
    let sessions = try #require(try fake.state()["device_sessions"] as? [[String: Any]])
    try #require(sessions.count == 1)
    let issuedAt = try #require(sessions[0]["issued_at"] as? Double)
    return (issuedAt, sessions[0]["polls"] as? [[String: Any]] ?? [])
  }

  /// Gaps between polls (the first from the code's issue time), as the fake saw them.
  static func gaps(_ session: (issuedAt: Double, polls: [[String: Any]])) -> [Double] {
    var previous = session.issuedAt
    return session.polls.compactMap { $0["time"] as? Double }.map { time in
      defer { previous = time }
      return time - previous
    }
  }

  /// R33, R34 end to end, through plain `auth` with no display: pending ×2 then a token; gaps ≥ the
  /// interval, the right grant, no client secret anywhere; stored as a device login.
  @Test func plainAuthWithoutDisplayPollsPolitelyAndLogsIn() throws {
    let sandbox = try Self.setUp([
      "responses": ["device_poll": ["authorization_pending", "authorization_pending", "success"]]
    ])
    let fake = sandbox.fake
    let run = try runGHLogin(["auth"], env: sandbox.environment(), timeout: 30)
    #expect(run.status == 0, "\(run.stderr)")
    let lines = run.stderr.split(separator: "\n").map(String.init)
    #expect(lines.first == "No display found: using the device flow (pass --web for the browser flow).")
    let codeLine = try #require(lines.first { $0.hasPrefix("First copy your one-time code: ") })
    #expect(codeLine.wholeMatch(of: /First copy your one-time code: [A-Z0-9]{4}-[A-Z0-9]{4}/) != nil)
    let index = try #require(lines.firstIndex(of: codeLine))
    #expect(lines[index + 1] == "https://github.test/login/device")
    #expect(lines.suffix(2) == ["Logged in to github.test as octocat", "To let git use this login: ghlogin setup-git"])

    let session = try Self.session(fake)
    #expect(session.polls.count == 3)
    #expect(Self.gaps(session).allSatisfy { $0 >= 1 }, "gaps \(Self.gaps(session))")
    #expect(session.polls.allSatisfy { $0["client_secret_sent"] as? Bool == false })
    #expect(try fake.counter("device_polls_too_early") == 0)
    let codeRequest = try #require(try fake.requests(path: "/login/device/code").first)
    #expect(codeRequest.formValue("client_id") == "Iv1.testclient")
    #expect(codeRequest.formValue("client_secret") == nil)
    let poll = try #require(try fake.requests(path: "/login/oauth/access_token").first)
    #expect(poll.formValue("grant_type") == "urn:ietf:params:oauth:grant-type:device_code")
    #expect(poll.formValue("client_secret") == nil)

    let credentials = try #require(sandbox.credentialsJSON())
    let hosts = try #require(credentials["hosts"] as? [String: Any])
    let entry = try #require(hosts["github.test"] as? [String: Any])
    let account = try #require((entry["accounts"] as? [[String: Any]])?.first)
    #expect(account["login"] as? String == "octocat")
    #expect(account["via_device_flow"] as? Bool == true)
  }

  /// R34 end to end: after `slow_down` the next poll waits ≥ interval + 5 s, and the fake
  /// never sees an early poll.
  @Test func slowDownIsObeyed() throws {
    let sandbox = try Self.setUp(["responses": ["device_poll": ["slow_down", "success"]]])
    let run = try runGHLogin(["auth", "--device"], env: sandbox.environment(), timeout: 30)
    #expect(run.status == 0, "\(run.stderr)")
    let gaps = Self.gaps(try Self.session(sandbox.fake))
    #expect(gaps.count == 2)
    #expect(gaps.first.map { $0 >= 1 } == true)
    #expect(gaps.last.map { $0 >= 6 } == true, "gaps \(gaps)")
    #expect(try sandbox.fake.counter("device_polls_too_early") == 0)
  }

  /// R35: the connection is dropped on poll 2: retried later with a doubled interval.
  @Test func droppedConnectionIsRetried() throws {
    let sandbox = try Self.setUp(["responses": ["device_poll": ["authorization_pending", "drop", "success"]]])
    let run = try runGHLogin(["auth", "--device"], env: sandbox.environment(), timeout: 30)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("; trying again in 3 seconds\n"))
    let gaps = Self.gaps(try Self.session(sandbox.fake))
    #expect(gaps.count == 3)
    #expect(gaps.last.map { $0 >= 2 } == true, "gaps \(gaps)")
  }

  /// R36: `expired_token` / `token_expired` stop at once: exit 1, the rerun message, nothing stored.
  @Test(arguments: ["expired_token", "token_expired"])
  func expiredCodeStops(_ code: String) throws {
    let sandbox = try Self.setUp(["responses": ["device_poll": [code, "success"]]])
    let before = try Self.seedCredentials(sandbox)
    let run = try runGHLogin(["auth", "--device"], env: sandbox.environment(), timeout: 30)
    #expect(run.status == 1)
    #expect(run.stderr.hasSuffix("ghlogin: the code expired; run 'ghlogin auth --host github.test --device' again\n"))
    #expect(try Self.session(sandbox.fake).polls.count == 1)
    #expect(sandbox.credentialsBytes() == before)
  }

  /// R36: the code's life (2 s) runs out while pending: stop at about 2 s, few polls.
  @Test func lifetimeRunsOut() throws {
    let sandbox = try Self.setUp(
      ["responses": ["device_poll": [["kind": "oauth_error", "error": "authorization_pending", "sticky": true]]]],
      device: ["expires_in": 2])
    let started = Date()
    let run = try runGHLogin(["auth", "--device"], env: sandbox.environment(), timeout: 30)
    let elapsed = Date().timeIntervalSince(started)
    #expect(run.status == 1)
    #expect(run.stderr.hasSuffix("ghlogin: the code expired; run 'ghlogin auth --host github.test --device' again\n"))
    #expect(elapsed >= 2 && elapsed < 10, "took \(elapsed) s")  // not the default 900 s; room for load
    #expect(try Self.session(sandbox.fake).polls.count <= 3)
    #expect(sandbox.credentialsBytes() == nil)
  }

  /// R36: `access_denied`: exit 1, the cancellation reported, the credentials file unchanged.
  @Test func deniedStops() throws {
    let sandbox = try Self.setUp(["responses": ["device_poll": ["access_denied"]]])
    let before = try Self.seedCredentials(sandbox)
    let run = try runGHLogin(["auth", "--device"], env: sandbox.environment(), timeout: 30)
    #expect(run.status == 1)
    #expect(
      run.stderr.hasSuffix(
        "ghlogin: the login to github.test was denied (access_denied); nothing was stored. "
          + "Run 'ghlogin auth --host github.test --device' again to retry\n"))
    #expect(sandbox.credentialsBytes() == before)
  }

  /// R37: `device_flow_disabled` from the code endpoint (HTTP 400), or on a poll: exit 2 (issue 29
  /// §2: the app's settings must change) and the "Enable Device Flow" hint; no polling after the
  /// code endpoint refused.
  @Test func disabledAtTheCodeEndpoint() throws {
    let sandbox = try Self.setUp([
      "responses": [
        "device_code": [
          ["kind": "status", "status": 400, "json": ["error": "device_flow_disabled", "error_description": "off"]]
        ]
      ]
    ])
    let before = try Self.seedCredentials(sandbox)
    let run = try runGHLogin(["auth", "--device"], env: sandbox.environment(), timeout: 30)
    #expect(run.status == 2)
    #expect(
      run.stderr.contains("tick \"Enable Device Flow\" on the app's page (https://github.test/settings/developers)"))
    #expect(try sandbox.fake.counter("device_polls") == 0)
    #expect(sandbox.credentialsBytes() == before)
  }

  @Test func disabledOnAPoll() throws {
    let sandbox = try Self.setUp(["responses": ["device_poll": ["device_flow_disabled"]]])
    let run = try runGHLogin(["auth", "--device"], env: sandbox.environment(), timeout: 30)
    #expect(run.status == 2)
    #expect(
      run.stderr.contains("tick \"Enable Device Flow\" on the app's page (https://github.test/settings/developers)"))
    #expect(sandbox.credentialsBytes() == nil)
  }

  /// R37: a 404 from the code endpoint means the device flow is unavailable.
  @Test func notFoundIsUnavailable() throws {
    let sandbox = try Self.setUp(["responses": ["device_code": [404]]])
    let run = try runGHLogin(["auth", "--device"], env: sandbox.environment(), timeout: 30)
    #expect(run.status == 1)
    #expect(run.stderr.hasPrefix("ghlogin: the device flow is not available on github.test ("))
    #expect(try sandbox.fake.counter("device_polls") == 0)
  }

  /// A 5xx from the code endpoint names the step, the config key and the URL;
  /// exit 1, no poll, nothing stored.
  @Test func aServerErrorFromTheCodeEndpointNamesTheStep() throws {
    let sandbox = try Self.setUp(["responses": ["device_code": [500]]])
    let run = try runGHLogin(["auth", "--device"], env: sandbox.environment(), timeout: 30)
    #expect(run.status == 1, "\(run.stderr)")
    #expect(
      run.stderr.hasSuffix(
        "ghlogin: device code request at device_code_url \(sandbox.fake.webBase)/login/device/code: "
          + "github.test answered HTTP 500; try again later\n"),
      "\(run.stderr)")
    #expect(try sandbox.fake.counter("device_polls") == 0)
    #expect(sandbox.credentialsBytes() == nil)
  }

  /// R39: with a display and a browser, the page opens only when it is on the configured host.
  @Test(arguments: [
    ("https://github.test/login/device", true), ("https://evil.test/login/device", false),
  ])
  func browserOpensOnlyTheConfiguredHost(_ uri: String, _ opens: Bool) throws {
    let sandbox = try Self.setUp(["responses": ["device_poll": ["success"]]], device: ["verification_uri": uri])
    try sandbox.installBrowserStub()
    let run = try runGHLogin(["auth", "--device"], env: sandbox.environment(["DISPLAY": ":0"]), timeout: 30)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("\n\(uri)\n"))
    let calls = sandbox.browserCalls()
    if opens {
      #expect(calls.count == 1)
      #expect((calls.first?["argv"] as? [String])?.last == uri)
    } else {
      #expect(calls.isEmpty)
      #expect(run.stderr.contains("Warning: not opening a browser: that page is on evil.test, not on github.test."))
    }
  }

  /// Ctrl-C while waiting: death by SIGINT (130 in a shell), nothing stored, no more polls.
  @Test func interruptStopsTheWait() throws {
    let sandbox = try Self.setUp(
      ["responses": ["device_poll": [["kind": "oauth_error", "error": "authorization_pending", "sticky": true]]]],
      device: ["interval": 3])
    let child = try startGHLogin(["auth", "--device"], env: sandbox.environment(), stdin: "")
    _ = try child.waitForLine(.stderr, timeout: 20) { $0.hasPrefix("Waiting up to ") }
    child.send(signal: SIGINT)
    let result = try child.finish(timeout: 10)
    #expect(result.status == -SIGINT)
    #expect(result.stderr.hasSuffix("ghlogin: interrupted; nothing was stored\n"))
    #expect(try sandbox.fake.counter("device_polls") == 0)
    #expect(sandbox.credentialsBytes() == nil)
  }
}
