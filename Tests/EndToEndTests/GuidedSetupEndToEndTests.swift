import Foundation
import GHLoginTestSupport
import Testing

/// `ghlogin auth` with no client ID on a terminal walks the user through
/// registering an OAuth app, saves the answers to the user's config and logs in, driven on a
/// real pseudo-terminal (`Tests/Scripts/pty_run.py`) against the fake GitHub. Ctrl-C at a
/// prompt writes nothing.
@Suite struct GuidedSetupEndToEndTests {
  static let secretPrompt = "Client secret (not shown; press Enter for none, a public client): "

  /// Runs `args` on a pty with `env`, answering `steps` ((prompt, typed) pairs) in turn.
  func onTerminal(_ args: [String], env: [String: String], steps: [(String, String)], timeout: Double = 40)
    async throws -> (status: Int, output: String)
  {
    let binary = try HarnessPaths.ghloginBinary()
    let spec: [String: Any] = [
      "argv": [binary] + args, "env": Spawn.pinned(env), "timeout": timeout,
      "steps": steps.map { ["when": $0.0, "send": $0.1] },
    ]
    let json = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)
    let result = try await offload {
      try ChildProcess(
        executable: HarnessPaths.python3, arguments: [HarnessPaths.packageRoot + "/Tests/Scripts/pty_run.py", json],
        stdin: ""
      ).finish(timeout: timeout + 10)
    }
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
    return (report["status"] as? Int ?? -1, report["output"] as? String ?? "")
  }

  @Test func theAnswersAreSavedAndTheLoginGoesStraightOn() async throws {
    let scenario = try await Scenario.start()
    let sandbox = scenario.sandbox
    try sandbox.writeConfig(["client_id": NSNull(), "client_secret": NSNull()])
    let stub = try sandbox.installBrowserStub(follow: true, followOnly: "/login/oauth/authorize")
    let env = scenario.environment(["DISPLAY": ":0", "BROWSER": stub, "TERM": "xterm"])
    let (status, output) = try await onTerminal(
      ["auth"], env: env,
      steps: [
        ("Client ID: ", "bad id\r"), ("Client ID: ", "Iv1.testclient\r"), (Self.secretPrompt, testClientSecret + "\r"),
      ])
    let page = scenario.fake.webBase + "/settings/applications/new"
    #expect(status == 0, "\(output)")
    #expect(
      output.hasPrefix(
        """
        No OAuth app is configured for github.test yet. Register one (once; it takes a minute):\r
          1. Open \(page) (opened in your browser)\r
          2. Enter:\r
               Application name            ghlogin\r
               Homepage URL                \(scenario.fake.webBase)/\r
               Authorization callback URL  http://127.0.0.1/callback\r
               Enable Device Flow          not needed (tick it for logins over SSH)\r
          3. Click "Register application" and copy the Client ID. For the browser flow, also click\r
             "Generate a new client secret" and copy it.\r
        Client ID: bad id\r
        That is not usable: it contains a space. Paste it again.\r
        Client ID: Iv1.testclient\r
        \(Self.secretPrompt)\r
        Saved client_id and client_secret to \(sandbox.configFile). Logging in...\r

        """), "\(output)")
    #expect(output.contains("Logged in to github.test as octocat"), "\(output)")
    expectNoSecrets([testClientSecret], in: [output])
    // Saved at the top level (github.test is the default host), the other keys kept, 0600.
    let saved = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sandbox.configFile)))
        as? [String: Any])
    #expect(saved["client_id"] as? String == "Iv1.testclient")
    #expect(saved["client_secret"] as? String == testClientSecret)
    #expect(saved["host"] as? String == "github.test")
    #expect(saved["token_url"] as? String == scenario.fake.webBase + "/login/oauth/access_token")
    #expect(Scenario.mode(of: sandbox.configFile) == 0o600)
    // The registration page was opened, then the authorize page; the token request used the answers.
    let opened = sandbox.browserCalls().compactMap { ($0["argv"] as? [String])?.dropFirst().first }
    #expect(opened.count == 2, "\(opened)")
    #expect(opened.first == page)
    #expect(opened.last?.hasPrefix(scenario.fake.webBase + "/login/oauth/authorize?") == true)
    let token = try #require(try scenario.tokenRequests().first)
    #expect(token.formValue("client_id") == "Iv1.testclient")
    #expect(token.formValue("client_secret") == testClientSecret)
    let hosts = sandbox.credentialsJSON()?["hosts"] as? [String: Any]
    #expect(hosts?["github.test"] != nil)
  }

  @Test func ctrlCAtTheSecretPromptWritesNoConfig() async throws {
    let root = try TemporaryDirectory(prefix: "ghlogin-guided")
    // A fresh account: github.com, no config, no display (so the device flow's box is needed).
    let env = ["HOME": root.path, "PATH": "/usr/bin:/bin", "TERM": "xterm", "LANG": "C.UTF-8"]
    let (status, output) = try await onTerminal(
      ["auth"], env: env, steps: [("Client ID: ", "Ov23liEXAMPLE\r"), (Self.secretPrompt, "\u{3}")])
    #expect(
      output.contains("Client ID: Ov23liEXAMPLE\r\n" + Self.secretPrompt + "\r\n"), "the secret prompt shows nothing")
    #expect(status == -2, "\(output)")
    #expect(output.contains("  1. Open https://github.com/settings/applications/new\r\n"), "\(output)")
    #expect(
      output.contains("Enable Device Flow          tick it (this login uses the device flow: no browser here)\r\n"))
    #expect(output.hasSuffix(":\u{1B}[0m interrupted; nothing was written\r\n"), "\(output)")
    #expect(!FileManager.default.fileExists(atPath: root.path + "/.config/ghlogin/config.json"))
    #expect(!FileManager.default.fileExists(atPath: root.path + "/.config"), "not even the directory")
  }

  @Test func ctrlCAtTheClientIDPromptLeavesTheConfigAsItWas() async throws {
    let scenario = try await Scenario.start()
    try scenario.sandbox.writeConfig(["client_id": NSNull(), "client_secret": NSNull()])
    let before = try Data(contentsOf: URL(fileURLWithPath: scenario.sandbox.configFile))
    let (status, output) = try await onTerminal(
      ["auth", "--host", "ghe.test"], env: scenario.environment(["TERM": "xterm"]), steps: [("Client ID: ", "\u{3}")])
    #expect(status == -2, "\(output)")
    #expect(output.contains("No OAuth app is configured for ghe.test yet."), "\(output)")
    #expect(output.contains("  1. Open https://ghe.test/settings/applications/new\r\n"), "\(output)")
    #expect(output.hasSuffix(":\u{1B}[0m interrupted; nothing was written\r\n"), "\(output)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: scenario.sandbox.configFile)) == before)
    expectNothingStored(scenario)
    #expect(try scenario.fake.log().isEmpty)
  }

  @Test func withHostTheAppGoesToThatHostsBlockAndAPublicClientHasNoSecret() async throws {
    let scenario = try await Scenario.start()
    try scenario.sandbox.writeConfig(["client_id": NSNull(), "client_secret": NSNull()])
    // Enter for the secret: a public client. The login then fails at ghe.test (unknown here),
    // after the app was saved: the login itself is the real check.
    let (_, output) = try await onTerminal(
      ["auth", "--host", "ghe.test", "--device", "--timeout", "2"], env: scenario.environment(["TERM": "xterm"]),
      steps: [("Client ID: ", "Ov23liGHE\r"), (Self.secretPrompt, "\r")])
    #expect(
      output.contains(
        "Saved client_id to the hosts.ghe.test block of \(scenario.sandbox.configFile). Logging in...\r\n"),
      "\(output)")
    #expect(
      output.contains("Enable Device Flow          tick it (this login uses the device flow: no browser here)"))
    let saved = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scenario.sandbox.configFile)))
        as? [String: Any])
    #expect((saved["hosts"] as? [String: Any])?["ghe.test"] as? [String: String] == ["client_id": "Ov23liGHE"])
    #expect(saved["client_id"] == nil)
  }
}
