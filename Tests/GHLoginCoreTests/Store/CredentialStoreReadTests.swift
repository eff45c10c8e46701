import Glibc
import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// Reading: file checks (R64, R65), size cap, corrupt and newer files never overwritten (R67).
@Suite struct CredentialStoreReadTests {
  /// Writes `bytes` as the credentials file with `mode`, in a fresh fixture.
  private func fixture(with bytes: [UInt8], mode: mode_t = 0o600) throws -> StoreFixture {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    try writeFile(fixture.file, bytes, mode: mode)
    return fixture
  }

  /// Asserts that both `load` and `update` throw `expected`, that `update` never ran its body,
  /// and that the file is byte-for-byte what it was.
  private func expectRefused(
    _ fixture: StoreFixture, _ expected: StoreError, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let before = readFile(fixture.file)
    let inode = linkStatus(fixture.file)?.st_ino
    #expect(throws: expected, sourceLocation: sourceLocation) { try fixture.store().load() }
    var ran = false
    #expect(throws: expected, sourceLocation: sourceLocation) {
      try fixture.store().update { credentials in
        ran = true
        credentials = sampleCredentials()
      }
    }
    #expect(!ran, sourceLocation: sourceLocation)
    #expect(readFile(fixture.file) == before, sourceLocation: sourceLocation)
    #expect(linkStatus(fixture.file)?.st_ino == inode, sourceLocation: sourceLocation)
    #expect(expected.exitStatus == .failure, sourceLocation: sourceLocation)
  }

  /// R64, R65: group/other bits on the file.
  @Test(arguments: [0o644, 0o640, 0o604, 0o601, 0o620, 0o666] as [mode_t])
  func tooOpenPermissionsRefused(mode: mode_t) throws {
    let secret = "gho_SECRETSECRETSECRET"
    let fixture = try fixture(
      with: CredentialCoding.encode(sampleCredentials(sampleCredential(token: secret))), mode: mode)
    let expected = StoreError.permissionsTooOpen(path: fixture.file, mode: mode)
    expectRefused(fixture, expected)
    #expect(
      expected.message
        == "refusing to read \(fixture.file): its permissions \(FileMode.octal(mode)) are too open (group or others can access it); run chmod 600 \(fixture.file)"
    )
    #expect(!expected.message.contains("SECRET"))
    #expect(permissions(fixture.file) == mode)
  }

  @Test func ownerOnlyModesAreFine() throws {
    for mode: mode_t in [0o600, 0o400] {
      let fixture = try fixture(with: CredentialCoding.encode(sampleCredentials()), mode: mode)
      #expect(try fixture.store().load() == sampleCredentials())
    }
  }

  @Test(.enabled(if: geteuid() == 0, "needs root to give the file away"))
  func fileOwnedByAnotherUserRefused() throws {
    let fixture = try fixture(with: CredentialCoding.encode(sampleCredentials()))
    #expect(chown(fixture.file, 65534, 65534) == 0)
    let expected = StoreError.fileNotOwned(path: fixture.file)
    expectRefused(fixture, expected)
    #expect(expected.message == "refusing to read \(fixture.file): it belongs to another user")
  }

  @Test func fifoIsRefusedWithoutBlocking() throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    #expect(mkfifo(fixture.file, 0o600) == 0)
    let expected = StoreError.notARegularFile(path: fixture.file, kind: "a FIFO (named pipe)")
    #expect(throws: expected) { try fixture.store().load() }
    #expect(throws: expected) { try fixture.store().update { $0 = sampleCredentials() } }
    #expect(access(fixture.paths.lockFile, F_OK) != 0, "no lock file beside it")
    #expect(
      expected.message
        == "refusing to use \(fixture.file) for credentials: it is a FIFO (named pipe), not a regular file; remove it, "
        + "or point GHLOGIN_CREDENTIALS at a file path (the file is created if missing)")
  }

  @Test func directoryInPlaceOfTheFileRefused() throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    try makeDirectory(fixture.file, mode: 0o700)
    #expect(throws: StoreError.notARegularFile(path: fixture.file, kind: "a directory")) {
      try fixture.store().update { $0 = sampleCredentials() }
    }
  }

  /// R65, R67: a 50 MiB file.
  @Test func hugeFileRefusedAndUntouched() throws {
    let fixture = try fixture(with: [])
    #expect(truncate(fixture.file, 50 * 1024 * 1024) == 0)
    let expected = StoreError.tooLarge(path: fixture.file)
    expectRefused(fixture, expected)
    #expect(linkStatus(fixture.file)?.st_size == 50 * 1024 * 1024)
    #expect(
      expected.message
        == "refusing to read \(fixture.file): it is larger than 1 MiB, so the library did not write it; it was left untouched"
    )
  }

  @Test func fileJustOverTheCapRefused() throws {
    let fixture = try fixture(with: [UInt8](repeating: 0x20, count: 1024 * 1024 + 1))
    expectRefused(fixture, .tooLarge(path: fixture.file))
  }

  /// R65, R67: invalid JSON is never replaced by an empty file.
  @Test func invalidJSONRefusedAndUntouched() throws {
    let fixture = try fixture(
      with: Array("{\"version\": 1, \"hosts\": {\"github.com\": {\"accounts\": [{\"token\": \"gho_SECRET\"".utf8))
    let expected = StoreError.corrupt(path: fixture.file, detail: "invalid JSON at line 1, column 76")
    expectRefused(fixture, expected)
    #expect(
      expected.message
        == "\(fixture.file) is not a valid credentials file (invalid JSON at line 1, column 76); it was left untouched. Move it aside and log in again: mv \(fixture.file) \(fixture.file).broken"
    )
  }

  @Test func wrongShapeRefusedAndUntouched() throws {
    let fixture = try fixture(
      with: Array(#"{"version": 1, "hosts": {"github.com": {"accounts": [{"login": 7}]}}}"#.utf8))
    let expected = StoreError.corrupt(
      path: fixture.file, detail: #""hosts.github.com.accounts[0].login" must be a string"#)
    expectRefused(fixture, expected)
  }

  @Test func emptyFileIsCorrupt() throws {
    let fixture = try fixture(with: [])
    expectRefused(fixture, .corrupt(path: fixture.file, detail: "invalid JSON at line 1, column 1"))
  }

  /// A file of a version this ghlogin does not know (4: newer than the two-app format, 3) is
  /// refused with the upgrade message, never called corrupt, and left byte for byte as it was.
  @Test func newerVersionRefusedAndUntouched() throws {
    let fixture = try fixture(with: Array(#"{"version": 5, "hosts": {}, "keyring": true}"#.utf8))
    let expected = StoreError.newerVersion(path: fixture.file, version: 5)
    expectRefused(fixture, expected)
    #expect(
      expected.message
        == "\(fixture.file) was written by a newer version (version 5); it was left untouched. Upgrade the library to use it"
    )
  }

  /// Two apps on one host (SECURITY.md): `"client_id"` is a version-2 key; a version-1 file that has one is refused as
  /// any unknown key is (strict keys: nothing is dropped on rewrite), and left untouched.
  @Test func version1FileWithAClientIDIsRefusedAndUntouched() throws {
    let account =
      #"{"login": "octocat", "user_id": 1, "token": "gho_x", "token_type": "bearer", "scopes": [], "#
      + #""created_at": 1700000000, "client_id": "Iv1.app"}"#
    let fixture = try fixture(
      with: Array(#"{"version": 1, "hosts": {"github.com": {"active": "octocat", "accounts": ["#.utf8)
        + Array(account.utf8) + Array("]}}}".utf8))
    let expected = StoreError.corrupt(
      path: fixture.file, detail: #"unknown key "hosts.github.com.accounts[0].client_id""#)
    expectRefused(fixture, expected)
    #expect(
      expected.message
        == "\(fixture.file) is not a valid credentials file (unknown key \"hosts.github.com.accounts[0].client_id\"); it was left untouched. Move it aside and log in again: mv \(fixture.file) \(fixture.file).broken"
    )
  }

  /// Credentials of `count` hosts, `github.com` the last, and their file's bytes: over
  /// ``SecureFile/mappingThreshold`` from about 200 hosts.
  private func manyHosts(_ count: Int) -> (credentials: Credentials, bytes: [UInt8]) {
    var hosts: [String: HostEntry] = [:]
    for index in 0..<count - 1 {
      hosts["ghe-\(index).example.com"] = HostEntry(activeLogin: "octocat", accounts: [sampleCredential()])
    }
    hosts["github.com"] = HostEntry(activeLogin: "monalisa", accounts: [sampleCredential("monalisa")])
    let credentials = Credentials(hosts: hosts)
    return (credentials, CredentialCoding.encode(credentials))
  }

  /// Issue 30: a file large enough to be mapped rather than read answers every read as a small
  /// one does: the whole file, and one host's entry alone.
  @Test(arguments: [2, 400])
  func aLargeFileReadsAsASmallOne(hosts: Int) throws {
    let (credentials, bytes) = manyHosts(hosts)
    #expect((bytes.count >= SecureFile.mappingThreshold) == (hosts == 400))
    let fixture = try fixture(with: bytes)
    #expect(try fixture.store().load() == credentials)
    let one = try fixture.store().loadFile(host: "github.com")
    #expect(one.entry(for: "github.com") == credentials.entry(for: "github.com"))
    #expect(one.hostNames == ["github.com"])
    #expect(try fixture.store().loadFile(host: "example.com") == Credentials())
  }

  /// Issue 30: a large file cut short is refused where it ends, with the message of a small one,
  /// and left untouched.
  @Test func aLargeFileCutShortIsRefusedAndUntouched() throws {
    let bytes = Array(manyHosts(400).bytes.dropLast(3))
    #expect(bytes.count >= SecureFile.mappingThreshold)
    let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    let fixture = try fixture(with: bytes)
    let detail = "invalid JSON at line \(lines.count), column \(lines.last!.count + 1)"
    expectRefused(fixture, .corrupt(path: fixture.file, detail: detail))
    #expect(throws: StoreError.corrupt(path: fixture.file, detail: detail)) {
      try fixture.store().loadFile(host: "github.com")
    }
  }
}
