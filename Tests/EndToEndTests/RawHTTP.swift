import Foundation
import GHLoginTestSupport

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Raw TCP to 127.0.0.1 for what no browser would send (junk, header floods, stalls), over
/// Glibc sockets: `socket`, `connect`, `send` (MSG_NOSIGNAL), `recv` with `SO_RCVTIMEO`.
enum RawHTTP {
  /// What came back on one connection.
  struct Answer: Sendable {
    /// Every byte read until EOF, a reset, or the timeout.
    let bytes: [UInt8]
    /// Whether the peer closed the connection (EOF or reset) before the timeout.
    let closed: Bool

    /// The status code of the status line, if the answer starts with one.
    var status: Int? {
      let text = String(decoding: bytes.prefix(64), as: UTF8.self)
      let parts = text.split(separator: " ", maxSplits: 2)
      guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.") else { return nil }
      return Int(parts[1])
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
  }

  /// A connected TCP socket to 127.0.0.1:`port`, or the errno of `socket`/`connect`.
  enum Connection {
    case success(Int32)
    case failure(errno: Int32)
  }

  /// Connects to 127.0.0.1:`port`.
  static func connect(port: Int) -> Connection {
    let fd = LoopbackSocket.connect(port: port)
    return fd >= 0 ? .success(fd) : .failure(errno: -fd)
  }

  /// Whether nothing listens on 127.0.0.1:`port` any more (connect is refused).
  static func isRefused(port: Int) -> Bool {
    switch connect(port: port) {
    case .success(let fd):
      close(fd)
      return false
    case .failure(let code):
      return code == ECONNREFUSED
    }
  }

  /// Sends `bytes` (as far as the peer takes them) and reads until EOF or `timeout` seconds.
  static func exchange(port: Int, bytes: [UInt8], timeout: Double) throws -> Answer {
    let fd: Int32
    switch connect(port: port) {
    case .success(let socket): fd = socket
    case .failure(let code): throw HarnessError("connect to 127.0.0.1:\(port) failed, errno \(code)")
    }
    defer { close(fd) }
    setTimeout(fd, timeout)
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if sent < 0 {
        if errno == EINTR { continue }
        break  // the server answered early and closed (EPIPE/ECONNRESET): read what it said
      }
      offset += sent
    }
    return receive(fd, until: Date(timeIntervalSinceNow: timeout))
  }

  /// Reads until EOF, a reset, or `deadline`.
  static func receive(_ fd: Int32, until deadline: Date) -> Answer {
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while Date() < deadline {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count == 0 { return Answer(bytes: result, closed: true) }
      if count < 0 {
        if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
        return Answer(bytes: result, closed: true)
      }
      result += buffer[0..<count]
    }
    return Answer(bytes: result, closed: false)
  }

  /// `SO_RCVTIMEO`/`SO_SNDTIMEO` of `seconds` (at least 10 ms).
  static func setTimeout(_ fd: Int32, _ seconds: Double) {
    let clamped = max(seconds, 0.01)
    var limit = timeval(tv_sec: Int(clamped), tv_usec: Int((clamped - clamped.rounded(.down)) * 1_000_000))
    let size = socklen_t(MemoryLayout<timeval>.size)
    _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, size)
    _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, size)
  }
}

/// A client that connects and then sends one byte of a request per `interval` seconds, on its
/// own thread, until stopped: a slowloris against the loopback listener.
final class Dribbler: @unchecked Sendable {
  private let fd: Int32
  private let lock = NSCondition()
  private var stopped = false
  private var sent = 0
  /// Set when a send failed (the server closed the connection).
  private(set) var sawClose = false

  init(port: Int, interval: Double = 1) throws {
    guard case .success(let socket) = RawHTTP.connect(port: port) else {
      throw HarnessError("dribbler: connect to \(port) failed")
    }
    fd = socket
    let bytes = Array("GET /callback?state=x HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n".utf8)
    Thread { [self] in
      for byte in bytes {
        lock.lock()
        let done = stopped
        lock.unlock()
        if done { return }
        var one = byte
        if Glibc.send(fd, &one, 1, Int32(MSG_NOSIGNAL)) != 1 {
          lock.lock()
          sawClose = true
          lock.unlock()
          return
        }
        lock.lock()
        sent += 1
        lock.broadcast()
        lock.unlock()
        Thread.sleep(forTimeInterval: interval)  // the dribble's pace, not a wait for anyone
      }
    }.start()
  }

  /// Waits until the first byte has been sent; false after `timeout` seconds without one.
  func waitForFirstByte(timeout: Double) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    lock.lock()
    defer { lock.unlock() }
    while sent == 0 && !sawClose {
      if !lock.wait(until: deadline) { return sent > 0 }
    }
    return sent > 0
  }

  /// Stops sending and closes the connection.
  func stop() {
    lock.lock()
    stopped = true
    lock.unlock()
    shutdown(fd, Int32(SHUT_RDWR))
  }

  deinit { close(fd) }
}

extension RawHTTP {
  /// How many connections to local port `port` process `pid` holds open: its descriptors
  /// (`/proc/PID/fd`, `socket:[INODE]`) that are established TCP sockets on that port in
  /// `/proc/net/tcp` or `tcp6`. A connection still in the listen queue has no descriptor
  /// there: this counts what the process has accepted.
  static func acceptedConnections(pid: pid_t, port: Int) -> Int {
    let directory = "/proc/\(pid)/fd"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    let inodes = Set(
      names.compactMap { name -> Substring? in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name),
          target.hasPrefix("socket:[")
        else { return nil }
        return Substring(target.dropFirst(8).dropLast())
      })
    let portHex = String(format: ":%04X", port)
    var count = 0
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
      for line in (readProcFile(table) ?? "").split(separator: "\n").dropFirst() {
        let fields = line.split(separator: " ")
        // local_address, state 01 (ESTABLISHED), inode
        guard fields.count > 9, fields[3] == "01", fields[1].hasSuffix(portHex), inodes.contains(fields[9])
        else { continue }
        count += 1
      }
    }
    return count
  }
}
