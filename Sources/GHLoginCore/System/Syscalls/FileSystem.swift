#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// The file system calls that take a path (those on an open file are ``FileDescriptor``'s).
///
/// Each retries `EINTR` and throws a ``SystemError`` naming the C call and the `errno` it left;
/// callers turn those into messages that name the path.
package enum FileSystem {
  /// `lstat(2)`: the link itself, not its target; nil when nothing is at `path` (`ENOENT`).
  package static func linkStatus(_ path: String) throws(SystemError) -> FileStatus? {
    try status(path, followingLinks: false)
  }

  /// `stat(2)` (following links) or `lstat(2)`; nil when nothing is at `path` (`ENOENT`).
  package static func status(_ path: String, followingLinks: Bool = true) throws(SystemError) -> FileStatus? {
    var info = stat()
    do {
      if followingLinks {
        try retryingEINTR("stat") { stat(path, &info) }
      } else {
        try retryingEINTR("lstat") { lstat(path, &info) }
      }
    } catch  where error.isNoSuchFile {
      return nil
    }
    return FileStatus(info)
  }

  /// `readlink(2)`: what the symbolic link at `path` points to, or nil (not a link, unreadable).
  package static func readLink(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// `rename(2)`: atomically replaces `destination` (a link there is replaced, not followed).
  package static func rename(_ source: String, _ destination: String) throws(SystemError) {
    try retryingEINTR("rename") { Glibc.rename(source, destination) }
  }

  /// `unlink(2)`; failures (a missing file among them) are ignored.
  package static func remove(_ path: String) {
    while Glibc.unlink(path) == -1 && errno == EINTR {}
  }

  /// `mkdir(2)` with the permission bits `mode` (before the umask); `EEXIST` is reported like
  /// any other error.
  package static func makeDirectory(_ path: String, mode: UInt32) throws(SystemError) {
    try retryingEINTR("mkdir") { mkdir(path, mode) }
  }

  /// Opens `directory` (never through a final symlink) and `fsync(2)`s it, so that a rename in
  /// it is durable. `EINVAL` (a file system that cannot sync directories) is ignored.
  static func syncDirectory(_ directory: String) throws(SystemError) {
    let fd = try FileDescriptor.open(directory, .readOnly, [.directory, .noFollow])
    defer { fd.close() }
    do {
      try fd.sync()
    } catch  where error.isInvalidArgument {
      return
    }
  }

  /// The current working directory (`getcwd(3)`), or nil when it cannot be found (removed, or
  /// too long).
  static func currentDirectory() -> String? {
    guard let cwd = getcwd(nil, 0) else { return nil }
    defer { free(cwd) }
    return String(cString: cwd)
  }

  /// Calls `body` with the name of each entry of `directory` (`opendir`/`readdir`, `.` and
  /// `..` included); false when the directory cannot be opened. Read errors end the listing.
  @discardableResult
  static func forEachEntry(in directory: String, _ body: (String) -> Void) -> Bool {
    guard let stream = opendir(directory) else { return false }
    defer { closedir(stream) }
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      body(name)
    }
    return true
  }
}
