import Foundation
import GHLoginTestSupport
import Testing

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// On the built binary: `config get|set|unset` judge the file exactly as
/// a load does (R93, through the same `Config.readTrusted`), and an edit is one read-modify-write
/// under the config's lock (R99).
@Suite struct ConfigEditEndToEndTests {
  static let token = "gho_configEdit0123456789abcdefghijklmnop"

  /// The three edits the attack used, each refused with the load's message.
  static let edits: [[String]] = [
    ["config", "set", "scopes", "repo"], ["config", "unset", "scopes"], ["config", "get", "client_id"],
    ["config", "set", "--host", "ghe.example.com", "client_id", "Ov23liOTHER"],
  ]

  /// `(owner, group, mode)` of `path`, by `lstat`.
  static func owner(_ path: String) -> (UInt32, UInt32, UInt32) {
    var info = stat()
    #expect(lstat(path, &info) == 0)
    return (info.st_uid, info.st_gid, UInt32(info.st_mode) & 0o7777)
  }

  /// Every edit, then `whoami`: exit 2 with `message`, the file byte-identical with the same owner
  /// and mode, no lock file made beside it, nothing sent to the endpoints the file names.
  func expectRefused(_ scenario: Scenario, message: String) async throws {
    let config = scenario.sandbox.configFile
    let bytes = try Data(contentsOf: URL(fileURLWithPath: config))
    let before = Self.owner(config)
    for edit in Self.edits + [["whoami"]] {
      let run = try await scenario.run(edit)
      #expect(run.status == 2, "\(edit): \(run)")
      #expect(run.stdout == "", "\(edit)")
      #expect(run.stderr == "ghlogin: " + message, "\(edit): \(run)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: config)) == bytes)
    #expect(Self.owner(config) == before)
    #expect(access(config + ".lock", F_OK) != 0, "a lock file was made beside a refused config")
    #expect(try scenario.fake.requests().isEmpty)
  }

  /// Item 3: `config set scopes repo` rewrote another user's config (its `api_url` included) as
  /// the caller's own 0600 file, and the next `whoami` sent the token there.
  @Test(.enabled(if: geteuid() == 0, "needs root to give the file away"))
  func configOwnedByAnotherUserIsNotEdited() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let config = scenario.sandbox.configFile
    #expect(chmod(config, 0o644) == 0 && chown(config, 65534, 65534) == 0)
    try await expectRefused(
      scenario,
      message: "refusing to read \(config): it belongs to another user (uid 65534), who could decide where your "
        + "token is sent; run sudo chown \(getuid()) \(config)\n")
  }

  /// Item 3, a config group or others may write (0666, and group-writable 0620).
  @Test(arguments: [0o666, 0o620])
  func configWritableByOthersIsNotEdited(_ mode: Int) async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let config = scenario.sandbox.configFile
    #expect(chmod(config, mode_t(mode)) == 0)
    let octal = "0" + String(mode, radix: 8)
    try await expectRefused(
      scenario,
      message: "refusing to read \(config): its permissions \(octal) let group or others change it, and it decides "
        + "where your token is sent; run chmod go-w \(config)\n")
    // The fix the message gives works, and then the edit does.
    #expect(chmod(config, 0o600) == 0)
    #expect(try await scenario.run(["config", "set", "scopes", "repo"]).status == 0)
    #expect(try await scenario.run(["config", "get", "scopes"]).stdout == "repo\n")
  }

  /// Item 6 (R99): 20 parallel `config set --host hN.example.com client_id …` all exit 0, and
  /// only 2–5 host blocks survived. Now every edit that exits 0 is in the file.
  @Test func parallelEditsAreAllKept() throws {
    let home = try TemporaryDirectory(prefix: "ghlogin-config-lock")
    let env = ["HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    let children = try (0..<20).map { index in
      try startGHLogin(
        ["config", "set", "--host", "h\(index).example.com", "client_id", "Ov23liH\(index)"], env: env, stdin: "")
    }
    let results = try children.map { try $0.finish(timeout: 120) }
    let file = home.path + "/.config/ghlogin/config.json"
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any]
    let hosts = object?["hosts"] as? [String: [String: String]] ?? [:]
    for (index, result) in results.enumerated() {
      #expect(result.status == 0, "h\(index): \(result)")
      #expect(result.stderr == "", "h\(index)")
      if result.status == 0 {
        #expect(hosts["h\(index).example.com"] == ["client_id": "Ov23liH\(index)"], "h\(index) lost")
      }
    }
    #expect(hosts.count == 20, "\(hosts.keys.sorted())")
    #expect(Self.owner(file + ".lock").2 == 0o600)
    #expect(Self.owner(file).2 == 0o600)
  }

  /// Item 6: an edit that cannot take the lock in time (another process holds it for the whole
  /// 30 s) exits 1 naming the lock file, and writes nothing.
  @Test func anEditThatCannotTakeTheLockSaysSoAndWritesNothing() throws {
    let home = try TemporaryDirectory(prefix: "ghlogin-config-lock")
    let env = ["HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    #expect(try runGHLogin(["config", "set", "client_id", "Ov23liFIRST"], env: env).status == 0)
    let file = home.path + "/.config/ghlogin/config.json"
    let before = try Data(contentsOf: URL(fileURLWithPath: file))
    let lockFile = file + ".lock"
    let holder = try ChildProcess(
      executable: HarnessPaths.python3,
      arguments: [
        "-c",
        "import fcntl, os, sys\nfd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)\n"
          + "fcntl.flock(fd, fcntl.LOCK_EX)\nprint('locked', flush=True)\nsys.stdin.read()\n",
        lockFile,
      ])
    _ = try holder.waitForLine(.stdout, timeout: 10) { $0 == "locked" }
    let started = Date()
    let run = try runGHLogin(["config", "set", "client_id", "Ov23liSECOND"], env: env, timeout: 90)
    // `get` reads without the lock: a reader never waits for an editor.
    #expect(try runGHLogin(["config", "get", "client_id"], env: env, timeout: 10) == (0, "Ov23liFIRST\n", ""))
    holder.closeStdin()
    #expect(Date().timeIntervalSince(started) >= 29, "it did not wait for the lock")
    #expect(run.status == 1, "\(run)")
    #expect(
      run.stderr
        == "ghlogin: timed out after 30 seconds waiting for the lock on \(lockFile); another ghlogin is still changing "
        + "the config, and nothing was written. Try again when it has finished\n", "\(run)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
  }
}
