/// The credentials file: 0600 in a 0700 directory, never through a symlink, replaced
/// atomically under an exclusive lock (R62–R67).
///
/// Each instance opens its own descriptors, so separate instances (in threads or processes)
/// serialize their updates through `flock`. Errors are ``StoreError``s (exit status 1).
package struct CredentialStore: Sendable {
  /// The largest credentials file read, in bytes.
  package static let maximumFileSize = 1024 * 1024
  /// How long ``update(_:)`` waits for the lock by default, in seconds.
  static let defaultLockTimeout = 30.0

  package let paths: ConfigPaths
  package let faults: StoreFaults
  /// Seconds ``update(_:)`` waits for the lock before giving up.
  package let lockTimeout: Double
  /// The clock the lock wait polls and sleeps on.
  package let clock: any TimeSource
  /// Where the tokens of accounts kept in the keyring are (contacted only for such accounts).
  package let secrets: any SecretStore
  /// An absolute directory whose parents up to `/` passed R94's rule a moment ago in this command
  /// (the config file in it was read, ``Config/readTrusted(_:)``): reading credentials in that same
  /// directory does not walk them again. Writes always do.
  package var parentsJudged: String?

  package init(
    paths: ConfigPaths, faults: StoreFaults = .none, lockTimeout: Double = CredentialStore.defaultLockTimeout,
    clock: any TimeSource = SystemClock(), secrets: any SecretStore = SecretStores.platform
  ) {
    self.paths = paths
    self.faults = faults
    self.lockTimeout = lockTimeout
    self.clock = clock
    self.secrets = secrets
  }

  /// The directory holding the credentials file.
  package var directory: String { FilePath.directory(of: paths.credentialsFile) }

  /// Reads the credentials; a missing directory or file gives empty credentials.
  ///
  /// Takes no lock: writers replace the file with `rename`, so a reader sees the old or the
  /// new file, never a mix. The directory must pass the R62 checks and the file the R65 checks.
  ///
  /// Accounts kept in the keyring get their tokens from it (``resolveSecrets(_:)``), so this
  /// also throws ``KeyringError``.
  package func load() throws -> Credentials {
    var credentials = try loadFile()
    try resolveSecrets(&credentials)
    return credentials
  }

  /// ``loadFile()`` of the entry of the host `choose` picks from the file's host names (not yet
  /// checked) alone (``CredentialCoding/decode(_:choosingHost:)-(UnsafeBufferPointer<UInt8>,_)``):
  /// for a command that reads one host, which another host's bad entry does not fail (issue 29 §5's
  /// rule).
  package func loadFile(choosingHost choose: ([String]) -> String?) throws(StoreError) -> Credentials {
    try loadFile { bytes throws(CredentialCoding.Failure) in try CredentialCoding.decode(bytes, choosingHost: choose) }
  }

  /// ``loadFile()`` of the entry of `host` alone
  /// (``CredentialCoding/decode(_:host:)-(UnsafeBufferPointer<UInt8>,_)``: no other host's name is
  /// decoded).
  package func loadFile(host: String) throws(StoreError) -> Credentials {
    try loadFile { bytes throws(CredentialCoding.Failure) in try CredentialCoding.decode(bytes, host: host) }
  }

  private func loadFile(
    decoding decode: (UnsafeBufferPointer<UInt8>) throws(CredentialCoding.Failure) -> Credentials
  ) throws(StoreError) -> Credentials {
    guard try checkDirectory() else { return Credentials() }
    try checkKind()
    return try read(decode)
  }

  /// ``load()`` without the keyring: accounts kept there have empty tokens. For checks that
  /// need only the file (is it readable, which accounts, where their tokens are).
  package func loadFile() throws(StoreError) -> Credentials {
    guard try checkDirectory() else { return Credentials() }
    try checkKind()
    return try read()
  }

  /// Checks the directory before a read (R62, R94) and says whether it exists. With nothing
  /// stored yet, its parents are still judged, so `auth` stops before the browser step.
  private func checkDirectory() throws(StoreError) -> Bool {
    let directory = directory
    return try SafeDirectory.checkIfPresent(
      directory, home: paths.home, parentsJudged: parentsJudged == SafeDirectory.absolute(directory))
  }

  /// Refuses a credentials path that holds anything but a regular file (or nothing): a
  /// directory, FIFO, device or socket (`GHLOGIN_CREDENTIALS=/dev/null`), by `lstat`, before
  /// any lock file is created beside it. A symbolic link is refused as before.
  func checkKind() throws(StoreError) {
    let file = paths.credentialsFile
    let info: FileStatus?
    do { info = try FileSystem.linkStatus(file) } catch { throw .io(path: file, operation: "inspect", error) }
    guard let info else { return }
    if info.kind == .symbolicLink { throw .symbolicLink(path: file) }
    guard info.kind == .regular else { throw .notARegularFile(path: file, kind: info.kind.phrase) }
  }

  /// Runs `body` on the current credentials under the exclusive lock and writes the result
  /// atomically when it changed; returns what `body` returns.
  ///
  /// Creates the directory (0700, with missing parents) if needed, checks it (R62), takes the
  /// lock (waiting up to ``lockTimeout``), removes temp files a crashed writer left, re-reads
  /// the file, runs `body`, validates (R30) and writes. A corrupt or newer-version file makes
  /// it throw before `body` runs, so such a file is never overwritten (R67). Errors from
  /// `body` are rethrown as they are, and nothing is written then.
  @discardableResult
  package func update<T>(_ body: (inout Credentials) throws -> T) throws -> T {
    try SafeDirectory.create(directory)
    try SafeDirectory.check(directory, home: paths.home)
    try checkKind()
    let lock = try FileLock.acquire(paths.lockFile, timeout: lockTimeout, clock: clock)
    defer { lock.release() }
    AtomicFile.removeStaleTemporaries(for: paths.credentialsFile)
    var current = try read()
    try resolveSecrets(&current)
    var updated = current
    let result = try body(&updated)
    SecretSync.upgradeItems(of: &updated, from: current)
    if updated != current {
      try CredentialCoding.validate(updated)
      // Keyring items first (read back), then the file, then the items it no longer points
      // to: an interruption anywhere leaves every account readable from one of the two.
      let sync = SecretSync(from: current, to: updated)
      try sync.applyBeforeFile(secrets)
      try AtomicFile.write(CredentialCoding.encode(updated), to: paths.credentialsFile, faults: faults)
      if faults.killAfterFile && sync.hasDeletesAfter { ProcessState.killImmediately() }
      try sync.applyAfterFile(secrets)
    }
    return result
  }

  /// Opens the file with `O_RDONLY|O_NOFOLLOW|O_CLOEXEC`, checks with `fstat` that it is a
  /// regular file owned by `getuid()` with one link (R95), no group or other bits and at most 1 MiB, then
  /// decodes it. A missing file gives empty credentials.
  private func read() throws(StoreError) -> Credentials {
    try read { bytes throws(CredentialCoding.Failure) in try CredentialCoding.decode(bytes) }
  }

  /// ``read()`` with `decode` for the file's bytes (``SecureFile/withRegularFile(_:limit:_:)``:
  /// a large file is mapped, not copied).
  private func read(
    _ decode: (UnsafeBufferPointer<UInt8>) throws(CredentialCoding.Failure) -> Credentials
  ) throws(StoreError) -> Credentials {
    let file = paths.credentialsFile
    return try SecureFile.withRegularFile(file, limit: Self.maximumFileSize) { contents throws(StoreError) in
      let (bytes, status): (UnsafeBufferPointer<UInt8>, FileStatus)
      switch contents {
      case .success(let file): (bytes, status) = file
      case .failure(.missing): return Credentials()
      case .failure(.symbolicLink): throw .symbolicLink(path: file)
      case .failure(.notRegularFile): throw .notRegularFile(path: file)
      case .failure(.tooLarge): throw .tooLarge(path: file)
      case .failure(.system(let systemError)): throw .io(path: file, operation: "read", systemError)
      }
      guard status.owner == ProcessState.userID else { throw .fileNotOwned(path: file) }
      guard status.linkCount <= 1 else { throw .multipleLinks(path: file, count: status.linkCount) }
      guard status.permissions & FileMode.groupOrOtherAny == 0 else {
        throw .permissionsTooOpen(path: file, mode: status.permissions)
      }
      do throws(CredentialCoding.Failure) {
        return try decode(bytes)
      } catch {
        switch error {
        case .invalid(let detail): throw .corrupt(path: file, detail: detail)
        case .newerVersion(let version): throw .newerVersion(path: file, version: version)
        }
      }
    }
  }
}
