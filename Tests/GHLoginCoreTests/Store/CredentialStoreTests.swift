import GHLoginTestSupport
import Glibc
import Testing

@testable import GHLoginCore

/// Writing: modes, atomicity, fault injection, only-if-changed.
@Suite struct CredentialStoreTests {
  @Test func loadWithNothingThereIsEmpty() throws {
    let fixture = try StoreFixture()
    #expect(try fixture.store().load() == Credentials())
    #expect(linkStatus(fixture.configDirectory) == nil)  // load never creates anything
    try fixture.makeConfigDirectory()
    #expect(try fixture.store().load() == Credentials())
  }

  @Test func updateWritesAndLoadReadsBack() throws {
    let fixture = try StoreFixture()
    let store = fixture.store()
    let returned = try store.update { credentials -> Int in
      #expect(credentials == Credentials())
      credentials = sampleCredentials()
      return 42
    }
    #expect(returned == 42)
    #expect(try store.load() == sampleCredentials())
    #expect(try fixture.store().load() == sampleCredentials())
    #expect(readFile(fixture.file) == CredentialCoding.encode(sampleCredentials()))
  }

  /// R62–R64: exact modes whatever the umask, missing parents created 0700, no temp files left.
  @Test func modesAreExactWhateverTheUmask() throws {
    for mask: mode_t in [0, 0o022, 0o077, 0o277] {
      let fixture = try StoreFixture()
      try withUmask(mask) { try fixture.store().update { $0 = sampleCredentials() } }
      #expect(permissions(fixture.home + "/.config") == 0o700, "umask \(mask)")
      #expect(permissions(fixture.configDirectory) == 0o700, "umask \(mask)")
      #expect(permissions(fixture.file) == 0o600, "umask \(mask)")
      #expect(permissions(fixture.paths.lockFile) == 0o600, "umask \(mask)")
      #expect(
        directoryEntries(fixture.configDirectory) == ["credentials.json", "credentials.json.lock"], "umask \(mask)")
    }
  }

  @Test func existingDirectoryModeIsKept() throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory(mode: 0o755)
    try fixture.store().update { $0 = sampleCredentials() }
    #expect(permissions(fixture.configDirectory) == 0o755)
    #expect(permissions(fixture.file) == 0o600)
  }

  @Test func everyWriteMakesANewInode() throws {
    let fixture = try StoreFixture()
    let store = fixture.store()
    try store.update { $0 = sampleCredentials() }
    let first = try #require(linkStatus(fixture.file)).st_ino
    try store.update { $0.hosts["github.com"]?.accounts[0].scopes = ["gist"] }
    let second = try #require(linkStatus(fixture.file)).st_ino
    #expect(first != second)
    #expect(permissions(fixture.file) == 0o600)
  }

  @Test func unchangedCredentialsAreNotWritten() throws {
    let fixture = try StoreFixture()
    let store = fixture.store()
    try store.update { _ in }
    #expect(linkStatus(fixture.file) == nil)
    try store.update { $0 = sampleCredentials() }
    let inode = try #require(linkStatus(fixture.file)).st_ino
    try store.update { credentials in credentials.hosts["github.com"]?.activeLogin = "octocat" }
    #expect(try #require(linkStatus(fixture.file)).st_ino == inode)
  }

  @Test func bodyErrorWritesNothing() throws {
    struct Stop: Error {}
    let fixture = try StoreFixture()
    #expect(throws: Stop.self) {
      try fixture.store().update { credentials in
        credentials = sampleCredentials()
        throw Stop()
      }
    }
    #expect(linkStatus(fixture.file) == nil)
  }

  @Test func badTokenIsRefusedAndNothingWritten() throws {
    let fixture = try StoreFixture()
    let store = fixture.store()
    try store.update { $0 = sampleCredentials() }
    let before = readFile(fixture.file)
    let error = try #require(throws: StoreError.self) {
      try store.update { $0.hosts["github.com"]?.accounts[0].token = "ghp_evil\r\nX-Injected: 1" }
    }
    #expect(error == .invalidToken(host: "github.com", login: "octocat", field: "token"))
    #expect(!error.message.contains("ghp_evil"))
    #expect(readFile(fixture.file) == before)
  }

  /// R63 (in-process): a failure at any step leaves the previous file byte-for-byte and no temp
  /// file; after the rename (directory fsync) the new file is complete in place.
  @Test(arguments: WriteStep.allCases)
  func faultAtAnyStepKeepsAWholeFile(step: WriteStep) throws {
    let fixture = try StoreFixture()
    try fixture.store().update { $0 = sampleCredentials() }
    let before = try #require(readFile(fixture.file))
    let changed = sampleCredentials(sampleCredential("hubot"))

    let error = try #require(throws: StoreError.self) {
      try fixture.store(faults: StoreFaults(failAt: step)).update { $0 = changed }
    }
    #expect(error.exitStatus == .failure)
    let expected: String =
      switch step {
      case .open: "cannot create a temp file next to \(fixture.file): Input/output error; the file was left unchanged"
      case .write, .fsync, .rename: "cannot write \(fixture.file): Input/output error; the file was left unchanged"
      case .directoryFsync: "cannot flush the directory \(fixture.configDirectory): Input/output error"
      }
    #expect(error.message == expected)
    #expect(directoryEntries(fixture.configDirectory) == ["credentials.json", "credentials.json.lock"])
    #expect(permissions(fixture.file) == 0o600)
    if step == .directoryFsync {
      #expect(readFile(fixture.file) == CredentialCoding.encode(changed))
    } else {
      #expect(readFile(fixture.file) == before)
    }
    #expect(try fixture.store().load() == (step == .directoryFsync ? changed : sampleCredentials()))
  }

  @Test func staleTemporaryFilesAreRemovedUnderTheLock() throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    try writeFile(fixture.configDirectory + "/.credentials.json.tmp-0123456789abcdef", "{partial")
    try makeDirectory(fixture.configDirectory + "/.credentials.json.tmp-dir", mode: 0o700)
    try writeFile(fixture.configDirectory + "/.unrelated", "keep")
    try fixture.store().update { $0 = sampleCredentials() }
    #expect(
      directoryEntries(fixture.configDirectory) == [
        ".credentials.json.tmp-dir", ".unrelated", "credentials.json", "credentials.json.lock",
      ])
  }

  @Test func explicitCredentialsPathOutsideTheConfigDirectory() throws {
    let temporary = try TemporaryDirectory()
    let home = try temporary.makeHome()
    let paths = try ConfigPaths.resolve(["HOME": home, "GHLOGIN_CREDENTIALS": temporary.at("vault/deep/creds.json")])
    try CredentialStore(paths: paths).update { $0 = sampleCredentials() }
    #expect(permissions(temporary.at("vault")) == 0o700)
    #expect(permissions(temporary.at("vault/deep")) == 0o700)
    #expect(directoryEntries(temporary.at("vault/deep")) == ["creds.json", "creds.json.lock"])
    #expect(try CredentialStore(paths: paths).load() == sampleCredentials())
  }

  @Test func faultsFromEnvironment() {
    #if DEBUG
      #expect(StoreFaults.fromEnvironment([:]) == .none)
      #expect(StoreFaults.fromEnvironment(["GHLOGIN_TEST_FAULT": "open"]) == StoreFaults(failAt: .open))
      #expect(StoreFaults.fromEnvironment(["GHLOGIN_TEST_FAULT": "write"]) == StoreFaults(failAt: .write))
      #expect(StoreFaults.fromEnvironment(["GHLOGIN_TEST_FAULT": "fsync"]) == StoreFaults(failAt: .fsync))
      #expect(StoreFaults.fromEnvironment(["GHLOGIN_TEST_FAULT": "rename"]) == StoreFaults(failAt: .rename))
      #expect(
        StoreFaults.fromEnvironment(["GHLOGIN_TEST_FAULT": "directory-fsync"]) == StoreFaults(failAt: .directoryFsync))
      #expect(
        StoreFaults.fromEnvironment(["GHLOGIN_TEST_FAULT": "kill-before-rename"]) == StoreFaults(killBeforeRename: true)
      )
      #expect(StoreFaults.fromEnvironment(["GHLOGIN_TEST_FAULT": "bogus"]) == .none)
    #else
      #expect(StoreFaults.fromEnvironment(["GHLOGIN_TEST_FAULT": "open"]) == .none)
    #endif
  }
}
