import Foundation
import Synchronization
import GHLoginTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A scripted plain-TCP server on 127.0.0.1 for client tests, written with bare Glibc calls.
///
/// Each accepted connection (in order) reads one request head (and a
/// `Content-Length` body), records it, and runs the next action.
final class TestHTTPServer: Sendable {
  enum Action: Sendable {
    /// Send these bytes, then close.
    case reply([UInt8])
    /// Send these bytes, then keep the connection open without sending more until the test ends.
    case replyAndHang([UInt8])
    /// Close without sending anything.
    case close
  }

  let port: Int
  private let listenFD: Int32
  private let received = TestLock<[String]>([])
  private let done = DispatchSemaphore(value: 0)
  private let hangRelease = DispatchSemaphore(value: 0)

  init(_ actions: [Action]) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = in_addr_t(INADDR_LOOPBACK).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        _ = bind(fd, pointer, length)
        return getsockname(fd, pointer, &length)
      }
    }
    listen(fd, 16)
    listenFD = fd
    port = Int(UInt16(bigEndian: address.sin_port))
    let thread = Thread { [self] in
      for action in actions { serveOne(action) }
      done.signal()
    }
    thread.start()
  }

  deinit {
    close(listenFD)
  }

  private func serveOne(_ action: Action) {
    let client = accept(listenFD, nil, nil)
    guard client >= 0 else { return }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    received.withLock { $0.append(String(decoding: Self.readRequest(client), as: UTF8.self)) }
    switch action {
    case .reply(let bytes):
      TestNetwork.send(client, bytes)
    case .replyAndHang(let bytes):
      TestNetwork.send(client, bytes)
      _ = hangRelease.wait(timeout: .now() + 10)
    case .close:
      break
    }
    close(client)
  }

  /// Reads a head and, if it declares one, a Content-Length body.
  static func readRequest(_ fd: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      if let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) {
        let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).lowercased()
        let length =
          head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
          .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        if bytes.count >= end.upperBound + length { return bytes }
      }
      let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count <= 0 { return bytes }
      bytes.append(contentsOf: chunk[..<count])
    }
  }

  /// The requests received so far, as text.
  var requests: [String] { received.withLock { $0 } }

  /// Whether a connection is waiting to be accepted (nothing should have connected in some tests).
  var hasPendingConnection: Bool {
    var descriptor = pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, 0) == 1
  }

  /// Lets hanging connections close, and waits for the script to end.
  func finish() {
    hangRelease.signal()
    _ = done.wait(timeout: .now() + 10)
  }
}
