#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// An open file descriptor owned by exactly one object and closed exactly once.
///
/// `close()` (or `deinit`) calls `close(2)` once and never retries it: after
/// `EINTR` the descriptor is already released, and retrying could close a
/// descriptor another thread has just been given. Every descriptor the kit
/// creates is close-on-exec from birth (`SOCK_CLOEXEC`, `O_CLOEXEC`,
/// `pipe2(O_CLOEXEC)`), so none leaks into the browser launcher (R6).
package final class FileDescriptor {
  /// The descriptor number, or -1 once closed.
  package private(set) var rawValue: Int32

  /// Takes ownership of `rawValue`.
  package init(owning rawValue: Int32) { self.rawValue = rawValue }

  deinit { close() }

  var isOpen: Bool { rawValue >= 0 }

  /// Closes the descriptor with `close(2)`, once; errors are ignored (the descriptor is gone either way).
  package func close() {
    guard rawValue >= 0 else { return }
    _ = Glibc.close(rawValue)
    rawValue = -1
  }

  /// Gives up ownership without closing: the caller now owns `rawValue` (taken before this call).
  package func release() { rawValue = -1 }

  /// Closes the descriptor with `close(2)`, once, like ``close()``, but reports a failure other
  /// than `EINTR` (a write the kernel could not finish, on some file systems, shows up only
  /// here). The descriptor is released either way; `EINTR` is not retried.
  func closeReportingErrors() throws(SystemError) {
    guard rawValue >= 0 else { return }
    let fd = rawValue
    rawValue = -1
    if Glibc.close(fd) != 0 {
      let code = errno
      if code != EINTR { throw SystemError(call: "close", errno: code) }
    }
  }

  /// Whether `FD_CLOEXEC` is set (`fcntl(F_GETFD)`).
  var isCloseOnExec: Bool { Self.isCloseOnExec(rawValue) }

  /// Whether `FD_CLOEXEC` is set on `fd` (`fcntl(F_GETFD)`); false for a closed descriptor.
  static func isCloseOnExec(_ fd: Int32) -> Bool {
    let flags = fcntl(fd, F_GETFD)
    return flags >= 0 && flags & FD_CLOEXEC != 0
  }

  /// The outcome of one non-blocking read or write.
  package enum Progress: Equatable {
    /// This many bytes moved (never 0).
    case bytes(Int)
    /// Nothing now (`EAGAIN`/`EWOULDBLOCK`): wait with poll.
    case wouldBlock
    /// End of file.
    case endOfFile
  }

  /// Reads up to `count` bytes with `read(2)`, appending them to `buffer`; `EINTR` retried.
  package func read(appendingTo buffer: inout [UInt8], count: Int) throws(SystemError) -> Progress {
    try Self.read(rawValue, appendingTo: &buffer, count: count)
  }

  /// `read(2)` on a descriptor this object does not own (for example standard input); `EINTR` retried.
  package static func read(_ fd: Int32, appendingTo buffer: inout [UInt8], count: Int) throws(SystemError) -> Progress {
    var chunk = [UInt8](repeating: 0, count: count)
    let result = chunk.withUnsafeMutableBytes { raw in
      nonBlocking("read") { Glibc.read(fd, raw.baseAddress, raw.count) }
    }
    let progress = try result.get()
    if case .bytes(let read) = progress { buffer.append(contentsOf: chunk[..<read]) }
    return progress
  }

  /// Writes some of `bytes` with `write(2)` (for pipes; sockets use `send` with `MSG_NOSIGNAL`); `EINTR` retried.
  package func write(_ bytes: ArraySlice<UInt8>) throws(SystemError) -> Progress {
    let fd = rawValue
    return try bytes.withUnsafeBytes { raw in
      Self.nonBlocking("write") { Glibc.write(fd, raw.baseAddress, raw.count) }
    }.get()
  }

  /// Runs a read- or write-like call: `EINTR` retried, `EAGAIN` → `.wouldBlock`, 0 → `.endOfFile`.
  static func nonBlocking(_ call: String, _ body: () -> Int) -> Result<Progress, SystemError> {
    while true {
      let result = body()
      if result > 0 { return .success(.bytes(result)) }
      if result == 0 { return .success(.endOfFile) }
      let code = errno
      if code == EINTR { continue }
      if code == EAGAIN || code == EWOULDBLOCK { return .success(.wouldBlock) }
      return .failure(SystemError(call: call, errno: code))
    }
  }

  /// How ``open(_:_:_:mode:)`` opens a file: `O_RDONLY`, `O_WRONLY` or `O_RDWR`.
  package enum Access {
    case readOnly
    case writeOnly
    case readWrite

    package var flags: Int32 {
      switch self {
      case .readOnly: O_RDONLY
      case .writeOnly: O_WRONLY
      case .readWrite: O_RDWR
      }
    }
  }

  /// The `open(2)` flags besides the access mode (`O_CLOEXEC` is always added).
  package struct OpenOptions: OptionSet, Sendable {
    package let rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// `O_CREAT`: create the file (with the given mode) when it is missing.
    package static let create = OpenOptions(rawValue: O_CREAT)
    /// `O_EXCL`: with ``create``, fail with `EEXIST` when something is already there.
    static let exclusive = OpenOptions(rawValue: O_EXCL)
    /// `O_NOFOLLOW`: fail with `ELOOP` when the last component is a symbolic link.
    static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
    /// `O_DIRECTORY`: fail unless the path is a directory.
    package static let directory = OpenOptions(rawValue: O_DIRECTORY)
    /// `O_NONBLOCK`: opening (and reading) a FIFO never blocks.
    static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
  }

  /// Opens `path` with `open(2)`, always close-on-exec (`O_CLOEXEC`); `mode` is the permission
  /// bits a ``OpenOptions/create`` gives a new file (before the umask). `EINTR` retried.
  package static func open(
    _ path: String, _ access: Access, _ options: OpenOptions = [], mode: UInt32 = 0
  ) throws(SystemError) -> FileDescriptor {
    let flags = access.flags | options.rawValue | O_CLOEXEC
    return FileDescriptor(owning: try retryingEINTR("open") { Glibc.open(path, flags, mode) })
  }

  /// The descriptor's type, permissions, owner, links and size, from `fstat(2)`.
  package func status() throws(SystemError) -> FileStatus {
    let fd = rawValue
    var info = stat()
    try retryingEINTR("fstat") { fstat(fd, &info) }
    return FileStatus(info)
  }

  /// Sets the permission bits with `fchmod(2)` (exactly, whatever the umask).
  func changeMode(_ permissions: UInt32) throws(SystemError) {
    let fd = rawValue
    try retryingEINTR("fchmod") { fchmod(fd, permissions) }
  }

  /// Flushes the file's data and metadata to the device with `fsync(2)`.
  func sync() throws(SystemError) {
    let fd = rawValue
    try retryingEINTR("fsync") { fsync(fd) }
  }

  /// Tries once to take an exclusive `flock(2)` without waiting (`LOCK_EX|LOCK_NB`), retrying
  /// `EINTR`: true when taken, false when another open file description holds it
  /// (`EWOULDBLOCK`). The lock lasts until the descriptor is closed.
  func tryLockExclusive() throws(SystemError) -> Bool {
    while true {
      if flock(rawValue, LOCK_EX | LOCK_NB) == 0 { return true }
      let code = errno
      switch code {
      case EINTR: continue
      case EWOULDBLOCK: return false
      default: throw SystemError(call: "flock", errno: code)
      }
    }
  }

  /// Reads until end of file; nil when there are more than `limit` bytes (`read(2)`, retried on
  /// `EINTR`, `errno` captured inside the buffer closure).
  ///
  /// `expectedSize` (the `fstat` size) sizes the read buffer: one byte more than the file, so
  /// a file that did not grow is read with two `read` calls, and no 64 KiB buffer is zeroed
  /// (its page faults are a visible part of `ghlogin token`). A file that grows is still read
  /// to the end.
  package func readAll(limit: Int, expectedSize: Int = 65_535) throws(SystemError) -> [UInt8]? {
    let fd = rawValue
    // The expected size and one byte more, read straight into the array (no zeroed chunk,
    // no copy): a file that did not grow ends there.
    let capacity = min(max(expectedSize, 0), limit) + 1
    var failure: SystemError?
    var ended = false
    var bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
      while initialized < capacity, let base = buffer.baseAddress {
        let count = Glibc.read(fd, base + initialized, capacity - initialized)
        if count < 0 {
          let code = errno
          if code == EINTR { continue }
          failure = SystemError(call: "read", errno: code)
          return
        }
        if count == 0 {
          ended = true
          return
        }
        initialized += count
      }
    }
    if let failure { throw failure }
    if ended { return bytes.count > limit ? nil : bytes }
    if bytes.count > limit { return nil }
    // The file grew: the rest in chunks.
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

  /// The first `count` bytes of the file, mapped read-only and private with their pages mapped
  /// at once (`MAP_POPULATE`); nil when `mmap` refuses (for example on a file system that cannot
  /// map). The mapping outlives the descriptor; ``unmap(_:)`` ends it.
  package func mapReadOnly(count: Int) -> UnsafeBufferPointer<UInt8>? {
    guard count > 0, let start = mmap(nil, count, PROT_READ, MAP_PRIVATE | MAP_POPULATE, rawValue, 0),
      start != UnsafeMutableRawPointer(bitPattern: -1)  // MAP_FAILED
    else { return nil }
    return UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: count)
  }

  /// Ends a mapping made by ``mapReadOnly(count:)``.
  package static func unmap(_ mapping: UnsafeBufferPointer<UInt8>) {
    guard let start = mapping.baseAddress else { return }
    _ = munmap(UnsafeMutableRawPointer(mutating: start), mapping.count)
  }

  /// Writes all of `bytes`, looping over short writes (`write(2)`, retried on `EINTR`).
  package func writeAll(_ bytes: [UInt8]) throws(SystemError) {
    let fd = rawValue
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

  /// A connected pair from `socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK)`.
  ///
  /// Used as a self-pipe: both ends are close-on-exec and non-blocking from
  /// birth (Glibc's Swift module hides `pipe2`, a socket pair needs no extension).
  package static func pipe() throws(SystemError) -> (read: FileDescriptor, write: FileDescriptor) {
    var ends: [Int32] = [-1, -1]
    let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
    try retryingEINTR("socketpair") { socketpair(AF_UNIX, type, 0, &ends) }
    return (FileDescriptor(owning: ends[0]), FileDescriptor(owning: ends[1]))
  }
}
