/// Permission bits used by the store, named so that no call site carries bare octal.
enum FileMode {
  /// `rw-------`: the credentials file, its temp files and the lock file.
  static let ownerReadWrite: UInt32 = 0o600
  /// `rwx------`: directories the store creates.
  static let ownerOnly: UInt32 = 0o700
  /// Every group and other bit; a credentials file must have none.
  static let groupOrOtherAny: UInt32 = 0o077
  /// The group and other write bits; a directory on the path must have neither.
  static let groupOrOtherWrite: UInt32 = 0o022
  /// The permission bits (without the file type).
  package static let permissions: UInt32 = 0o7777

  /// `mode`'s permission bits as four octal digits, for messages (`0644`).
  package static func octal(_ mode: UInt32) -> String {
    let digits = String(mode & permissions, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

/// Reading a file the way the store and the config loader read theirs: never through a symbolic
/// link, never blocking on a FIFO, only a regular file, only up to a size limit.
package enum SecureFile {
  /// What ``readRegularFile(_:limit:)`` found instead of a readable regular file.
  package enum ReadFailure: Error, Equatable {
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
  package static func readRegularFile(_ path: String, limit: Int) throws(ReadFailure) -> (
    bytes: [UInt8], status: FileStatus
  ) {
    let (fd, status) = try openRegularFile(path, limit: limit)
    defer { fd.close() }
    return (try readAll(fd, status: status, limit: limit), status)
  }

  /// Files of this many bytes or more are mapped by ``withRegularFile(_:limit:_:)``, smaller ones
  /// read. A read copies the file into fresh pages that the kernel zeroes first; for a large
  /// file that costs more than mapping the page cache's own pages, for a small one less.
  static let mappingThreshold = 64 * 1024

  /// Opens and checks `path` as ``readRegularFile(_:limit:)`` does, then calls `body` with its
  /// bytes and `fstat` result, or with what was found instead. A file of ``mappingThreshold``
  /// bytes or more is mapped read-only (`MAP_PRIVATE|MAP_POPULATE`) for as long as `body` runs,
  /// where the mapping can be made; any other file is read. The mapping holds the size `fstat`
  /// gave, and the bytes must not outlive `body`. A file truncated in place while `body` reads it
  /// would end the process with `SIGBUS`; ghlogin never truncates its files, it replaces them by
  /// rename (``AtomicFile``), which leaves a mapped file whole.
  package static func withRegularFile<Value, Failure: Error>(
    _ path: String, limit: Int,
    _ body: (Result<(bytes: UnsafeBufferPointer<UInt8>, status: FileStatus), ReadFailure>) throws(Failure) -> Value
  ) throws(Failure) -> Value {
    let opened: (fd: FileDescriptor, status: FileStatus)
    do throws(ReadFailure) { opened = try openRegularFile(path, limit: limit) } catch {
      return try body(.failure(error))
    }
    let (fd, status) = opened
    defer { fd.close() }
    if status.size >= mappingThreshold, let mapping = fd.mapReadOnly(count: status.size) {
      defer { FileDescriptor.unmap(mapping) }
      return try body(.success((mapping, status)))
    }
    let bytes: [UInt8]
    do throws(ReadFailure) { bytes = try readAll(fd, status: status, limit: limit) } catch {
      return try body(.failure(error))
    }
    return try bytes.withUnsafeBufferPointer { buffer throws(Failure) in try body(.success((buffer, status))) }
  }

  /// `path` opened (`O_RDONLY|O_NOFOLLOW|O_CLOEXEC|O_NONBLOCK`) and its `fstat` result, when it
  /// is a regular file of at most `limit` bytes.
  private static func openRegularFile(_ path: String, limit: Int) throws(ReadFailure) -> (
    fd: FileDescriptor, status: FileStatus
  ) {
    let fd: FileDescriptor
    do {
      fd = try FileDescriptor.open(path, .readOnly, [.noFollow, .nonBlocking])
    } catch {
      if error.isNoSuchFile { throw .missing }
      if error.isSymbolicLinkRefused { throw .symbolicLink }
      throw .system(error)
    }
    // On a throw, `fd` closes as it is released.
    let info: FileStatus
    do { info = try fd.status() } catch { throw .system(error) }
    guard info.kind == .regular else { throw .notRegularFile }
    guard info.size <= limit else { throw .tooLarge }
    return (fd, info)
  }

  /// The whole of the file open at `fd` (of `status`), read; a file that grew past `limit` is
  /// ``ReadFailure/tooLarge``.
  private static func readAll(_ fd: FileDescriptor, status: FileStatus, limit: Int) throws(ReadFailure) -> [UInt8] {
    let bytes: [UInt8]?
    do { bytes = try fd.readAll(limit: limit, expectedSize: status.size) } catch { throw .system(error) }
    guard let bytes else { throw .tooLarge }
    return bytes
  }
}

/// Path helpers that work on the text of a path, without touching the file system. They
/// search the UTF-8 bytes for `/` (a `Character` search breaks the whole path into grapheme
/// clusters, and every command runs these on its paths).
package enum FilePath {
  /// Everything before the last `/`: `"."` when there is none, `"/"` for a file at the root.
  package static func directory(of path: String) -> String {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
    if slash == path.startIndex { return "/" }
    return String(path[..<slash])
  }

  /// Everything after the last `/`.
  package static func name(of path: String) -> String {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
    return String(path[path.utf8.index(after: slash)...])
  }

  /// `directory/name`, without doubling a trailing slash.
  package static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}
