#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Replacing a file atomically and durably (R63, R64).
enum AtomicFile {
  /// The start of the temp files' names for `path`: `.NAME.tmp-` in the same directory.
  static func temporaryPrefix(for path: String) -> String { "." + FilePath.name(of: path) + ".tmp-" }

  /// Writes `bytes` to a new temp file next to `path`, then renames it over `path`:
  ///
  /// 1. `open(tmp, O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC, 0600)`, the name ending in 64
  ///    random bits from the system CSPRNG (retried on `EEXIST`);
  /// 2. `fchmod(0600)` (the mode never depends on the umask), write everything, `fsync`, `close`;
  /// 3. `rename(tmp, path)`: a link at `path` is replaced, never followed, and a looser old
  ///    inode is never reused;
  /// 4. `fsync` of the directory.
  ///
  /// On any failure before the rename the temp file is unlinked, `path` is untouched, and the
  /// error (``StoreError/notWritten(path:operation:_:)``) says so. A
  /// failure of the directory `fsync` is reported, but the new file is already complete in
  /// place (undoing it could resurrect a refresh token that is no longer valid).
  static func write(_ bytes: [UInt8], to path: String, faults: StoreFaults) throws(StoreError) {
    let directory = FilePath.directory(of: path)
    let prefix = FilePath.join(directory, temporaryPrefix(for: path))
    do { try faults.check(.open, call: "open") } catch {
      throw .notWritten(path: path, operation: "create a temp file next to", error)
    }
    var temporary = ""
    var fd: Int32 = -1
    for attempt in 1...16 {
      temporary = prefix + randomSuffix()
      do {
        fd = try SecureFile.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: FileMode.ownerReadWrite)
        break
      } catch  where error.errno == EEXIST && attempt < 16 {
        continue
      } catch {
        throw .notWritten(path: path, operation: "create a temp file next to", error)
      }
    }

    var isOpen = true
    var renamed = false
    defer {
      if isOpen { SecureFile.close(fd) }
      if !renamed { SecureFile.remove(temporary) }
    }
    do throws(SystemError) {
      try SecureFile.changeMode(fd, FileMode.ownerReadWrite)
      if faults.failAt == .write { try SecureFile.writeAll(fd, Array(bytes.prefix(bytes.count / 2))) }
      try faults.check(.write, call: "write")
      try SecureFile.writeAll(fd, bytes)
      try faults.check(.fsync, call: "fsync")
      try SecureFile.sync(fd)
      isOpen = false
      if Glibc.close(fd) != 0 && errno != EINTR { throw SystemError(call: "close", errno: errno) }
      if faults.killBeforeRename { kill(getpid(), SIGKILL) }
      try faults.check(.rename, call: "rename")
      try SecureFile.rename(temporary, path)
      renamed = true
    } catch {
      throw .notWritten(path: path, operation: "write", error)
    }
    do {
      try faults.check(.directoryFsync, call: "fsync")
      try SecureFile.syncDirectory(directory)
    } catch {
      throw .io(path: directory, operation: "flush the directory", error)
    }
  }

  /// Removes temp files a crashed writer left next to `path`. Call only while holding the lock,
  /// so no live writer's temp file can be among them. Failures are ignored.
  /// Uses `opendir`/`readdir`, and `lstat` so that only regular files are removed.
  static func removeStaleTemporaries(for path: String) {
    let directory = FilePath.directory(of: path)
    let prefix = temporaryPrefix(for: path)
    guard let stream = opendir(directory) else { return }
    defer { closedir(stream) }
    var stale: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name.hasPrefix(prefix) { stale.append(FilePath.join(directory, name)) }
    }
    for file in stale {
      if let info = try? SecureFile.linkStatus(file), FileMode.isRegular(info.st_mode) { SecureFile.remove(file) }
    }
  }

  /// 16 lowercase hex digits from `SystemRandomNumberGenerator` (`getrandom(2)` on Linux).
  private static func randomSuffix() -> String {
    let digits = String(UInt64.random(in: .min ... .max), radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
