import Foundation
import GHLoginTestSupport
import Testing

/// The system-wide config: `$XDG_CONFIG_DIRS/ghlogin/config.json` (the first
/// directory that has one) below the user's file, merged key by key with `client_id` and
/// `client_secret` from one layer, under the same trust rule as the user's file (R93), not
/// read with `GHLOGIN_CONFIG`, shown by `help config`, never edited by `config set`.
@Suite struct SystemConfigEndToEndTests {
  /// Two XDG directories: the first without a ghlogin file, the second with the sandbox's
  /// default config (the org's app and every endpoint on the fake). The user has no file.
  static func systemOnly(_ scenario: Scenario, _ overrides: [String: Any] = [:]) throws
    -> (dirs: String, file: String, root: TemporaryDirectory)
  {
    let root = try TemporaryDirectory(prefix: "ghlogin-xdg")
    let empty = root.path + "/empty"
    let system = root.path + "/etc"
    for dir in [empty, system + "/ghlogin"] {
      try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }
    try scenario.sandbox.writeConfig(overrides)
    let file = system + "/ghlogin/config.json"
    try FileManager.default.moveItem(atPath: scenario.sandbox.configFile, toPath: file)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
    return (empty + ":relative/ignored:" + system, file, root)
  }

  func writeUser(_ scenario: Scenario, _ json: String) throws {
    try Data(json.utf8).write(to: URL(fileURLWithPath: scenario.sandbox.configFile))
  }

  @Test func theSystemsAppLogsInWithNothingInTheUsersFile() async throws {
    let scenario = try await Scenario.start()
    let (dirs, _, root) = try Self.systemOnly(scenario)
    let (run, _, _) = try await scenario.login(env: ["XDG_CONFIG_DIRS": dirs])
    #expect(run.status == 0, "\(run)")
    let exchange = try #require(try scenario.tokenRequests().first)
    #expect(exchange.formValue("client_id") == "Iv1.testclient")
    #expect(exchange.formValue("client_secret") == testClientSecret)
    #expect(!FileManager.default.fileExists(atPath: scenario.sandbox.configFile), "the user's file is not written")
    _ = root
  }

  @Test func theUsersKeysWinOneByOneButASecretNeverPairsWithTheSystemsID() async throws {
    let scenario = try await Scenario.start()
    let (dirs, file, root) = try Self.systemOnly(scenario)
    // The user's scopes win; the user's secret alone is not paired with the system's client ID.
    try writeUser(scenario, #"{"scopes": ["read:user"], "client_secret": "users-own-secret"}"#)
    let pending = try await scenario.startAuth(env: ["XDG_CONFIG_DIRS": dirs])
    #expect(pending.query["scope"] == "read:user")
    #expect(pending.query["client_id"] == "Iv1.testclient")
    _ = try await pending.browse()
    let run = try await pending.finish()
    #expect(run.status == 0, "\(run)")
    #expect(try scenario.tokenRequests().first?.formValue("client_secret") == testClientSecret)

    let help = try await scenario.run(["help", "config"], env: ["XDG_CONFIG_DIRS": dirs])
    let user = scenario.sandbox.configFile
    #expect(help.stdout.contains("  system       \(file)\n  user         \(user)\n"), "\(help.stdout)")
    let rows = help.stdout.split(separator: "\n").map(String.init)
    func row(_ key: String, _ layer: String) -> Bool {
      rows.contains { $0.hasPrefix("  \(key) ") && $0.hasSuffix(" " + layer) }
    }
    #expect(row("client_id", "system (\(file))"), "\(help.stdout)")
    #expect(row("client_secret", "system (\(file))"))
    #expect(row("scopes", "user (\(user))"))
    #expect(
      row("client_secret", "user (\(user)) (not used: a higher layer sets it, or its client_id is another layer's)"))
    expectNoSecrets(["users-own-secret", testClientSecret], in: [help.stdout, help.stderr, run.stderr])
    _ = root
  }

  @Test func aSystemFileOthersMayWriteStopsTheCommand() async throws {
    let scenario = try await Scenario.start()
    let (dirs, file, root) = try Self.systemOnly(scenario)
    try FileManager.default.setAttributes([.posixPermissions: 0o664], ofItemAtPath: file)
    for args in [["auth", "--no-browser"], ["token"]] {
      let run = try await scenario.run(args, env: ["XDG_CONFIG_DIRS": dirs])
      #expect(run.status == 2, "\(args) \(run)")
      #expect(
        run.stderr
          == "ghlogin: refusing to read \(file): its permissions 0664 let group or others change it, and it decides "
          + "where your token is sent; run chmod go-w \(file)\n", "\(run)")
    }
    expectNothingStored(scenario)
    #expect(try scenario.fake.log().isEmpty)
    _ = root
  }

  @Test func withGHLOGIN_CONFIGTheSystemFileIsNotRead() async throws {
    let scenario = try await Scenario.start()
    let (dirs, _, root) = try Self.systemOnly(scenario)
    let named = scenario.sandbox.home + "/named.json"
    try Data(#"{"host": "github.test"}"#.utf8).write(to: URL(fileURLWithPath: named))
    let run = try await scenario.run(
      ["auth", "--no-browser"], env: ["XDG_CONFIG_DIRS": dirs, "GHLOGIN_CONFIG": named])
    #expect(run.status == 2, "\(run)")
    #expect(run.stderr.hasPrefix("ghlogin: no OAuth client_id is configured for github.test.\n"), "\(run)")
    let help = try await scenario.run(["help", "config"], env: ["XDG_CONFIG_DIRS": dirs, "GHLOGIN_CONFIG": named])
    #expect(help.stdout.contains("  system       not read (GHLOGIN_CONFIG names the only file)\n"), "\(help.stdout)")
    _ = root
  }

  @Test func configSetWritesOnlyTheUsersFile() async throws {
    let scenario = try await Scenario.start()
    let (dirs, file, root) = try Self.systemOnly(scenario)
    let before = try Data(contentsOf: URL(fileURLWithPath: file))
    let set = try await scenario.run(["config", "set", "scopes", "repo"], env: ["XDG_CONFIG_DIRS": dirs])
    #expect(set.status == 0, "\(set)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
    let user = try String(contentsOfFile: scenario.sandbox.configFile, encoding: .utf8)
    #expect(user == "{\n  \"scopes\": [\n    \"repo\"\n  ]\n}\n")
    _ = root
  }
}
