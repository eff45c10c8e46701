#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Unix stream sockets for the ghlogin agent (issue 35): listen on a path, connect to one with a
/// deadline, and who the peer is (`SO_PEERCRED`, its namespaces).
package enum UnixSocket {
  /// The longest path `sockaddr_un` holds (108 bytes with its NUL).
  package static let maximumPathLength = 107

  /// `ENOENT`, `ECONNREFUSED`: nothing listens at the path (a stale socket, or none).
  package static func isUnreachable(_ error: SystemError) -> Bool {
    [ENOENT, ECONNREFUSED, ENOTSOCK, ENOTDIR, EACCES].contains(error.errno)
  }

  /// `EADDRINUSE`: something already exists at the path.
  package static func isInUse(_ error: SystemError) -> Bool { error.errno == EADDRINUSE }

  private static func address(_ path: String) throws(SystemError) -> (sockaddr_un, socklen_t) {
    let bytes = Array(path.utf8)
    guard !bytes.isEmpty, bytes.count <= maximumPathLength else {
      throw SystemError(call: "bind", errno: ENAMETOOLONG)
    }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in bytes.enumerated() { raw[index] = byte }
    }
    let length = MemoryLayout<sa_family_t>.size + bytes.count + 1
    return (address, socklen_t(length))
  }

  private static func stream() throws(SystemError) -> Socket {
    let fd = try retryingEINTR("socket") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Socket.socketFlags, 0) }
    return Socket(owning: FileDescriptor(owning: fd))
  }

  /// A non-blocking socket bound to `path` and listening. The socket file gets the mode the
  /// umask leaves; the directory around it is the fence.
  package static func listen(at path: String, backlog: Int32 = 64) throws(SystemError) -> Socket {
    let socket = try stream()
    var (address, length) = try address(path)
    let fd = socket.fd
    do {
      try retryingEINTR("bind") {
        withUnsafePointer(to: &address) { pointer in
          pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
      }
      try retryingEINTR("listen") { Glibc.listen(fd, backlog) }
    } catch {
      socket.close()
      throw error
    }
    return socket
  }

  /// Connects to the socket at `path` before `deadline`. A path with nothing listening fails at
  /// once (`ENOENT`, `ECONNREFUSED`: ``isUnreachable(_:)``).
  package static func connect(
    to path: String, deadline: Double, clock: any TimeSource
  ) throws(SystemError) -> Socket {
    let socket = try stream()
    var (address, length) = try address(path)
    let result = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket.fd, $0, length) }
    }
    if result == 0 { return socket }
    let code = errno
    guard code == EINPROGRESS || code == EINTR || code == EAGAIN else {
      socket.close()
      throw SystemError(call: "connect", errno: code)
    }
    guard try Poll.wait(for: Poll.writable, on: socket.fd, deadline: deadline, clock: clock) else {
      socket.close()
      throw SystemError(call: "connect", errno: ETIMEDOUT)
    }
    let pending = try socket.pendingError()
    guard pending == 0 else {
      socket.close()
      throw SystemError(call: "connect", errno: pending)
    }
    return socket
  }

  /// The peer of a connected Unix socket, from `SO_PEERCRED`.
  package struct Peer: Sendable, Equatable {
    package var pid: Int32
    package var uid: UInt32
  }

  /// `getsockopt(SOL_SOCKET, SO_PEERCRED)`: the peer's pid and uid as the kernel recorded them
  /// at `connect`.
  package static func peer(of socket: Socket) throws(SystemError) -> Peer {
    // `struct ucred` (pid, uid, gid), which Glibc's module hides without _GNU_SOURCE.
    var credentials: [UInt32] = [0, 0, 0]
    var length = socklen_t(12)
    let fd = socket.fd
    try retryingEINTR("getsockopt") { getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) }
    return Peer(pid: Int32(bitPattern: credentials[0]), uid: credentials[1])
  }

  /// The namespace link of `kind` (`mnt`, `user`) of process `pid` (nil: this process), as
  /// `/proc/PID/ns/KIND` reads (`mnt:[4026531841]`); nil when it cannot be read (another user's
  /// process, one that ended).
  package static func namespace(_ kind: String, of pid: Int32?) -> String? {
    FileSystem.readLink("/proc/\(pid.map(String.init) ?? "self")/ns/\(kind)")
  }

  /// Reads from `socket` until `isComplete` holds for what was read, `limit` bytes were read,
  /// the peer closed its side, or `deadline` passed (nil). The bytes read so far otherwise.
  package static func read(
    _ socket: Socket, limit: Int, deadline: Double, clock: any TimeSource, until isComplete: ([UInt8]) -> Bool
  ) throws(SystemError) -> [UInt8]? {
    var buffer: [UInt8] = []
    while try !readAvailable(socket, into: &buffer, limit: limit, until: { bytes, _ in isComplete(bytes) }) {
      guard try Poll.wait(for: Poll.readable, on: socket.fd, deadline: deadline, clock: clock) else { return nil }
    }
    return buffer
  }

  /// Reads what `socket` has now into `buffer`, without waiting; true once `isComplete` holds
  /// for `buffer`, more than `limit` bytes were read, or the peer closed its side; false while
  /// more is to come. `buffer` holds what earlier calls read; `isComplete` also gets how many of
  /// its bytes it has seen before (so that a peer sending byte by byte costs no rescans).
  package static func readAvailable(
    _ socket: Socket, into buffer: inout [UInt8], limit: Int, until isComplete: ([UInt8], Int) -> Bool
  ) throws(SystemError) -> Bool {
    var seen = buffer.count
    while !isComplete(buffer, seen) && buffer.count <= limit {
      seen = buffer.count
      switch try socket.receive(appendingTo: &buffer, count: min(16_384, limit + 1 - buffer.count)) {
      case .bytes: continue
      case .endOfFile: return true
      case .wouldBlock: return false
      }
    }
    return true
  }

  /// Writes all of `bytes` before `deadline`; false when it passed first.
  package static func write(
    _ bytes: [UInt8], to socket: Socket, deadline: Double, clock: any TimeSource
  ) throws(SystemError) -> Bool {
    var offset = 0
    while offset < bytes.count {
      switch try socket.send(bytes[offset...]) {
      case .bytes(let count): offset += count
      case .endOfFile: return false
      case .wouldBlock:
        guard try Poll.wait(for: Poll.writable, on: socket.fd, deadline: deadline, clock: clock) else { return false }
      }
    }
    return true
  }
}

