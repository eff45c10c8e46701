import GHLoginTestSupport
import Glibc
import Testing

@testable import GHLoginCore

/// Symlinks and directory checks (R62, R63, R65).
@Suite struct CredentialStorePathTests {
  /// R63, R65: credentials.json is a symlink to ~/victim.
  @Test func credentialsFileSymlinkRefused() throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    let victim = fixture.home + "/victim"
    try writeFile(victim, "precious\n", mode: 0o600)
    #expect(symlink(victim, fixture.file) == 0)

    for attempt in [{ try fixture.store().update { $0 = sampleCredentials() } }, { _ = try fixture.store().load() }] {
      let error = try #require(throws: StoreError.self) { try attempt() }
      #expect(error == .symbolicLink(path: fixture.file))
      #expect(
        error.message
          == "refusing to use \(fixture.file): it is a symbolic link; the library never reads or writes credentials through a link"
      )
    }
    #expect(readFile(victim) == Array("precious\n".utf8))
    #expect(linkStatus(fixture.file).map { FileKind(mode: $0.st_mode) } == .symbolicLink)
  }

  @Test func danglingSymlinkRefused() throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    #expect(symlink(fixture.home + "/created-through-link", fixture.file) == 0)
    #expect(throws: StoreError.symbolicLink(path: fixture.file)) {
      try fixture.store().update { $0 = sampleCredentials() }
    }
    #expect(linkStatus(fixture.home + "/created-through-link") == nil)
  }

  @Test func configDirectorySymlinkRefused() throws {
    let fixture = try StoreFixture()
    try makeDirectory(fixture.home + "/.config", mode: 0o700)
    let elsewhere = fixture.home + "/elsewhere"
    try makeDirectory(elsewhere, mode: 0o700)
    #expect(symlink(elsewhere, fixture.configDirectory) == 0)

    let error = try #require(throws: StoreError.self) { try fixture.store().update { $0 = sampleCredentials() } }
    #expect(error == .symbolicLink(path: fixture.configDirectory))
    #expect(throws: StoreError.symbolicLink(path: fixture.configDirectory)) { try fixture.store().load() }
    #expect(directoryEntries(elsewhere) == [])
  }

  @Test func lockFileSymlinkRefused() throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    let target = fixture.home + "/lock-target"
    #expect(symlink(target, fixture.paths.lockFile) == 0)
    #expect(throws: StoreError.symbolicLink(path: fixture.paths.lockFile)) {
      try fixture.store().update { $0 = sampleCredentials() }
    }
    #expect(linkStatus(target) == nil)
    #expect(linkStatus(fixture.file) == nil)
  }

  /// R62: the directory itself is group- or world-writable.
  @Test(arguments: [0o770, 0o720, 0o702, 0o777] as [mode_t])
  func writableDirectoryRefused(mode: mode_t) throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory(mode: mode)
    let directory = fixture.configDirectory
    let expected = StoreError.directoryWritableByOthers(path: directory, parent: false)
    #expect(throws: expected) { try fixture.store().update { $0 = sampleCredentials() } }
    #expect(throws: expected) { try fixture.store().load() }
    #expect(
      expected.message
        == "refusing to use \(directory): it is writable by group or others; run chmod 700 \(directory)")
    #expect(directoryEntries(directory) == [])
  }

  /// R62: a parent up to HOME (including HOME) is group- or world-writable.
  @Test(arguments: [".config", ""])
  func writableParentRefused(parent: String) throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    let directory = parent.isEmpty ? fixture.home : fixture.home + "/" + parent
    #expect(chmod(directory, 0o777) == 0)
    let expected = StoreError.directoryWritableByOthers(path: directory, parent: true)
    #expect(throws: expected) { try fixture.store().update { $0 = sampleCredentials() } }
    #expect(throws: expected) { try fixture.store().load() }
    #expect(
      expected.message
        == "refusing to use \(directory): it is writable by group or others, who could replace the credentials directory inside it; run chmod go-w \(directory)"
    )
    #expect(linkStatus(fixture.file) == nil)
  }

  /// R94: the parents above `HOME` are judged too, up to `/`; a world-writable,
  /// non-sticky one is refused (another user could swap the directory below it mid-login).
  @Test func worldWritableParentAboveHomeIsRefused() throws {
    let temporary = try TemporaryDirectory()
    try makeDirectory(temporary.at("shared"), mode: 0o777)
    try makeDirectory(temporary.at("shared/home"), mode: 0o700)
    let paths = try ConfigPaths.resolve(["HOME": temporary.at("shared/home")])
    let expected = StoreError.directoryWritableByOthers(path: temporary.at("shared"), parent: true)
    #expect(throws: expected) { try CredentialStore(paths: paths).update { $0 = sampleCredentials() } }
    #expect(access(paths.credentialsFile, F_OK) != 0)
    #expect(
      expected.message
        == "refusing to use \(temporary.at("shared")): it is writable by group or others, who could replace the "
        + "credentials directory inside it; run chmod go-w \(temporary.at("shared"))")
  }

  /// R94: outside `HOME` (`GHLOGIN_CREDENTIALS`) as well; before, the walk was skipped there.
  @Test func worldWritableParentOutsideHomeIsRefused() throws {
    let temporary = try TemporaryDirectory()
    let home = try temporary.makeHome()
    try makeDirectory(temporary.at("open"), mode: 0o777)
    let paths = try ConfigPaths.resolve(["HOME": home, "GHLOGIN_CREDENTIALS": temporary.at("open/private/c.json")])
    #expect(throws: StoreError.directoryWritableByOthers(path: temporary.at("open"), parent: true)) {
      try CredentialStore(paths: paths).update { $0 = sampleCredentials() }
    }
    #expect(access(paths.credentialsFile, F_OK) != 0)
    #expect(access(paths.lockFile, F_OK) != 0)
  }

  /// R94: a sticky directory owned by root (as `/tmp`) is the one exception.
  @Test(.enabled(if: geteuid() == 0, "the sticky exception is for directories owned by root"))
  func stickyRootOwnedParentIsAccepted() throws {
    let temporary = try TemporaryDirectory()
    let home = try temporary.makeHome()
    try makeDirectory(temporary.at("sticky"), mode: 0o777)
    #expect(chmod(temporary.at("sticky"), 0o1777) == 0)
    let paths = try ConfigPaths.resolve(["HOME": home, "GHLOGIN_CREDENTIALS": temporary.at("sticky/private/c.json")])
    try CredentialStore(paths: paths).update { $0 = sampleCredentials() }
    #expect(try CredentialStore(paths: paths).load() == sampleCredentials())
    // Sticky but owned by someone else: refused.
    #expect(chown(temporary.at("sticky"), 65534, 65534) == 0)
    #expect(throws: StoreError.directoryNotOwned(path: temporary.at("sticky"))) {
      try CredentialStore(paths: paths).load()
    }
  }

  @Test func parentsListedUpToTheRoot() {
    #expect(SafeDirectory.parents(of: "/a/b/c") == ["/a/b", "/a", "/"])
    #expect(SafeDirectory.parents(of: "/a/b/c/") == ["/a/b", "/a", "/"])
    #expect(SafeDirectory.parents(of: "/a") == ["/"])
    #expect(SafeDirectory.parents(of: "/") == [])
    #expect(SafeDirectory.parents(of: "//") == [])
    #expect(SafeDirectory.parents(of: "/a//b") == ["/a/", "/a", "/"])
    #expect(SafeDirectory.parents(of: "a/b") == ["a"])
    #expect(SafeDirectory.parents(of: "/é/ü") == ["/é", "/"])
  }

  @Test func directoryIsAFile() throws {
    let fixture = try StoreFixture()
    try makeDirectory(fixture.home + "/.config", mode: 0o700)
    try writeFile(fixture.configDirectory, "not a directory")
    let error = try #require(throws: StoreError.self) { try fixture.store().update { $0 = sampleCredentials() } }
    #expect(error.message == "refusing to use \(fixture.configDirectory): it is not a directory")
  }

  @Test(.enabled(if: geteuid() == 0, "needs root to give the directory away"))
  func directoryOwnedByAnotherUserRefused() throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    #expect(chown(fixture.configDirectory, 65534, 65534) == 0)
    let expected = StoreError.directoryNotOwned(path: fixture.configDirectory)
    #expect(throws: expected) { try fixture.store().update { $0 = sampleCredentials() } }
    #expect(
      expected.message
        == "refusing to use \(fixture.configDirectory): it belongs to another user; the credentials directory and its "
        + "parents must be yours (or root's): put the credentials elsewhere with GHLOGIN_CREDENTIALS, or run sudo chown "
        + "\(getuid()) \(fixture.configDirectory)")
  }

  @Test(.enabled(if: geteuid() == 0, "needs root to give the directory away"))
  func parentOwnedByAnotherUserRefused() throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    #expect(chown(fixture.home + "/.config", 65534, 65534) == 0)
    #expect(throws: StoreError.directoryNotOwned(path: fixture.home + "/.config")) { try fixture.store().load() }
  }

  /// R94 once per command: reading credentials in the directory whose parents this command has
  /// just judged (``CredentialStore/parentsJudged``) does not walk them again; another directory,
  /// and every write, still does. A parent made unsafe after the judging shows which ran.
  @Test func parentsJudgedForTheDirectoryAreNotWalkedAgain() throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    try fixture.store().update { $0 = sampleCredentials() }
    #expect(chmod(fixture.home, 0o777) == 0)
    let expected = StoreError.directoryWritableByOthers(path: fixture.home, parent: true)

    var store = fixture.store()
    store.parentsJudged = fixture.configDirectory
    #expect(try store.load() == sampleCredentials())
    #expect(try store.loadFile(host: "github.com") == sampleCredentials())
    #expect(throws: expected) { try store.update { $0 = sampleCredentials() } }
    store.parentsJudged = fixture.home
    #expect(throws: expected) { try store.load() }
    store.parentsJudged = nil
    #expect(throws: expected) { try store.load() }
  }

  /// The directory itself is always checked, judged parents or not (R62).
  @Test func theDirectoryItselfIsCheckedWhenItsParentsWereJudged() throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory(mode: 0o770)
    var store = fixture.store()
    store.parentsJudged = fixture.configDirectory
    #expect(throws: StoreError.directoryWritableByOthers(path: fixture.configDirectory, parent: false)) {
      try store.load()
    }
  }

  /// A workspace judges the parents once: after reading the config file in the credentials'
  /// directory, the store is told so; with no config file, or one elsewhere, it walks them itself.
  @Test(arguments: [("in the same directory", true), ("none", false), ("elsewhere", false)])
  func aWorkspaceTellsTheStoreWhichParentsItJudged(_ config: String, _ judged: Bool) throws {
    let fixture = try StoreFixture()
    try fixture.makeConfigDirectory()
    var variables = ["HOME": fixture.home]
    switch config {
    case "in the same directory": try writeFile(fixture.configDirectory + "/config.json", "{}")
    case "elsewhere":
      try writeFile(fixture.home + "/other.json", "{}")
      variables["GHLOGIN_CONFIG"] = fixture.home + "/other.json"
    default: break
    }
    let environment = Environment(
      arguments: [], variables: EnvironmentVariables(variables), stdout: BufferOutput(), stderr: BufferOutput(),
      stdin: BufferInput(), clock: ManualClock(), browser: RecordingBrowser(), transport: { _ in NoNetwork() })
    let workspace = try Workspace(collectingWarnings: environment, quiet: true)
    #expect((workspace.store.parentsJudged == fixture.configDirectory) == judged)
    if config == "elsewhere" { #expect(workspace.store.parentsJudged == fixture.home) }
    if config == "none" { #expect(workspace.store.parentsJudged == nil) }
  }

}
