#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Permission bits used by the store, named so that no call site carries bare octal.
enum FileMode {
  /// `rw-------`: the credentials file, its temp files and the lock file.
  static let ownerReadWrite: mode_t = 0o600
  /// `rwx------`: directories the store creates.
  static let ownerOnly: mode_t = 0o700
  /// Every group and other bit; a credentials file must have none.
  static let groupOrOtherAny: mode_t = 0o077
  /// The group and other write bits; a directory on the path must have neither.
  static let groupOrOtherWrite: mode_t = 0o022
  /// The permission bits (without the file type).
  static let permissions: mode_t = 0o7777

  /// Whether `mode` (from `stat`) is a regular file.
  static func isRegular(_ mode: mode_t) -> Bool { mode & S_IFMT == S_IFREG }
  /// Whether `mode` (from `stat`) is a directory.
  static func isDirectory(_ mode: mode_t) -> Bool { mode & S_IFMT == S_IFDIR }
  /// Whether `mode` (from `lstat`) is a symbolic link.
  static func isSymbolicLink(_ mode: mode_t) -> Bool { mode & S_IFMT == S_IFLNK }

  /// `mode`'s permission bits as four octal digits, for messages (`0644`).
  static func octal(_ mode: mode_t) -> String {
    let digits = String(mode & permissions, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

/// Thin wrappers over the file system calls the store and the config loader make.
///
/// Each retries `EINTR` (except `close`, see ``close(_:)``) and throws a ``SystemError`` naming
/// the C call and the `errno` it left; callers turn those into messages that name the path.
enum SecureFile {
  /// `open(2)`; the flags must include `O_CLOEXEC`.
  static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(SystemError) -> Int32 {
    try retryingEINTR("open") { Glibc.open(path, flags | O_CLOEXEC, mode) }
  }

  /// `close(2)`, never retried: after `EINTR` the descriptor is already released.
  static func close(_ fd: Int32) { _ = Glibc.close(fd) }

  /// `fstat(2)`.
  static func status(of fd: Int32) throws(SystemError) -> stat {
    var info = stat()
    try retryingEINTR("fstat") { fstat(fd, &info) }
    return info
  }

  /// `lstat(2)`: the link itself, not its target; nil when nothing is at `path` (`ENOENT`).
  static func linkStatus(_ path: String) throws(SystemError) -> stat? {
    var info = stat()
    do {
      try retryingEINTR("lstat") { lstat(path, &info) }
    } catch  where error.errno == ENOENT {
      return nil
    }
    return info
  }

  /// `stat(2)`, following links; nil when nothing is at `path` (`ENOENT`).
  static func followedStatus(_ path: String) throws(SystemError) -> stat? {
    var info = stat()
    do {
      try retryingEINTR("stat") { stat(path, &info) }
    } catch  where error.errno == ENOENT {
      return nil
    }
    return info
  }

  /// Reads from `fd` until end of file; nil when there are more than `limit` bytes (`read(2)`,
  /// retried on `EINTR`, `errno` captured inside the buffer closure).
  ///
  /// `expectedSize` (the `fstat` size) sizes the read buffer: one byte more than the file, so
  /// a file that did not grow is read with two `read` calls, and no 64 KiB buffer is zeroed
  /// (16 page faults, a measurable part of `ghlogin token`). A file that grows is still read
  /// to the end.
  static func readAll(_ fd: Int32, limit: Int, expectedSize: Int = 65_535) throws(SystemError) -> [UInt8]? {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: min(max(expectedSize, 0), limit, 65_535) + 1)
    while true {
      let (count, code) = chunk.withUnsafeMutableBytes { buffer in
        (Glibc.read(fd, buffer.baseAddress, buffer.count), errno)
      }
      if count < 0 {
        if code == EINTR { continue }
        throw SystemError(call: "read", errno: code)
      }
      if count == 0 { return bytes }
      bytes += chunk[..<count]
      if bytes.count > limit { return nil }
    }
  }

  /// Writes all of `bytes` to `fd`, looping over short writes (`write(2)`).
  static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(SystemError) {
    var offset = 0
    while offset < bytes.count {
      let (written, code) = bytes.withUnsafeBytes { buffer in
        (Glibc.write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset), errno)
      }
      if written < 0 {
        if code == EINTR { continue }
        throw SystemError(call: "write", errno: code)
      }
      offset += written
    }
  }

  /// `fsync(2)`.
  static func sync(_ fd: Int32) throws(SystemError) {
    try retryingEINTR("fsync") { fsync(fd) }
  }

  /// `fchmod(2)`.
  static func changeMode(_ fd: Int32, _ mode: mode_t) throws(SystemError) {
    try retryingEINTR("fchmod") { fchmod(fd, mode) }
  }

  /// `rename(2)`: atomically replaces `destination` (a link there is replaced, not followed).
  static func rename(_ source: String, _ destination: String) throws(SystemError) {
    try retryingEINTR("rename") { Glibc.rename(source, destination) }
  }

  /// `unlink(2)`; a missing file is not an error.
  static func remove(_ path: String) {
    while Glibc.unlink(path) == -1 && errno == EINTR {}
  }

  /// `mkdir(2)`; `EEXIST` is reported like any other error.
  static func makeDirectory(_ path: String, mode: mode_t) throws(SystemError) {
    try retryingEINTR("mkdir") { mkdir(path, mode) }
  }

  /// Opens `directory` (never through a final symlink) and `fsync(2)`s it, so that a rename in
  /// it is durable. `EINVAL` (a file system that cannot sync directories) is ignored.
  static func syncDirectory(_ directory: String) throws(SystemError) {
    let fd = try open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
    defer { close(fd) }
    do {
      try sync(fd)
    } catch  where error.errno == EINVAL {
      return
    }
  }

  /// What ``readRegularFile(_:limit:)`` found instead of a readable regular file.
  enum ReadFailure: Error, Equatable {
    /// Nothing is at the path (`ENOENT`).
    case missing
    /// The path is a symbolic link (`ELOOP` from `O_NOFOLLOW`).
    case symbolicLink
    /// The path is a directory, FIFO, device or socket.
    case notRegularFile
    /// The file has more than the limit of bytes.
    case tooLarge
    /// Another failed call.
    case system(SystemError)
  }

  /// Opens `path` with `O_RDONLY|O_NOFOLLOW|O_CLOEXEC|O_NONBLOCK` (so a FIFO cannot block),
  /// checks with `fstat` that it is a regular file of at most `limit` bytes, and reads it.
  /// Returns the bytes and the `fstat` result, for callers that check owner and mode.
  static func readRegularFile(_ path: String, limit: Int) throws(ReadFailure) -> (bytes: [UInt8], status: stat) {
    let fd: Int32
    do {
      fd = try open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
    } catch {
      switch error.errno {
      case ENOENT: throw .missing
      case ELOOP: throw .symbolicLink
      default: throw .system(error)
      }
    }
    defer { close(fd) }
    let info: stat
    do { info = try status(of: fd) } catch { throw .system(error) }
    guard FileMode.isRegular(info.st_mode) else { throw .notRegularFile }
    guard info.st_size <= limit else { throw .tooLarge }
    let bytes: [UInt8]?
    do { bytes = try readAll(fd, limit: limit, expectedSize: Int(info.st_size)) } catch { throw .system(error) }
    guard let bytes else { throw .tooLarge }
    return (bytes, info)
  }
}

/// Path helpers that work on the text of a path, without touching the file system.
enum FilePath {
  /// Everything before the last `/`: `"."` when there is none, `"/"` for a file at the root.
  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    if slash == path.startIndex { return "/" }
    return String(path[..<slash])
  }

  /// Everything after the last `/`.
  static func name(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }

  /// `directory/name`, without doubling a trailing slash.
  static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}
