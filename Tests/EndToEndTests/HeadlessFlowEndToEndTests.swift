import Foundation
import Testing

/// Headless (over SSH, no display) with the endpoints overridden to a plain
/// `http://127.0.0.1` server and no `device_code_url`, `auth` used to derive
/// `https://HOST/login/device/code` and fail with "TLS … wrong version number". Now it uses
/// the browser flow with paste-back and says why in one line; a derived endpoint takes the
/// scheme of the configured ones. The endpoints point at the fake's TLS port with `http://`:
/// any request ghlogin sent there would show in the fake's log as a failed handshake.
@Suite struct HeadlessFlowEndToEndTests {
  static func httpEndpoints(_ scenario: Scenario) throws -> String {
    let base = "http://127.0.0.1:\(scenario.fake.port)"
    try scenario.sandbox.writeConfig([
      "host": NSNull(), "authorize_url": base + "/login/oauth/authorize",
      "token_url": base + "/login/oauth/access_token", "device_code_url": NSNull(), "api_url": base + "/api/v3",
    ])
    return base
  }

  @Test func overSSHWithNoDeviceEndpointTheBrowserFlowIsUsedAndSaysWhy() async throws {
    let scenario = try await Scenario.start()
    let base = try Self.httpEndpoints(scenario)
    let run = try await scenario.run(
      ["auth", "--timeout", "1"], env: ["SSH_CONNECTION": "192.0.2.1 50000 192.0.2.2 22"])
    #expect(run.status == 1, "\(run)")
    let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(
      lines.first
        == "Logged in over SSH, but no device_code_url is configured for 127.0.0.1:\(scenario.fake.port): using the "
        + "browser flow (set device_code_url, or pass --device, for the device flow).", "\(run)")
    #expect(lines.dropFirst().first == "Open this URL in your browser to log in to 127.0.0.1:\(scenario.fake.port):")
    #expect(lines.dropFirst(2).first?.hasPrefix(base + "/login/oauth/authorize?") == true, "\(run)")
    #expect(!run.stderr.contains("TLS") && !run.stderr.contains("device code"), "\(run)")
    #expect(try scenario.fake.log().isEmpty, "nothing was sent anywhere")
    expectNothingStored(scenario)
  }

  @Test func withNoDisplayOnATerminalTheAddressMayBePasted() async throws {
    let scenario = try await Scenario.start()
    _ = try Self.httpEndpoints(scenario)
    let spec: [String: Any] = [
      "argv": [try HarnessPaths.ghloginBinary(), "auth", "--timeout", "1"],
      "env": Spawn.pinned(scenario.environment(["TERM": "dumb"])), "timeout": 20,
    ]
    let json = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)
    let result = try await offload {
      try ChildProcess(
        executable: HarnessPaths.python3, arguments: [HarnessPaths.packageRoot + "/Tests/Scripts/pty_run.py", json],
        stdin: ""
      ).finish(timeout: 30)
    }
    let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let output = report["output"] as? String ?? ""
    #expect(output.hasPrefix("No display found, but no device_code_url is configured for 127.0.0.1:"), "\(output)")
    #expect(output.contains("If your browser cannot reach this machine, paste the address it was sent to here:"))
    #expect(try scenario.fake.log().isEmpty)
  }

  @Test func aDerivedDeviceEndpointTakesTheSchemeOfTheConfiguredOnes() async throws {
    let scenario = try await Scenario.start()
    let base = try Self.httpEndpoints(scenario)
    let run = try await scenario.run(["auth", "--device", "--timeout", "5"])
    #expect(run.status == 1, "\(run)")
    // Derived, not configured: no key named (issue 29 §2), the network to check.
    #expect(run.stderr.contains("device code request at \(base)/login/device/code: "), "\(run)")
    #expect(run.stderr.hasSuffix("; check your network connection\n"), "\(run)")
    #expect(!run.stderr.contains("wrong version number"), "\(run)")
  }

  @Test func aGitHubHostStillGetsTheDeviceFlowByItself() async throws {
    let scenario = try await Scenario.start()
    // The sandbox's own config: device_code_url given, so the device flow is chosen over SSH.
    try scenario.fake.script(["device": ["interval": 1], "responses": ["device_poll": ["success"]]])
    let run = try await scenario.run(["auth"], env: ["SSH_CONNECTION": "192.0.2.1 50000 192.0.2.2 22"])
    #expect(run.status == 0, "\(run)")
    #expect(run.stderr.hasPrefix("Logged in over SSH: using the device flow (pass --web for the browser flow).\n"))
  }
}
