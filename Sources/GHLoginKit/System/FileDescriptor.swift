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
final class FileDescriptor {
  /// The descriptor number, or -1 once closed.
  private(set) var rawValue: Int32

  /// Takes ownership of `rawValue`.
  init(owning rawValue: Int32) { self.rawValue = rawValue }

  deinit { close() }

  var isOpen: Bool { rawValue >= 0 }

  /// Closes the descriptor with `close(2)`, once; errors are ignored (the descriptor is gone either way).
  func close() {
    guard rawValue >= 0 else { return }
    _ = Glibc.close(rawValue)
    rawValue = -1
  }

  /// Gives up ownership without closing: the caller now owns `rawValue` (taken before this call).
  func release() { rawValue = -1 }

  /// Whether `FD_CLOEXEC` is set (`fcntl(F_GETFD)`).
  var isCloseOnExec: Bool { Self.isCloseOnExec(rawValue) }

  /// Whether `FD_CLOEXEC` is set on `fd` (`fcntl(F_GETFD)`); false for a closed descriptor.
  static func isCloseOnExec(_ fd: Int32) -> Bool {
    let flags = fcntl(fd, F_GETFD)
    return flags >= 0 && flags & FD_CLOEXEC != 0
  }

  /// Sets `O_NONBLOCK` with `fcntl(F_GETFL/F_SETFL)`, retrying `EINTR`.
  func setNonBlocking() throws(SystemError) {
    let fd = rawValue
    let flags = try retryingEINTR("fcntl") { fcntl(fd, F_GETFL) }
    try retryingEINTR("fcntl") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
  }

  /// The outcome of one non-blocking read or write.
  enum Progress: Equatable {
    /// This many bytes moved (never 0).
    case bytes(Int)
    /// Nothing now (`EAGAIN`/`EWOULDBLOCK`): wait with poll.
    case wouldBlock
    /// End of file.
    case endOfFile
  }

  /// Reads up to `count` bytes with `read(2)`, appending them to `buffer`; `EINTR` retried.
  func read(appendingTo buffer: inout [UInt8], count: Int) throws(SystemError) -> Progress {
    try Self.read(rawValue, appendingTo: &buffer, count: count)
  }

  /// `read(2)` on a descriptor this object does not own (for example standard input); `EINTR` retried.
  static func read(_ fd: Int32, appendingTo buffer: inout [UInt8], count: Int) throws(SystemError) -> Progress {
    var chunk = [UInt8](repeating: 0, count: count)
    let result = chunk.withUnsafeMutableBytes { raw in
      nonBlocking("read") { Glibc.read(fd, raw.baseAddress, raw.count) }
    }
    let progress = try result.get()
    if case .bytes(let read) = progress { buffer.append(contentsOf: chunk[..<read]) }
    return progress
  }

  /// Writes some of `bytes` with `write(2)` (for pipes; sockets use `send` with `MSG_NOSIGNAL`); `EINTR` retried.
  func write(_ bytes: ArraySlice<UInt8>) throws(SystemError) -> Progress {
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

  /// A connected pair from `socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK)`.
  ///
  /// Used as a self-pipe: both ends are close-on-exec and non-blocking from
  /// birth (Glibc's Swift module hides `pipe2`, a socket pair needs no extension).
  static func pipe() throws(SystemError) -> (read: FileDescriptor, write: FileDescriptor) {
    var ends: [Int32] = [-1, -1]
    let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
    try retryingEINTR("socketpair") { socketpair(AF_UNIX, type, 0, &ends) }
    return (FileDescriptor(owning: ends[0]), FileDescriptor(owning: ends[1]))
  }
}
