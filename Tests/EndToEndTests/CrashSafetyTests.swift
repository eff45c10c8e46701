import Foundation
import Testing

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Crash safety of the credentials file (R63–R64): `ghlogin logout` rewrites it
/// and is killed with SIGKILL at random moments, or by the debug build's
/// `GHLOGIN_TEST_FAULT=kill-before-rename`; afterwards the file always parses, holds exactly the
/// old or the new bytes, is 0600, and at most one owner-only temp file is left, which the next
/// write removes. A read-only directory and injected write failures leave the old file and say so.
///
/// The loop runs `GHLOGIN_CRASH_ITERATIONS` times (default 20); `scripts/crash-loop.sh` runs 200.
@Suite(.serialized) struct CrashSafetyTests {
  static let iterations = Int(ProcessInfo.processInfo.environment["GHLOGIN_CRASH_ITERATIONS"] ?? "") ?? 20

  @Test func killedRewritesLeaveTheOldOrTheNewFile() throws {
    let store = try CrashStore()
    let old = store.oldBytes
    let new = try store.newBytes()
    #expect(old != new)

    // How long a whole `logout` takes here, to spread the kills over it.
    var durations: [Double] = []
    for _ in 0..<3 {
      try store.reset()
      let started = Date()
      let result = try store.logout()
      durations.append(Date().timeIntervalSince(started))
      #expect(result.status == 0, "\(result.stderr)")
    }
    let span = durations.sorted()[1] * 1.5

    var tally: [String: Int] = [:]
    var generator = SystemRandomNumberGenerator()
    for iteration in 0..<Self.iterations {
      try store.reset()
      let stale = Set(store.temporaryFiles())
      let usesFault = iteration % 5 == 0
      let child = try store.startLogout(fault: usesFault ? "kill-before-rename" : nil)
      if !usesFault {
        usleep(useconds_t(Double.random(in: 0...span, using: &generator) * 1_000_000))
        kill(child.pid, SIGKILL)
      }
      let status = try child.finish(timeout: 30).status
      #expect(status == 0 || status == -SIGKILL, "iteration \(iteration): status \(status)")

      let bytes = store.sandbox.credentialsBytes()
      let isOld = bytes == old
      #expect(isOld || bytes == new, "iteration \(iteration): the file is neither the old nor the new one")
      #expect(store.sandbox.credentialsJSON()?["version"] as? Int == 1, "iteration \(iteration): does not parse")
      #expect(fileMode(store.sandbox.credentialsFile) == 0o600)
      let temporaries = store.temporaryFiles()
      #expect(temporaries.count <= 1, "iteration \(iteration): \(temporaries)")
      #expect(temporaries.allSatisfy { fileMode($0) == 0o600 }, "a temp file is not 0600")
      if usesFault {
        #expect(status == -SIGKILL && isOld && temporaries.count == 1)
        // Killed just before the rename: the temp file holds the whole new contents.
        #expect(temporaries.first.flatMap { FileManager.default.contents(atPath: $0) }.map { Array($0) } == new)
      }
      let fresh = temporaries.filter { !stale.contains($0) }
      let outcome =
        status == 0
        ? "completed"
        : !isOld
          ? "killed after the rename"
          : fresh.isEmpty
            ? "killed before writing"
            : "killed while writing"
      tally[(usesFault ? "kill-before-rename: " : "") + outcome, default: 0] += 1
    }

    // The next write under the lock removes whatever a killed writer left.
    try store.reset()
    #expect(try store.logout().status == 0)
    #expect(store.temporaryFiles() == [])
    #expect(store.sandbox.credentialsBytes() == new)
    let outcomes = tally.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    print("crash-safety: \(Self.iterations) iterations, logout takes ~\(Int(span / 1.5 * 1000)) ms; \(outcomes)")
  }

  @Test func authKilledBeforeRenameKeepsTheOldFile() throws {
    let store = try CrashStore()
    try store.reset()
    let child = try startGHLogin(
      ["auth", "--no-browser", "--timeout", "60"],
      env: store.sandbox.environment(["GHLOGIN_TEST_FAULT": "kill-before-rename"]))
    let url = try child.waitForLine(.stderr, timeout: 30) { $0.hasPrefix("https://") }
    _ = try runBrowser(url: url, fake: store.fake)
    #expect(try child.finish(timeout: 30).status == -SIGKILL)
    #expect(store.sandbox.credentialsBytes() == store.oldBytes)
    #expect(fileMode(store.sandbox.credentialsFile) == 0o600)
    let temporaries = store.temporaryFiles()
    #expect(temporaries.count == 1 && temporaries.allSatisfy { fileMode($0) == 0o600 })
    #expect(try store.logout().status == 0)
    #expect(store.temporaryFiles() == [])
  }