/// Processes the agent starts and stops: `posix_spawn` into a new session, and signals.
package enum SessionProcess {
  /// This process's id.
  package static var currentID: Int32 { getpid() }

  /// Starts `executable` with `arguments` and exactly `environment` in a new session (setsid,
  /// by `posix_spawn`, never `fork`), standard input and output `/dev/null` except that `ready`
  /// becomes its standard output, standard error `stderr` (nil: `/dev/null`). Returns its pid.
  package static func spawn(
    _ executable: String, _ arguments: [String], environment: [String: String], ready: FileDescriptor,
    stderr: Int32?
  ) throws(SystemError) -> Int32 {
    try Spawn.start(executable, argv: [executable] + arguments, environment: environment, newSession: true) {
      actions in
      posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_adddup2(&actions, ready.rawValue, STDOUT_FILENO)
      if let stderr {
        posix_spawn_file_actions_adddup2(&actions, stderr, STDERR_FILENO)
      } else {
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
      }
    }
  }

  /// Reaps `pid` if it has ended (`waitpid(WNOHANG)`); whether it had.
  @discardableResult
  package static func reapIfEnded(_ pid: Int32) -> Bool {
    var status: Int32 = 0
    return waitpid(pid, &status, WNOHANG) == pid
  }

  /// Sends SIGTERM to `pid`; whether it was sent.
  @discardableResult
  package static func terminate(_ pid: Int32) -> Bool { kill(pid, SIGTERM) == 0 }

  /// Whether a process `pid` exists (signal 0).
  package static func exists(_ pid: Int32) -> Bool { kill(pid, 0) == 0 || errno == EPERM }

  /// SIGPIPE ignored: a client that went away gives `EPIPE`, not the end of the agent.
  package static func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }
}

extension FileDescriptor.OpenOptions {
  /// `O_APPEND`: every write goes to the end (the agent's log file).
  package static let append = FileDescriptor.OpenOptions(rawValue: O_APPEND)
}

extension FileSystem {
  /// The bytes of a small file such as `/proc/PID/stat` (nil when it cannot be read or has more
  /// than `limit` bytes).
  package static func readSmallFile(_ path: String, limit: Int) -> [UInt8]? {
    guard let fd = try? FileDescriptor.open(path, .readOnly) else { return nil }
    defer { fd.close() }
    return (try? fd.readAll(limit: limit, expectedSize: 512)) ?? nil
  }

  /// `chmod(2)`; whether it worked.
  @discardableResult
  package static func setMode(_ path: String, _ mode: UInt32) -> Bool { chmod(path, mode_t(mode)) == 0 }
}

extension SessionProcess {
  /// Whether `pid` has ended but was not reaped yet (state `Z` in `/proc/PID/stat`).
  package static func isZombie(_ pid: Int32) -> Bool {
    guard let stat = FileSystem.readSmallFile("/proc/\(pid)/stat", limit: 4096),
      let close = stat.lastIndex(of: UInt8(ascii: ")")), close + 2 < stat.count
    else { return false }
    return stat[close + 2] == UInt8(ascii: "Z")
  }
}

/// A descriptor that becomes readable when a process ends: `pidfd_open(2)` (Linux 5.3, glibc
/// 2.36), looked up with `dlsym` as Glibc's Swift module does not declare it. Nil where it is
/// missing: the caller then checks `/proc` itself.
package enum ProcessWatch {
  private typealias PidfdOpen = @convention(c) (Int32, UInt32) -> Int32
  private static let pidfdOpen: PidfdOpen? = dlsym(nil, "pidfd_open").map { unsafeBitCast($0, to: PidfdOpen.self) }

  /// A pidfd for `pid` (close-on-exec), or nil.
  package static func open(_ pid: Int32) -> FileDescriptor? {
    guard let pidfdOpen = pidfdOpen else { return nil }
    let fd = pidfdOpen(pid, 0)
    return fd >= 0 ? FileDescriptor(owning: fd) : nil
  }
}
