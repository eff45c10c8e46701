import Foundation
import Testing

/// `status` checks every stored token with GitHub (valid, rejected, could not
/// check), exits 4 when the active token of the chosen host was rejected, `--offline` reads only
/// the file, `--json` carries the check, and GH_TOKEN/GITHUB_TOKEN holding another token is
/// warned about. Nothing is refreshed or written.
@Suite struct StatusEndToEndTests {
  static let token = "gho_statusTestToken0123456789abcdefghijk"

  static func listing(_ scenario: Scenario, online: String?, mark: String = "✓") -> String {
    "github.test\n  \(mark) octocat (active)\n    token: gho_****\(token.suffix(4))\n    kept in: the credentials file\n    scopes: repo, gist\n"
      + (online.map { "    online: \($0)\n" } ?? "")
      + "\nCredentials: \(scenario.sandbox.credentialsFile) (mode 0600, owned by you: safe)\n"
  }

  @Test func aValidTokenSaysValid() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let run = try await scenario.run(["status"])
    #expect(run.status == 0, "\(run)")
    #expect(run.stdout == Self.listing(scenario, online: "valid"))
    #expect(run.stderr == "")
    let requests = try scenario.fake.requests()
    // GET /user, then GET /user/orgs (organisation SSO)
    #expect(requests.map { $0["path"] as? String } == ["/user", "/user/orgs"])
  }

  /// T: a token revoked at GitHub shows as rejected, exit 4, and the file is left as it was.
  @Test func aRevokedTokenExits4() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    try scenario.fake.revoke(Self.token)
    let before = scenario.sandbox.credentialsBytes()
    let run = try await scenario.run(["status"])
    #expect(run.status == 4, "\(run)")
    #expect(
      run.stdout
        == Self.listing(
          scenario, online: "rejected by github.test (revoked or expired); run 'ghlogin auth --host github.test'",
          mark: "✗"))
    #expect(
      run.stderr == "ghlogin: the active token for github.test (octocat) was rejected by GitHub; "
        + "run 'ghlogin auth --host github.test'\n")
    #expect(scenario.sandbox.credentialsBytes() == before)
    expectNoSecrets([Self.token], in: [run.stdout, run.stderr])

    // --offline: today's file-only view, exit 0, no request.
    try scenario.fake.clearLog()
    let offline = try await scenario.run(["status", "--offline"])
    #expect(offline.status == 0, "\(offline)")
    #expect(offline.stdout == Self.listing(scenario, online: nil))
    #expect(try scenario.fake.log().isEmpty)
  }

  /// GitHub cannot be reached: "could not check" and why, exit 0.
  @Test func anUnreachableAPISaysWhy() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    try scenario.sandbox.writeConfig(["api_url": "https://127.0.0.1:1"])
    let run = try await scenario.run(["status"])
    #expect(run.status == 0, "\(run)")
    #expect(
      run.stdout
        == Self.listing(
          scenario,
          online:
            "could not check (identity check at api_url https://127.0.0.1:1/: could not connect to 127.0.0.1:1: Connection refused)"
        ))
  }

  /// A slow API does not hold `status` up past the deadline of a few seconds.
  @Test func aSlowAPIIsGivenUpOn() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    try scenario.fake.script(["responses": ["user": [["kind": "normal", "delay": 20]]]])
    let start = Date()
    let run = try await scenario.run(["status"])
    #expect(Date().timeIntervalSince(start) < 15)
    #expect(run.status == 0, "\(run)")
    #expect(run.stdout.contains("    online: could not check ("), "\(run)")
  }

  @Test func jsonCarriesTheCheck() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let run = try await scenario.run(["status", "--json"])
    #expect(run.status == 0, "\(run)")
    let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    let account =
      (((object?["hosts"] as? [String: Any])?["github.test"] as? [String: Any])?["accounts"]
      as? [[String: Any]])?.first
    #expect(account?["check"] as? [String: String] == ["result": "valid", "login": "octocat"])

    try scenario.fake.revoke(Self.token)
    let rejected = try await scenario.run(["status", "--json"])
    #expect(rejected.status == 4, "\(rejected)")
    #expect(rejected.stdout.contains(#""check": {"#) || rejected.stdout.contains(#""check":{"#), "\(rejected)")
    #expect(rejected.stdout.contains(#""result": "rejected""#) || rejected.stdout.contains(#""result":"rejected""#))

    let offline = try await scenario.run(["status", "--json", "--offline"])
    #expect(offline.status == 0, "\(offline)")
    let offlineObject = try JSONSerialization.jsonObject(with: Data(offline.stdout.utf8)) as? [String: Any]
    let offlineAccount =
      (((offlineObject?["hosts"] as? [String: Any])?["github.test"] as? [String: Any])?["accounts"]
      as? [[String: Any]])?.first
    #expect(offlineAccount?["check"] is NSNull)
  }

  /// GH_TOKEN or GITHUB_TOKEN holding another token: one warning each, neither token shown;
  /// the same token: no warning.
  @Test func environmentTokensThatDifferAreWarnedAbout() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let other = "ghp_someOtherTokenInTheEnvironment000000"
    let run = try await scenario.run(["status", "--offline"], env: ["GH_TOKEN": other, "GITHUB_TOKEN": Self.token])
    #expect(run.status == 0, "\(run)")
    #expect(
      run.stderr == "ghlogin: warning: GH_TOKEN is set to another token than the active login for github.test "
        + "(octocat); gh and many tools use it first. Unset it (unset GH_TOKEN) or set it from this login: "
        + "eval \"$(ghlogin env --host github.test)\"\n")
    expectNoSecrets([Self.token, other], in: [run.stdout, run.stderr])
    let same = try await scenario.run(["status", "--offline"], env: ["GH_TOKEN": Self.token])
    #expect(same.stderr == "")
  }

  /// Two hosts checked at once: one rejected, one valid; --host chooses which decides the exit.
  @Test func hostsAreCheckedInParallelAndTheChosenOneDecides() async throws {
    let scenario = try await Scenario.start()
    let other = "ghe.test:\(scenario.fake.port)"
    let otherToken = "gho_statusOtherHost000000000000000000000"
    try scenario.fake.register([
      "tokens": [
        ["access_token": Self.token, "login": "octocat"], ["access_token": otherToken, "login": "hubot"],
      ]
    ])
    try scenario.sandbox.writeCredentials(["github.test": ("octocat", 1, Self.token), other: ("hubot", 2, otherToken)])
    try scenario.fake.revoke(otherToken)
    // Each answer takes 2 s: checked one after the other, the second request would arrive at
    // least 2 s after the first (the fake's log times them; no wall-clock bound on ghlogin).
    try scenario.fake.script(["responses": ["user": [["kind": "normal", "delay": 2, "sticky": true]]]])
    let run = try await scenario.run(["status"])
    let asked = try scenario.fake.requests().filter { ($0["path"] as? String)?.hasSuffix("/user") == true }
    let times = asked.compactMap { $0["time"] as? Double }
    #expect(times.count == 2, "both hosts asked (/user and /api/v3/user): \(asked)")
    if let first = times.min(), let last = times.max() {
      #expect(last - first < 1.5, "checked one after the other: requests \(last - first) s apart")
    }
    // The config's host is github.test, whose token is valid: exit 0.
    #expect(run.status == 0, "\(run)")
    #expect(run.stdout.contains("    online: valid\n"))
    #expect(run.stdout.contains("    online: rejected by \(other) (revoked or expired)"))
    let chosen = try await scenario.run(["status", "--host", other])
    #expect(chosen.status == 4, "\(chosen)")
  }
}