  /// Injected failures before the rename: the old file stays, byte for byte, and the message
  /// says so. After the rename (directory fsync) the new file is complete in place.
  @Test(arguments: ["open", "write", "fsync", "rename", "directory-fsync"])
  func injectedWriteFailure(fault: String) throws {
    let store = try CrashStore()
    let new = try store.newBytes()
    try store.reset()
    let result = try store.logout(fault: fault)
    #expect(result.status == 1)
    #expect(store.temporaryFiles() == [])
    #expect(fileMode(store.sandbox.credentialsFile) == 0o600)
    if fault == "directory-fsync" {
      #expect(store.sandbox.credentialsBytes() == new)
      #expect(result.stderr.contains("cannot flush the directory"), "\(result.stderr)")
    } else {
      #expect(store.sandbox.credentialsBytes() == store.oldBytes)
      #expect(result.stderr.contains("Input/output error; the file was left unchanged"), "\(result.stderr)")
    }
  }

  /// A read-only credentials directory (as root, ghlogin runs without CAP_DAC_OVERRIDE), after
  /// an earlier write made the lock file.
  @Test(.enabled(if: geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
  func readOnlyDirectoryLeavesTheOldFile() throws {
    let store = try CrashStore()
    _ = try store.newBytes()
    try store.reset()
    let directory = store.sandbox.configDirectory
    chmod(directory, 0o500)
    defer { chmod(directory, 0o700) }
    let result = try store.logout(withoutOverride: true)
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "cannot create a temp file next to \(store.sandbox.credentialsFile): Permission denied; "
          + "the file was left unchanged"), "\(result.stderr)")
    #expect(store.sandbox.credentialsBytes() == store.oldBytes)
    #expect(store.temporaryFiles() == [])
  }
}

/// A sandbox whose credentials file holds two accounts on github.test (octocat, active, and
/// hubot); `logout --user hubot` rewrites it to hold only octocat.
private final class CrashStore {
  let fake: FakeGitHub
  let sandbox: Sandbox
  /// The file as ``reset()`` writes it.
  let oldBytes: [UInt8]

  init() throws {
    fake = try FakeGitHub.start()
    sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    func account(_ login: String, _ id: Int, _ token: String) -> [String: Any] {
      [
        "login": login, "user_id": id, "token": token, "token_type": "bearer", "scopes": ["repo"],
        "created_at": 1_700_000_000,
      ]
    }
    let document: [String: Any] = [
      "version": 1,
      "hosts": [
        "github.test": [
          "active": "octocat",
          "accounts": [
            account("octocat", 1, "gho_crashsafetyoctocat0123456789abcdef"),
            account("hubot", 2, "gho_crashsafetyhubot"),
          ],
        ]
      ],
    ]
    oldBytes = Array(try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys]))
  }

  /// Puts the old file back (temp file, 0600, rename), leaving any stray temp files alone.
  func reset() throws {
    let staging = sandbox.home + "/credentials.staging"
    _ = FileManager.default.createFile(
      atPath: staging, contents: Data(oldBytes), attributes: [.posixPermissions: 0o600])
    guard rename(staging, sandbox.credentialsFile) == 0 else { throw HarnessError("rename failed: errno \(errno)") }
  }

  /// The file after a complete `logout --user hubot` from the old one.
  func newBytes() throws -> [UInt8] {
    try reset()
    let result = try logout()
    guard result.status == 0, let bytes = sandbox.credentialsBytes() else {
      throw HarnessError("logout failed: \(result.stderr)")
    }
    return bytes
  }

  static let arguments = ["logout", "--host", "github.test", "--user", "hubot"]

  func startLogout(fault: String? = nil) throws -> ChildProcess {
    try startGHLogin(
      Self.arguments, env: sandbox.environment(fault.map { ["GHLOGIN_TEST_FAULT": $0] } ?? [:]), stdin: "")
  }

  /// Runs `logout --user hubot` to the end; `withoutOverride` runs it, when this process is
  /// root, under `setpriv` without the capabilities that bypass file permissions.
  func logout(fault: String? = nil, withoutOverride: Bool = false) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    let env = sandbox.environment(fault.map { ["GHLOGIN_TEST_FAULT": $0] } ?? [:])
    guard withoutOverride && geteuid() == 0 else { return try runGHLogin(Self.arguments, env: env) }
    let drop = "-dac_override,-dac_read_search,-fowner"
    let child = try ChildProcess(
      executable: "/usr/bin/setpriv",
      arguments: ["--bounding-set=\(drop)", "--inh-caps=\(drop)", "--", try HarnessPaths.ghloginBinary()]
        + Self.arguments,
      environment: env, stdin: "")
    return try child.finish(timeout: 30)
  }

  /// The temp files next to credentials.json (`.credentials.json.tmp-*`), as full paths.
  func temporaryFiles() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: sandbox.configDirectory)) ?? []
    return names.filter { $0.hasPrefix(".credentials.json.tmp-") }.sorted().map { sandbox.configDirectory + "/" + $0 }
  }
}

/// The permission bits of `path` (`lstat`), or nil when it does not exist.
private func fileMode(_ path: String) -> mode_t? {
  var info = stat()
  guard lstat(path, &info) == 0 else { return nil }
  return info.st_mode & 0o7777
}
