import GHLoginTestSupport
import Glibc
import Testing

@testable import GHLoginCore

/// A config others can edit (R93), a credentials file with more than one hard link (R95), and
/// `GHLOGIN_CREDENTIALS` naming something that is not a regular file (R90).
@Suite struct StoreHardeningTests {
  /// Item 8 (R95): a second name for the file is refused by load and update; the file is unchanged.
  @Test func credentialsFileWithTwoLinksIsRefused() throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    try writeFile(fixture.file, CredentialCoding.encode(sampleCredentials()), mode: 0o600)
    let other = fixture.home + "/copy.json"
    #expect(link(fixture.file, other) == 0)
    let before = readFile(fixture.file)
    let expected = StoreError.multipleLinks(path: fixture.file, count: 2)
    #expect(throws: expected) { try fixture.store().load() }
    var ran = false
    #expect(throws: expected) { try fixture.store().update { _ in ran = true } }
    #expect(!ran)
    #expect(readFile(fixture.file) == before)
    #expect(
      expected.message
        == "refusing to use \(fixture.file): it has 2 hard links, so another name would keep the token after a logout; "
        + "find them with find / -xdev -samefile \(fixture.file), remove them, and run chmod 600 \(fixture.file) if needed"
    )
    #expect(unlink(other) == 0)
    #expect(try fixture.store().load() == sampleCredentials())
  }

  /// Item 11: a directory or a FIFO at `GHLOGIN_CREDENTIALS` is refused before any lock file is
  /// created beside it (by load and by update).
  @Test(arguments: ["directory", "fifo"])
  func credentialsPathThatIsNotAFileIsRefusedBeforeTheLock(_ kind: String) throws {
    let temporary = try TemporaryDirectory()
    let home = try temporary.makeHome()
    try makeDirectory(temporary.at("place"), mode: 0o700)
    let target = temporary.at("place/creds")
    if kind == "directory" {
      try makeDirectory(target, mode: 0o700)
    } else {
      #expect(mkfifo(target, 0o600) == 0)
    }
    let paths = try ConfigPaths.resolve(["HOME": home, "GHLOGIN_CREDENTIALS": target])
    let described = kind == "directory" ? "a directory" : "a FIFO (named pipe)"
    let expected = StoreError.notARegularFile(path: target, kind: described)
    #expect(throws: expected) { try CredentialStore(paths: paths).update { $0 = sampleCredentials() } }
    #expect(throws: expected) { try CredentialStore(paths: paths).load() }
    #expect(access(target + ".lock", F_OK) != 0, "a lock file was created beside \(target)")
    #expect(
      expected.message
        == "refusing to use \(target) for credentials: it is \(described), not a regular file; remove it, or point "
        + "GHLOGIN_CREDENTIALS at a file path (the file is created if missing)")
  }

  /// Item 11 with a device: `/dev/null` (its directory `/dev` is root's, so only the kind stops it).
  @Test(.enabled(if: geteuid() == 0, "as another user /dev is refused earlier, for its owner"))
  func devNullIsRefusedWithoutALockInDev() throws {
    let temporary = try TemporaryDirectory()
    let home = try temporary.makeHome()
    let paths = try ConfigPaths.resolve(["HOME": home, "GHLOGIN_CREDENTIALS": "/dev/null"])
    let existed = access("/dev/null.lock", F_OK) == 0
    #expect(throws: StoreError.notARegularFile(path: "/dev/null", kind: "a character device")) {
      try CredentialStore(paths: paths).update { $0 = sampleCredentials() }
    }
    #expect(existed || access("/dev/null.lock", F_OK) != 0)
    if !existed { unlink("/dev/null.lock") }
  }

  /// Item 6 (R93): a config writable by group or others is refused (exit 2) with the chmod line.
  @Test(arguments: [0o664, 0o646, 0o666, 0o620] as [mode_t])
  func configWritableByOthersIsRefused(_ mode: mode_t) throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    try writeFile(fixture.paths.configFile, #"{"api_url": "https://evil.test"}"#, mode: mode)
    let expected = ConfigError.writableByOthers(file: fixture.paths.configFile, mode: UInt32(mode))
    #expect(throws: expected) { try Config.load(paths: fixture.paths, variables: [:]) }
    #expect(expected.exitStatus == .usage)
    #expect(
      expected.message
        == "refusing to read \(fixture.paths.configFile): its permissions \(FileMode.octal(mode)) let group or others "
        + "change it, and it decides where your token is sent; run chmod go-w \(fixture.paths.configFile)")
  }

  @Test func configReadableByOthersIsStillFine() throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    try writeFile(fixture.paths.configFile, #"{"client_id": "Iv1.x"}"#, mode: 0o644)
    #expect(try Config.load(paths: fixture.paths, variables: [:]).topLevel.clientID == "Iv1.x")
  }

  /// Item 6 (R93): a config owned by another user (not root) is refused with the chown line.
  @Test(.enabled(if: geteuid() == 0, "needs root to give the file away"))
  func configOwnedByAnotherUserIsRefused() throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    try writeFile(fixture.paths.configFile, #"{"client_id": "Iv1.x"}"#, mode: 0o644)
    #expect(chown(fixture.paths.configFile, 65534, 65534) == 0)
    let expected = ConfigError.notOwned(file: fixture.paths.configFile, owner: 65534, user: getuid())
    #expect(throws: expected) { try Config.load(paths: fixture.paths, variables: [:]) }
    #expect(
      expected.message
        == "refusing to read \(fixture.paths.configFile): it belongs to another user (uid 65534), who could decide "
        + "where your token is sent; run sudo chown \(getuid()) \(fixture.paths.configFile)")
  }
}

/// R92: accounts keyed by user id across a rename.
@Suite struct AccountRenameTests {
  func account(_ login: String, _ id: Int64, _ token: String) -> Credential {
    Credential(login: login, userID: id, token: token, createdAt: 1_700_000_000)
  }

  @Test func renameToAStoredLoginLeavesTheOldEntryStale() {
    var credentials = Credentials()
    credentials.save(account("alice", 1, "tA"), on: "h")
    credentials.save(account("bob", 2, "tB"), on: "h")
    let replaced = credentials.save(account("bob", 1, "tC"), on: "h")
    #expect(replaced?.token == "tA")
    let entry = credentials.hosts["h"]!
    #expect(entry.accounts.map(\.token) == ["tC", "tB"])
    #expect(entry.account("bob")?.token == "tC")
    #expect(entry.isStale(entry.accounts[1]) && !entry.isStale(entry.accounts[0]))
    #expect(entry.isActive(entry.accounts[0]) && !entry.isActive(entry.accounts[1]))

    credentials.remove(login: "bob", from: "h")
    #expect(credentials.hosts["h"]?.accounts.map(\.token) == ["tB"])
    #expect(credentials.hosts["h"]?.active?.token == "tB")
  }

  @Test func sameIdUnderANewLoginReplacesInPlace() {
    var credentials = Credentials()
    credentials.save(account("alice", 1, "tA"), on: "h")
    credentials.save(account("carol", 3, "tX"), on: "h")
    credentials.save(account("alice2", 1, "tA2"), on: "h")
    #expect(credentials.hosts["h"]?.accounts.map(\.login) == ["alice2", "carol"])
  }
}
