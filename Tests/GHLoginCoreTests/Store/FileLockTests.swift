import Foundation
import Glibc
import Synchronization
import Testing

import GHLoginTestSupport
@testable import GHLoginCore

/// Holds an exclusive `flock` on `path` through its own descriptor, like another process would.
///
/// Retries `EWOULDBLOCK` for up to two seconds: a process spawned by another test in this
/// process shares every descriptor until its `exec`, which can hold a just-released lock.
private final class HeldLock: Sendable {
  private let fd: Int32
  init(_ path: String) throws {
    fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw SystemError(call: "open", errno: errno) }
    var tries = 0
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      tries += 1
      guard errno == EWOULDBLOCK, tries < 200 else { throw SystemError(call: "flock", errno: errno) }
      usleep(10_000)
    }
  }
  func release() { close(fd) }
}

/// A manual clock that runs `onSleep` with the number of sleeps so far.
private final class ScriptedClock: GHLoginCore.TimeSource {
  private let inner = ManualClock()
  private let onSleep: @Sendable (Int) -> Void
  init(onSleep: @escaping @Sendable (Int) -> Void) { self.onSleep = onSleep }
  func now() -> Double { inner.now() }
  func monotonic() -> Double { inner.monotonic() }
  func sleep(seconds: Double) {
    inner.sleep(seconds: seconds)
    onSleep(inner.sleeps.count)
  }
  var sleeps: [Double] { inner.sleeps }
}

/// R66: the exclusive lock around every read-modify-write.
@Suite struct FileLockTests {
  @Test func heldLockTimesOutWithAClearError() throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    let held = try HeldLock(fixture.paths.lockFile)
    defer { held.release() }
    let clock = ManualClock()
    var ran = false
    let error = try #require(throws: StoreError.self) {
      try fixture.store(lockTimeout: 1, clock: clock).update { credentials in
        ran = true
        credentials = sampleCredentials()
      }
    }
    #expect(error == .lockTimeout(path: fixture.paths.lockFile, seconds: 1))
    #expect(
      error.message
        == "timed out after 1 seconds waiting for the lock on \(fixture.paths.lockFile); another program is still using the credentials. Try again when it has finished"
    )
    #expect(!ran)
    #expect(linkStatus(fixture.file) == nil)
    #expect(clock.sleeps.count >= 100 && clock.sleeps.count <= 101)
    #expect(clock.sleeps.allSatisfy { $0 == FileLock.pollInterval })
  }

  @Test func updateWaitsForTheLockThenProceeds() throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    let held = try HeldLock(fixture.paths.lockFile)
    let clock = ScriptedClock { count in if count == 3 { held.release() } }
    try fixture.store(clock: clock).update { $0 = sampleCredentials() }
    #expect(clock.sleeps.count >= 3)  // more only if a spawned child briefly shared the descriptor
    #expect(try fixture.store().load() == sampleCredentials())
  }

  @Test func loadNeedsNoLock() throws {
    let fixture = try StoreFixture()
    try fixture.store().update { $0 = sampleCredentials() }
    let held = try HeldLock(fixture.paths.lockFile)
    defer { held.release() }
    #expect(try fixture.store(lockTimeout: 0, clock: ManualClock()).load() == sampleCredentials())
  }

  @Test func lockIsReleasedAfterUpdateAndAfterErrors() throws {
    struct Stop: Error {}
    let fixture = try StoreFixture()
    try fixture.store().update { $0 = sampleCredentials() }
    #expect(throws: Stop.self) { try fixture.store().update { _ in throw Stop() } }
    let held = try HeldLock(fixture.paths.lockFile)  // would throw EWOULDBLOCK if still held
    held.release()
  }

  /// Twenty threads, each with its own store (own descriptors), each adding its own host.
  @Test func concurrentUpdatesAllLand() throws {
    let fixture = try StoreFixture()
    let errors = TestLock<[String]>([])
    let done = DispatchGroup()
    let paths = fixture.paths
    for index in 0..<20 {
      done.enter()
      let thread = Thread {
        defer { done.leave() }
        do {
          try CredentialStore(paths: paths).update { credentials in
            let count = credentials.hosts.count
            credentials.hosts["host\(index).example"] = HostEntry(
              activeLogin: "u\(index)", accounts: [sampleCredential("u\(index)")])
            #expect(credentials.hosts.count == count + 1)
          }
        } catch {
          errors.withLock { $0.append("\(error)") }
        }
      }
      thread.start()
    }
    done.wait()
    #expect(errors.withLock { $0 } == [])
    let hosts = try fixture.store().load().hosts
    #expect(hosts.keys.sorted() == (0..<20).map { "host\($0).example" }.sorted())
    #expect(directoryEntries(fixture.configDirectory) == ["credentials.json", "credentials.json.lock"])
  }

  @Test func lockFileThatIsNotARegularFileRefused() throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    try makeDirectory(fixture.paths.lockFile, mode: 0o700)
    let error = try #require(throws: StoreError.self) { try fixture.store().update { $0 = sampleCredentials() } }
    // open(O_RDWR) on a directory fails with EISDIR before fstat can look.
    #expect(error.message == "cannot open the lock file \(fixture.paths.lockFile): Is a directory")
  }

  @Test func looseLockFileModeIsTightened() throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    try writeFile(fixture.paths.lockFile, [], mode: 0o644)
    try fixture.store().update { $0 = sampleCredentials() }
    #expect(permissions(fixture.paths.lockFile) == 0o600)
  }
}
