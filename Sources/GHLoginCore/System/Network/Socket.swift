#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// A non-blocking, close-on-exec TCP socket over Glibc.
///
/// Created with `SOCK_CLOEXEC | SOCK_NONBLOCK` (accepted ones with
/// `accept4(SOCK_CLOEXEC | SOCK_NONBLOCK)`); `send` always passes
/// `MSG_NOSIGNAL` so a closed peer gives `EPIPE`, never `SIGPIPE`. Every call
/// retries `EINTR`; `close` never does (see ``FileDescriptor``).
package final class Socket {
  package let descriptor: FileDescriptor
  package var fd: Int32 { descriptor.rawValue }

  package init(owning descriptor: FileDescriptor) { self.descriptor = descriptor }

  static let socketFlags = Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)

  /// `socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, IPPROTO_TCP)`.
  package static func tcp(family: Int32) throws(SystemError) -> Socket {
    let fd = try retryingEINTR("socket") {
      socket(family, Int32(SOCK_STREAM.rawValue) | socketFlags, Int32(IPPROTO_TCP))
    }
    return Socket(owning: FileDescriptor(owning: fd))
  }

  /// `EADDRINUSE`: ``listenOnLoopback(port:backlog:)`` throws `SystemError(call: "bind", errno: addressInUse)` for a busy port.
  static let addressInUse = EADDRINUSE

  /// What ``connect(to:deadline:clock:stopFD:)`` throws when the deadline passes (or the kernel gives up).
  static let connectTimedOut = SystemError(call: "connect", errno: ETIMEDOUT)

  /// Connects to `address` before `deadline`: non-blocking `connect`, `poll` for writability, then `SO_ERROR`.
  ///
  /// Throws ``connectTimedOut`` when the deadline passes first.
  package static func connect(
    to address: SocketAddress, deadline: Double, clock: any TimeSource, stopFD: Int32? = nil
  ) throws(SystemError) -> Socket {
    let socket = try tcp(family: address.family)
    var storage = address.storage
    let result = withUnsafePointer(to: &storage) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket.fd, $0, address.length) }
    }
    if result == 0 { return socket }
    let code = errno
    // EINTR: the connection goes on asynchronously, exactly as with EINPROGRESS.
    guard code == EINPROGRESS || code == EINTR else { throw SystemError(call: "connect", errno: code) }
    guard try Poll.wait(for: Poll.writable, on: socket.fd, deadline: deadline, clock: clock, stopFD: stopFD) else {
      throw connectTimedOut
    }
    let pending = try socket.pendingError()
    guard pending == 0 else { throw SystemError(call: "connect", errno: pending) }
    return socket
  }

  /// The socket's pending error from `getsockopt(SOL_SOCKET, SO_ERROR)`.
  func pendingError() throws(SystemError) -> Int32 {
    var value: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    let fd = fd
    try retryingEINTR("getsockopt") { getsockopt(fd, SOL_SOCKET, SO_ERROR, &value, &length) }
    return value
  }

  /// Binds `127.0.0.1:port` (0 = ephemeral) and listens with `backlog`.
  ///
  /// Sets neither `SO_REUSEADDR` nor `SO_REUSEPORT` (R5): no other socket,
  /// of this or another process, can share the port. Never binds a wildcard
  /// address (R1). A busy port throws `SystemError(call: "bind", errno: EADDRINUSE)`.
  static func listenOnLoopback(port: Int, backlog: Int32) throws(SystemError) -> Socket {
    let socket = try tcp(family: AF_INET)
    var address = SocketAddress.ipv4Loopback(port: port)
    let fd = socket.fd
    try retryingEINTR("bind") {
      withUnsafePointer(to: &address.storage) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, address.length) }
      }
    }
    try retryingEINTR("listen") { listen(fd, backlog) }
    return socket
  }

  /// The bound local address, from `getsockname`.
  func localAddress() throws(SystemError) -> SocketAddress {
    var address = SocketAddress()
    address.length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let fd = fd
    try retryingEINTR("getsockname") {
      withUnsafeMutablePointer(to: &address.storage) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &address.length) }
      }
    }
    return address
  }

  /// `accept4(2)`'s signature; Glibc's Swift module hides it (it needs `_GNU_SOURCE`).
  private typealias Accept4 =
    @convention(c) (
      Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32
    ) -> Int32

  /// `accept4` looked up once with `dlsym`; it has been in glibc since 2.10.
  private static let accept4: Accept4? = dlsym(nil, "accept4").map { unsafeBitCast($0, to: Accept4.self) }

  /// Accepts one pending connection with `accept4(SOCK_CLOEXEC | SOCK_NONBLOCK)`; nil when none is waiting.
  ///
  /// `ECONNABORTED` (the peer gave up while queued) also answers nil.
  package func accept() throws(SystemError) -> Socket? {
    guard let accept4 = Self.accept4 else { throw SystemError(call: "accept4", errno: ENOSYS) }
    let fd = fd
    while true {
      let client = accept4(fd, nil, nil, Self.socketFlags)
      if client >= 0 { return Socket(owning: FileDescriptor(owning: client)) }
      let code = errno
      switch code {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK, ECONNABORTED: return nil
      default: throw SystemError(call: "accept4", errno: code)
      }
    }
  }

  /// Sends some of `bytes` with `send(MSG_NOSIGNAL)`.
  package func send(_ bytes: ArraySlice<UInt8>) throws(SystemError) -> FileDescriptor.Progress {
    let fd = fd
    return try bytes.withUnsafeBytes { raw in
      FileDescriptor.nonBlocking("send") { Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL)) }
    }.get()
  }

  /// Receives up to `count` bytes with `recv`, appending them to `buffer`.
  package func receive(appendingTo buffer: inout [UInt8], count: Int) throws(SystemError) -> FileDescriptor.Progress {
    try descriptor.read(appendingTo: &buffer, count: count)
  }

  /// `shutdown(SHUT_WR)`: tells the peer nothing more will be sent; errors ignored.
  func shutdownWrite() { _ = shutdown(fd, Int32(SHUT_WR)) }

  /// Sets `TCP_NODELAY` (small requests go out at once); errors ignored.
  func disableNagle() {
    var one: Int32 = 1
    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
  }

  package func close() { descriptor.close() }
}
