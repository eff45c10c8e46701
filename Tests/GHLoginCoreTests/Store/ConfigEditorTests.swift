import GHLoginTestSupport
import Glibc
import Testing

@testable import GHLoginCore

/// The config editor reads the file through the load's own trust check
/// (R93, `Config.readTrusted`), and every edit is one read-modify-write under the config's lock (R99).
@Suite struct ConfigEditorTests {
  /// Item 3: what a load refuses, the editor refuses with the same error (one function).
  @Test(arguments: [0o666, 0o620, 0o646] as [mode_t])
  func editorRefusesAConfigOthersMayWrite(_ mode: mode_t) throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    let file = fixture.paths.configFile
    try writeFile(file, #"{"api_url": "https://evil.test"}"#, mode: mode)
    let before = readFile(file)
    let expected = ConfigError.writableByOthers(file: file, mode: UInt32(mode))
    #expect(throws: expected) { try Config.load(paths: fixture.paths, variables: [:]) }
    #expect(throws: expected) { try ConfigEditor(file: file) }
    var ran = false
    #expect(throws: expected) {
      try ConfigEditor.edit(file: file) { _ in
        ran = true
        return true
      }
    }
    #expect(!ran)
    #expect(readFile(file) == before)
  }

  @Test(.enabled(if: geteuid() == 0, "needs root to give the file away"))
  func editorRefusesAnotherUsersConfig() throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    let file = fixture.paths.configFile
    try writeFile(file, #"{"api_url": "https://evil.test"}"#, mode: 0o644)
    #expect(chown(file, 65534, 65534) == 0)
    let expected = ConfigError.notOwned(file: file, owner: 65534, user: getuid())
    #expect(throws: expected) { try Config.load(paths: fixture.paths, variables: [:]) }
    #expect(throws: expected) { try ConfigEditor(file: file) }
    #expect(throws: expected) { try ConfigEditor.edit(file: file) { _ in true } }
    var info = stat()
    #expect(stat(file, &info) == 0 && info.st_uid == 65534 && info.st_mode & 0o777 == 0o644)
  }

  /// Item 6: another holder of the lock for the whole wait: the edit throws naming the lock
  /// file (exit 1), its body never runs, the file is unchanged.
  @Test func heldLockTimesOutAndWritesNothing() throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    let file = fixture.paths.configFile
    try writeFile(file, #"{"client_id": "Iv1.first"}"#, mode: 0o600)
    let lockFile = ConfigEditor.lockFile(for: file)
    #expect(lockFile == fixture.configDirectory + "/config.json.lock")
    let held = try FileLock.acquire(lockFile, timeout: 0, clock: ManualClock())
    defer { held.release() }
    var ran = false
    let error = try #require(throws: StoreError.self) {
      try ConfigEditor.edit(file: file, lockTimeout: 2, clock: ManualClock()) { editor in
        ran = true
        editor.set("client_id", to: .string("Iv1.second"), host: nil)
        return true
      }
    }
    #expect(error == .configLockTimeout(path: lockFile, seconds: 2))
    #expect(error.exitStatus == .failure)
    #expect(error.message.hasPrefix("timed out after 2 seconds waiting for the lock on \(lockFile); another "))
    #expect(!ran)
    #expect(readFile(file) == Array(#"{"client_id": "Iv1.first"}"#.utf8))
  }

  /// Item 6: the lock file is made 0600 beside the config, never through a symbolic link.
  @Test func lockFileIsPrivateAndNeverFollowed() throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    let file = fixture.paths.configFile
    try ConfigEditor.edit(file: file) { editor in
      editor.set("client_id", to: .string("Iv1.x"), host: nil)
      return true
    }
    var info = stat()
    #expect(lstat(ConfigEditor.lockFile(for: file), &info) == 0 && info.st_mode & 0o7777 == 0o600)
    #expect(unlink(ConfigEditor.lockFile(for: file)) == 0)
    let target = fixture.home + "/elsewhere"
    #expect(symlink(target, ConfigEditor.lockFile(for: file)) == 0)
    let before = readFile(file)
    #expect(throws: StoreError.symbolicLink(path: ConfigEditor.lockFile(for: file))) {
      try ConfigEditor.edit(file: file) { _ in true }
    }
    #expect(access(target, F_OK) != 0)
    #expect(readFile(file) == before)
  }

  /// Item 6: edits from 20 threads (each its own descriptor, so `flock` excludes them as it
  /// does processes) of 20 hosts: all 20 blocks are in the file.
  @Test func concurrentEditsAreAllKept() async throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    let file = fixture.paths.configFile
    let failures = await withTaskGroup(of: String?.self) { group in
      for index in 0..<20 {
        group.addTask {
          do {
            try ConfigEditor.edit(file: file) { editor in
              editor.set("client_id", to: .string("Iv1.h\(index)"), host: "h\(index).example.com")
              return true
            }
            return nil
          } catch {
            return "\(index): \(error)"
          }
        }
      }
      var failures: [String] = []
      for await failure in group { if let failure { failures.append(failure) } }
      return failures
    }
    #expect(failures.isEmpty)
    let config = try Config.load(paths: fixture.paths, variables: [:])
    #expect(config.hosts.count == 20)
    for index in 0..<20 { #expect(config.hosts["h\(index).example.com"]?.clientID == "Iv1.h\(index)") }
  }
}
