#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Why a read or write on a ``ByteStream`` failed.
package enum StreamError: Error, Equatable {
  /// The deadline passed first.
  case timedOut
  /// A system call failed (for example `ECONNRESET`).
  case system(SystemError)
  /// TLS failed after the handshake; the reason is OpenSSL's.
  case tls(String)
  /// The TCP connection closed under TLS without a `close_notify`: a possible truncation.
  case uncleanEOF
  /// The stop descriptor became readable while waiting (Ctrl-C, or a cancelled task).
  case interrupted
}

/// A connected byte stream with deadlines: plain TCP, or TLS over TCP.
///
/// The HTTP client sees only this. Deadlines are absolute monotonic seconds.
protocol ByteStream: AnyObject {
  /// Writes every byte of `bytes` before `deadline`.
  func writeAll(_ bytes: [UInt8], deadline: Double) throws(StreamError)
  /// Reads at most `count` bytes, waiting until `deadline`; an empty result is a clean end of stream.
  func read(count: Int, deadline: Double) throws(StreamError) -> [UInt8]
}

/// Plain TCP as a ``ByteStream``: non-blocking `send`/`recv` plus `poll`.
package final class SocketStream: ByteStream {
  package let socket: Socket
  package let clock: any TimeSource
  /// Ends every wait early once readable (see ``Poll/wait(for:on:deadline:clock:stopFD:)``).
  package let stopFD: Int32?

  package init(socket: Socket, clock: any TimeSource, stopFD: Int32? = nil) {
    self.socket = socket
    self.clock = clock
    self.stopFD = stopFD
  }

  package func writeAll(_ bytes: [UInt8], deadline: Double) throws(StreamError) {
    var offset = 0
    while offset < bytes.count {
      switch try wrap({ () throws(SystemError) in try socket.send(bytes[offset...]) }) {
      case .bytes(let sent): offset += sent
      case .endOfFile: throw .system(SystemError(call: "send", errno: EPIPE))
      case .wouldBlock: try wait(for: Poll.writable, deadline: deadline)
      }
    }
  }

  package func read(count: Int, deadline: Double) throws(StreamError) -> [UInt8] {
    var buffer: [UInt8] = []
    while true {
      switch try wrap({ () throws(SystemError) in try socket.receive(appendingTo: &buffer, count: count) }) {
      case .bytes: return buffer
      case .endOfFile: return []
      case .wouldBlock: try wait(for: Poll.readable, deadline: deadline)
      }
    }
  }

  private func wait(for events: Int16, deadline: Double) throws(StreamError) {
    let ready = try wrap { () throws(SystemError) in
      try Poll.wait(for: events, on: socket.fd, deadline: deadline, clock: clock, stopFD: stopFD)
    }
    if !ready { throw .timedOut }
  }

  private func wrap<T>(_ body: () throws(SystemError) -> T) throws(StreamError) -> T {
    do { return try body() } catch { throw StreamError(error) }
  }
}

extension StreamError {
  /// `.interrupted` for the ``Poll`` interruption marker, `.system` otherwise.
  package init(_ error: SystemError) {
    self = error == Poll.interruption ? .interrupted : .system(error)
  }
}
