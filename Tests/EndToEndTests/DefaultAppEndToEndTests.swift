import Foundation
import Testing

/// A packager's default app: the release build made with `GHLOGIN_DEFAULT_*`
/// (``DefaultAppBinary``) logs in to github.com with the app compiled in and no client ID
/// configured anywhere; the fake records the client ID it was sent. The config points
/// github.com's endpoints at the fake (`"host": "github.com"`, every URL on
/// `https://127.0.0.1:PORT`: the release build has no name-resolution hook), so the built-in
/// app's rule "github.com only" is what decides, and the debug build (no app built in) fails
/// with the same config.
@Suite(.enabled(if: DefaultAppBinary.shouldRun, "no build with a default app: run DefaultAppBinary.buildCommand"))
struct DefaultAppEndToEndTests {
  /// github.com's endpoints on the fake, no client ID or secret.
  static func gitHubDotComOnTheFake(_ scenario: Scenario, _ extra: [String: Any] = [:]) throws -> [String: String] {
    let base = "https://127.0.0.1:\(scenario.fake.port)"
    var config: [String: Any] = [
      "client_id": NSNull(), "client_secret": NSNull(), "host": "github.com",
      "authorize_url": base + "/login/oauth/authorize", "token_url": base + "/login/oauth/access_token",
      "device_code_url": base + "/login/device/code", "api_url": base + "/api/v3",
    ]
    config.merge(extra) { $1 }
    try scenario.sandbox.writeConfig(config)
    var environment = scenario.environment()
    environment.removeValue(forKey: "GHLOGIN_TEST_RESOLVE")
    return environment
  }

  /// The client ID `version` says is built in.
  static func builtInClientID(_ binary: String) throws -> String {
    let version = try ChildProcess(executable: binary, arguments: ["version"], stdin: "").finish(timeout: 30)
    let line = try #require(version.stdout.split(separator: "\n").last.map(String.init), "\(version)")
    #expect(line.hasPrefix("built-in OAuth app for github.com: "), "\(line)")
    let id = try #require(line.split(separator: " ").last.map { String($0.dropLast()) })
    return id
  }

  @Test func theBuiltInAppLogsInToGitHubDotComWithNothingConfigured() async throws {
    let binary = try DefaultAppBinary.path()
    let clientID = try Self.builtInClientID(binary)
    #expect(clientID.hasPrefix("Ov23li"))
    let scenario = try await Scenario.start()
    let env = try Self.gitHubDotComOnTheFake(scenario)
    try scenario.fake.register(["apps": [["client_id": clientID, "client_secret": NSNull()]]])
    try scenario.fake.script(["device": ["interval": 1], "responses": ["device_poll": ["success"]]])

    let run = try await offload {
      try ChildProcess(executable: binary, arguments: ["auth", "--device"], environment: env, stdin: "")
        .finish(timeout: 60)
    }
    #expect(run.status == 0, "\(run)")
    #expect(run.stderr.contains("Logged in to github.com as octocat"), "\(run.stderr)")
    let codeRequests = try scenario.fake.requests(path: "/login/device/code")
    #expect(codeRequests.count == 1)
    #expect(codeRequests.first?.formValue("client_id") == clientID)
    let polls = try scenario.tokenRequests()
    #expect(!polls.isEmpty && polls.allSatisfy { $0.formValue("client_id") == clientID })
    #expect(polls.allSatisfy { $0.formValue("client_secret") == nil }, "the device flow never sends the secret")
    let hosts = try #require(scenario.sandbox.credentialsJSON()?["hosts"] as? [String: Any])
    #expect(Array(hosts.keys) == ["github.com"])

    // help config names the built-in layer; the debug build has none and stops at the client ID.
    let help = try await offload {
      try ChildProcess(executable: binary, arguments: ["help", "config"], environment: env, stdin: "").finish(
        timeout: 30)
    }
    #expect(
      help.stdout.contains("  built-in     built-in OAuth app for github.com: ghlogin CI (client ID \(clientID))\n"),
      "\(help.stdout)")
    let line = help.stdout.split(separator: "\n").first { $0.hasPrefix("  hosts.github.com.client_id ") }
    #expect(line?.hasSuffix(" built-in (this build)") == true, "\(help.stdout)")
    let debug = try await scenario.run(["auth", "--device"], env: ["GHLOGIN_TEST_RESOLVE": ""])
    #expect(debug.status == 2)
    #expect(debug.stderr.hasPrefix("ghlogin: no OAuth client_id is configured for github.com.\n"), "\(debug)")
  }

  @Test func theUsersClientIDWinsAndOtherHostsGetNoBuiltInApp() async throws {
    let binary = try DefaultAppBinary.path()
    let scenario = try await Scenario.start()
    // The fake's own test app, in the user's file: it is the one sent, not the built-in one.
    let env = try Self.gitHubDotComOnTheFake(scenario, ["client_id": "Iv1.testclient"])
    try scenario.fake.script(["device": ["interval": 1], "responses": ["device_poll": ["success"]]])
    let run = try await offload {
      try ChildProcess(executable: binary, arguments: ["auth", "--device"], environment: env, stdin: "")
        .finish(timeout: 60)
    }
    #expect(run.status == 0, "\(run)")
    #expect(try scenario.fake.requests(path: "/login/device/code").first?.formValue("client_id") == "Iv1.testclient")

    // The built-in app is github.com's only: another host has no client ID (nothing is sent).
    try scenario.sandbox.writeConfig(["client_id": NSNull(), "client_secret": NSNull(), "host": "github.com"])
    let none = try await offload {
      try ChildProcess(
        executable: binary, arguments: ["auth", "--host", "ghe.example.com", "--device"], environment: env, stdin: ""
      ).finish(timeout: 30)
    }
    #expect(none.status == 2, "\(none)")
    #expect(
      none.stderr.hasPrefix(
        "ghlogin: no OAuth client_id is configured for ghe.example.com (the top-level client_id, GHLOGIN_CLIENT_ID "
          + "and the built-in app are github.com's only: an OAuth app exists on one GitHub host).\n"), "\(none)")
  }
}
