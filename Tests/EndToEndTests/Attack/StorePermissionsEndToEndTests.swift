import Foundation
import Testing

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// On the built binary: a config others can edit (R93), an unsafe directory above the
/// credentials (R94), a hard-linked credentials file (R95), and `GHLOGIN_CREDENTIALS` naming
/// something that is not a regular file (R90).
@Suite struct StorePermissionsEndToEndTests {
  static let token = "gho_storePerms0123456789abcdefghijklmnop"

  /// Item 6: the config's `api_url` received `Authorization: Bearer …` although group or others
  /// could write it. Now nothing is sent: exit 2 with the chmod line.
  @Test func configWritableByOthersSendsNothing() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let config = scenario.sandbox.configFile
    #expect(chmod(config, 0o666) == 0)
    let run = try await scenario.run(["whoami"])
    #expect(run.status == 2, "\(run)")
    #expect(
      run.stderr
        == "ghlogin: refusing to read \(config): its permissions 0666 let group or others change it, and it decides "
        + "where your token is sent; run chmod go-w \(config)\n")
    #expect(try scenario.fake.requests().isEmpty)
    #expect(chmod(config, 0o644) == 0)
    #expect(try await scenario.run(["whoami"]).status == 0)
  }

  /// Item 6, another owner (root may give the file away; the test runs as root).
  @Test(.enabled(if: geteuid() == 0, "needs root to give the file away"))
  func configOwnedByAnotherUserSendsNothing() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let config = scenario.sandbox.configFile
    #expect(chown(config, 65534, 65534) == 0)
    let run = try await scenario.run(["whoami"])
    #expect(run.status == 2, "\(run)")
    #expect(
      run.stderr
        == "ghlogin: refusing to read \(config): it belongs to another user (uid 65534), who could decide where your "
        + "token is sent; run sudo chown \(getuid()) \(config)\n")
    #expect(try scenario.fake.requests().isEmpty)
  }

  /// Item 7: credentials under a world-writable, non-sticky directory outside HOME.
  @Test func worldWritableDirectoryAboveTheCredentialsIsRefused() async throws {
    let scenario = try await Scenario.start()
    let open = scenario.sandbox.home + "/open"
    #expect(mkdir(open, 0o777) == 0 && chmod(open, 0o777) == 0)
    let file = open + "/mine/credentials.json"
    let run = try await scenario.run(["auth", "--no-browser"], env: ["GHLOGIN_CREDENTIALS": file])
    #expect(run.status == 1, "\(run)")
    #expect(
      run.stderr
        == "ghlogin: refusing to use \(open): it is writable by group or others, who could replace the credentials "
        + "directory inside it; run chmod go-w \(open)\n", "\(run)")
    #expect(try scenario.fake.requests().isEmpty)
    // Sticky and root's, as /tmp: fine.
    #expect(chmod(open, 0o1777) == 0)
    let token = try await scenario.run(["token"], env: ["GHLOGIN_CREDENTIALS": file])
    #expect(token.status == 4, "\(token)")
  }

  /// Item 8: `logout` could not remove the token from a second name; now every command refuses.
  @Test func hardLinkedCredentialsFileIsRefused() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let file = scenario.sandbox.credentialsFile
    #expect(link(file, scenario.sandbox.home + "/stolen.json") == 0)
    let before = scenario.sandbox.credentialsBytes()
    for command in [["token"], ["logout"], ["status"]] {
      let run = try await scenario.run(command)
      #expect(run.status == 1, "\(command): \(run)")
      #expect(run.stdout == "")
      #expect(run.stderr.hasPrefix("ghlogin: refusing to use \(file): it has 2 hard links"), "\(run)")
    }
    #expect(scenario.sandbox.credentialsBytes() == before)
  }

  /// Item 11: a directory or a FIFO at GHLOGIN_CREDENTIALS: refused, no lock file beside it,
  /// nothing asked of the server.
  @Test(arguments: ["directory", "fifo"])
  func credentialsPathThatIsNotAFileIsRefused(_ kind: String) async throws {
    let scenario = try await Scenario.start()
    let target = scenario.sandbox.home + "/target"
    if kind == "directory" { #expect(mkdir(target, 0o700) == 0) } else { #expect(mkfifo(target, 0o600) == 0) }
    let described = kind == "directory" ? "a directory" : "a FIFO (named pipe)"
    for command in [["auth", "--no-browser"], ["token"], ["logout"]] {
      let run = try await scenario.run(command, env: ["GHLOGIN_CREDENTIALS": target], timeout: 15)
      #expect(run.status == 1, "\(command): \(run)")
      #expect(
        run.stderr
          == "ghlogin: refusing to use \(target) for credentials: it is \(described), not a regular file; remove it, "
          + "or point GHLOGIN_CREDENTIALS at a file path (the file is created if missing)\n", "\(run)")
    }
    #expect(access(target + ".lock", F_OK) != 0)
    #expect(try scenario.fake.requests().isEmpty)
  }
}
