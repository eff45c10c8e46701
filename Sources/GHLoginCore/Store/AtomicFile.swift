/// Replacing a file atomically and durably (R63, R64).
package enum AtomicFile {
  /// The start of the temp files' names for `path`: `.NAME.tmp-` in the same directory.
  static func temporaryPrefix(for path: String) -> String { "." + FilePath.name(of: path) + ".tmp-" }

  /// Writes `bytes` to a new temp file next to `path`, then renames it over `path`: `open` with
  /// `O_CREAT|O_EXCL|O_NOFOLLOW` and 0600 under a random name, `fchmod(0600)` (never the umask's
  /// mode), write, `fsync`, `rename` (a link at `path` is replaced, never followed), then `fsync`
  /// of the directory.
  ///
  /// A failure before the rename unlinks the temp file and leaves `path` untouched
  /// (``StoreError/notWritten(path:operation:_:)``). A failed directory `fsync` is reported but
  /// not undone: undoing it could resurrect a refresh token that is no longer valid.
  package static func write(_ bytes: [UInt8], to path: String, faults: StoreFaults) throws(StoreError) {
    let directory = FilePath.directory(of: path)
    let prefix = FilePath.join(directory, temporaryPrefix(for: path))
    do { try faults.check(.open, call: "open") } catch {
      throw .notWritten(path: path, operation: "create a temp file next to", error)
    }
    let (fd, temporary) = try createTemporary(prefix: prefix, for: path)

    var renamed = false
    defer {
      fd.close()
      if !renamed { FileSystem.remove(temporary) }
    }
    do throws(SystemError) {
      try fd.changeMode(FileMode.ownerReadWrite)
      if faults.failAt == .write { try fd.writeAll(Array(bytes.prefix(bytes.count / 2))) }
      try faults.check(.write, call: "write")
      try fd.writeAll(bytes)
      try faults.check(.fsync, call: "fsync")
      try fd.sync()
      try fd.closeReportingErrors()
      if faults.killBeforeRename { ProcessState.killImmediately() }
      try faults.check(.rename, call: "rename")
      try FileSystem.rename(temporary, path)
      renamed = true
    } catch {
      throw .notWritten(path: path, operation: "write", error)
    }
    do {
      try faults.check(.directoryFsync, call: "fsync")
      try FileSystem.syncDirectory(directory)
    } catch {
      throw .io(path: directory, operation: "flush the directory", error)
    }
  }

  /// Removes temp files a crashed writer left next to `path`. Call only while holding the lock,
  /// so no live writer's temp file can be among them. Failures are ignored.
  /// Lists the directory first (`opendir`/`readdir`), then checks each match with `lstat` so
  /// that only regular files are removed.
  static func removeStaleTemporaries(for path: String) {
    let directory = FilePath.directory(of: path)
    let prefix = temporaryPrefix(for: path)
    var stale: [String] = []
    FileSystem.forEachEntry(in: directory) { name in
      if name.hasPrefix(prefix) { stale.append(FilePath.join(directory, name)) }
    }
    for file in stale {
      if let info = try? FileSystem.linkStatus(file), info.kind == .regular { FileSystem.remove(file) }
    }
  }

  /// Creates `prefix` + 16 random hex digits with `O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC`
  /// and mode 0600, trying another name on `EEXIST` (16 tries in all); returns it open, and its path.
  private static func createTemporary(
    prefix: String, for path: String
  ) throws(StoreError) -> (FileDescriptor, String) {
    var attempt = 1
    while true {
      let temporary = prefix + randomSuffix()
      do {
        let fd = try FileDescriptor.open(
          temporary, .writeOnly, [.create, .exclusive, .noFollow], mode: FileMode.ownerReadWrite)
        return (fd, temporary)
      } catch  where error.isAlreadyExisting && attempt < 16 {
        attempt += 1
      } catch {
        throw .notWritten(path: path, operation: "create a temp file next to", error)
      }
    }
  }

  /// 16 lowercase hex digits from `SystemRandomNumberGenerator` (`getrandom(2)` on Linux).
  private static func randomSuffix() -> String {
    let digits = String(UInt64.random(in: .min ... .max), radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
