import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Blocking test-side sockets and threads, independent of the code under test.
package enum TestNetwork {
  /// A blocking TCP connection to 127.0.0.1:`port` with a 10 s receive/send timeout; -1 on failure.
  package static func connect(port: Int) -> Int32 {
    let fd = LoopbackSocket.connect(port: port, timeout: 10)
    return fd >= 0 ? fd : -1
  }

  /// Sends every byte (MSG_NOSIGNAL); false if the peer went away.
  @discardableResult
  package static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if sent <= 0 { return false }
      offset += sent
    }
    return true
  }

  @discardableResult
  package static func send(_ fd: Int32, _ text: String) -> Bool { send(fd, Array(text.utf8)) }

  /// Reads until end of stream, an error, or the socket's timeout.
  package static func receiveAll(_ fd: Int32) -> [UInt8] {
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count <= 0 { return out }
      out.append(contentsOf: buffer[..<count])
    }
  }

  /// Whether the peer closed `fd` without sending anything, within 2 s (false on data or timeout).
  package static func seesEndOfFile(_ fd: Int32) -> Bool {
    var timeout = timeval(tv_sec: 2, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var byte: UInt8 = 0
    return recv(fd, &byte, 1, 0) == 0
  }

  /// Connects, sends `request`, reads the whole answer, closes.
  package static func exchange(port: Int, _ request: String) -> String {
    let fd = connect(port: port)
    guard fd >= 0 else { return "connect failed" }
    defer { close(fd) }
    send(fd, request)
    return String(decoding: receiveAll(fd), as: UTF8.self)
  }
}

/// The result of work on another thread.
package final class Background<T: Sendable>: Sendable {
  private let result = TestLock<T?>(nil)
  private let done = DispatchSemaphore(value: 0)

  /// Runs `body` on a new thread at once.
  package init(_ body: @escaping @Sendable () -> T) {
    let thread = Thread { [self] in
      let value = body()
      result.withLock { $0 = value }
      done.signal()
    }
    thread.stackSize = 1 << 20
    thread.start()
  }

  /// Waits for the result (at most `seconds`); nil if it did not come.
  package func value(within seconds: Double = 30) -> T? {
    guard done.wait(timeout: .now() + seconds) == .success else { return nil }
    done.signal()
    return result.withLock { $0 }
  }
}
