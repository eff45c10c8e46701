import Foundation
import GHLoginTestSupport
import Testing

/// R110, T95 on the built binary: every config layer (the system file, the user's file,
/// `GHLOGIN_CONFIG`'s) is read only when every directory above it is owned by root or the user
/// and not writable by group or others (unless sticky and root's): a replaced config sends the
/// token elsewhere. Every command exits 2 naming the directory, and nothing is sent or stored.
@Suite struct ConfigDirectoryTrustEndToEndTests {
  static let token = "gho_E2EconfigDirTrust000000000000000001"
  static let commands: [[String]] = [
    ["token"], ["whoami"], ["status"], ["env"], ["config", "get", "host"], ["auth", "--no-browser"],
    ["refresh"], ["setup-git"],
  ]

  static func message(_ file: String, _ directory: String) -> String {
    "ghlogin: refusing to read \(file): the directory \(directory) is writable by group or others, who could "
      + "replace the file, and it decides where your token is sent; run chmod go-w \(directory), or move the file\n"
  }

  /// Where the layer's file is, its directory made 0777 (no sticky bit), and the variables.
  func layer(_ which: String, _ scenario: Scenario) throws -> (file: String, directory: String, env: [String: String]) {
    let sandbox = scenario.sandbox
    switch which {
    case "system":
      let etc = sandbox.home + "/etc"
      try FileManager.default.createDirectory(atPath: etc + "/ghlogin", withIntermediateDirectories: true)
      let file = etc + "/ghlogin/config.json"
      try FileManager.default.moveItem(atPath: sandbox.configFile, toPath: file)
      #expect(chmod(etc + "/ghlogin", 0o777) == 0)
      return (file, etc + "/ghlogin", ["XDG_CONFIG_DIRS": etc])
    case "user":
      #expect(chmod(sandbox.configDirectory, 0o777) == 0)
      return (sandbox.configFile, sandbox.configDirectory, [:])
    default:
      let shared = sandbox.home + "/shared"
      try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
      let file = shared + "/team.json"
      try FileManager.default.moveItem(atPath: sandbox.configFile, toPath: file)
      #expect(chmod(shared, 0o777) == 0)
      return (file, shared, ["GHLOGIN_CONFIG": file])
    }
  }

  @Test(arguments: ["system", "user", "GHLOGIN_CONFIG"])
  func aConfigInAWorldWritableDirectoryStopsEveryCommand(_ which: String) async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let (file, directory, env) = try layer(which, scenario)
    let before = scenario.sandbox.credentialsBytes()
    let configBefore = FileManager.default.contents(atPath: file)
    // `config get|set` work on the user's file (or GHLOGIN_CONFIG's) only, never the system file.
    for command in Self.commands where which != "system" || command[0] != "config" {
      let run = try await scenario.run(command, env: env)
      #expect(run.status == 2, "\(command) \(run)")
      #expect(run.stdout == "", "\(command)")
      #expect(run.stderr == Self.message(file, directory), "\(command) \(run)")
    }
    // The editor reads through the same check: nothing is written.
    if which != "system" {
      let set = try await scenario.run(["config", "set", "scopes", "repo"], env: env)
      #expect(set.status == 2, "\(set)")
      #expect(set.stderr == Self.message(file, directory))
    }
    #expect(FileManager.default.contents(atPath: file) == configBefore)
    #expect(try scenario.fake.requests().isEmpty)
    #expect(scenario.sandbox.credentialsBytes() == before)
    // The directory fixed, the same commands work.
    #expect(chmod(directory, 0o755) == 0)
    let whoami = try await scenario.run(["whoami"], env: env)
    #expect(whoami.status == 0, "\(whoami)")
  }

  /// A sticky directory owned by root (as /tmp) is fine; a sticky one owned by another user is not.
  @Test(.enabled(if: geteuid() == 0, "needs root to give the directory away"))
  func aStickyRootDirectoryIsTrustedAndAnotherUsersIsNot() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let (file, directory, env) = try layer("GHLOGIN_CONFIG", scenario)
    #expect(chmod(directory, 0o1777) == 0)
    let sticky = try await scenario.run(["whoami"], env: env)
    #expect(sticky.status == 0, "\(sticky)")
    #expect(chown(directory, 65534, 65534) == 0)
    #expect(chmod(directory, 0o755) == 0)
    let run = try await scenario.run(["whoami"], env: env)
    #expect(run.status == 2, "\(run)")
    #expect(
      run.stderr
        == "ghlogin: refusing to read \(file): the directory \(directory) belongs to another user, who could replace "
        + "the file, and it decides where your token is sent; move the file to a directory of yours\n")
    #expect(run.stdout == "")
  }
}
