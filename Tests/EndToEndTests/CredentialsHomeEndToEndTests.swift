import Foundation
import Testing

/// R86 through the built binary: with `GHLOGIN_CONFIG` naming a config inside a
/// work tree, the token is written to the user's own directory, never beside the config.
@Suite struct CredentialsHomeEndToEndTests {
  @Test func loginWithASharedConfigStoresInTheUsersDirectory() async throws {
    let scenario = try await Scenario.start()
    let repo = scenario.sandbox.home + "/repo"
    try FileManager.default.createDirectory(atPath: repo, withIntermediateDirectories: false)
    let shared = repo + "/ghlogin.json"
    try FileManager.default.moveItem(atPath: scenario.sandbox.configFile, toPath: shared)
    let env = ["GHLOGIN_CONFIG": shared]

    let (run, _, _) = try await scenario.login(env: env)
    #expect(run.status == 0, "\(run)")
    #expect(!run.stderr.contains("note:"), "\(run)")
    #expect(scenario.sandbox.credentialsJSON() != nil, "stored at $XDG_CONFIG_HOME/ghlogin/credentials.json")
    #expect(try FileManager.default.contentsOfDirectory(atPath: repo) == ["ghlogin.json"], "nothing beside the config")

    let status = try await scenario.run(["status"], env: env)
    #expect(status.status == 0, "\(status)")
    #expect(
      status.stdout.hasSuffix("\nCredentials: \(scenario.sandbox.credentialsFile) (mode 0600, owned by you: safe)\n"))
  }

  /// A credentials.json an earlier version wrote beside the config: named once with the exact
  /// command, never read (exit 4), never moved.
  @Test func formerFileBesideTheConfigIsNamedOnce() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: "gho_former0123456789abcdef")
    let repo = scenario.sandbox.home + "/repo"
    try FileManager.default.createDirectory(atPath: repo, withIntermediateDirectories: false)
    let shared = repo + "/ghlogin.json"
    let former = repo + "/credentials.json"
    try FileManager.default.moveItem(atPath: scenario.sandbox.configFile, toPath: shared)
    try FileManager.default.moveItem(atPath: scenario.sandbox.credentialsFile, toPath: former)
    let before = try Data(contentsOf: URL(fileURLWithPath: former))

    let run = try await scenario.run(["token"], env: ["GHLOGIN_CONFIG": shared])
    let current = scenario.sandbox.credentialsFile
    #expect(run.status == 4, "\(run)")
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "ghlogin: note: \(former) is not used: credentials now live in your own directory, not beside "
        + "GHLOGIN_CONFIG (a config may be shared, a token must not be). ghlogin reads and writes \(current), "
        + "where there is none yet. To keep your logins, move the file:\n"
        + "  mkdir -p -m 700 \(scenario.sandbox.configDirectory) && mv \(former) \(current)\n"
        + "ghlogin: not logged in to github.test; run 'ghlogin auth --host github.test'\n", "\(run)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: former)) == before)
    expectNothingStored(scenario)
    #expect(try scenario.fake.log().isEmpty)
  }
}
