#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// The raw TCP client every test suite uses to reach a listener on 127.0.0.1 (the loopback
/// server, the fake GitHub's control port): a blocking socket, connected, with timeouts.
public enum LoopbackSocket {
  /// A blocking, close-on-exec TCP socket connected to 127.0.0.1:`port`, with `SO_RCVTIMEO`
  /// and `SO_SNDTIMEO` set to `timeout` seconds when given; on failure, `-errno`.
  public static func connect(port: Int, timeout: Int? = nil) -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return -errno }
    if let timeout {
      var limit = timeval(tv_sec: timeout, tv_usec: 0)
      let size = socklen_t(MemoryLayout<timeval>.size)
      _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, size)
      _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, size)
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
    let result = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    if result != 0 {
      let code = errno
      close(fd)
      return -code
    }
    return fd
  }

  /// Writes all of `bytes` (`send` with `MSG_NOSIGNAL`, retried on `EINTR`); false when the
  /// peer is gone or a send failed (then `errno` says why).
  @discardableResult
  public static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if sent < 0 && errno == EINTR { continue }
      guard sent > 0 else { return false }
      offset += sent
    }
    return true
  }

  /// Reads until EOF or `limit` bytes (`recv`, retried on `EINTR`): what came, and the `errno`
  /// of a receive that failed or timed out before EOF (nil at EOF or the limit).
  public static func receiveAll(_ fd: Int32, limit: Int = 1 << 20) -> (bytes: [UInt8], error: Int32?) {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while data.count < limit {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count < 0 && errno == EINTR { continue }
      if count < 0 { return (data, errno) }
      if count == 0 { break }
      data += buffer[0..<count]
    }
    return (data, nil)
  }
}
