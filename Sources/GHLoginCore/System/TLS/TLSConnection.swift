import COpenSSL

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// A TLS client connection over a connected, non-blocking ``Socket`` (OpenSSL 3).
///
/// Set-up (R69, R70): the context from ``TLSContext`` (TLS 1.2 or newer, `SSL_VERIFY_PEER`,
/// the ``TLSTrust`` store); SNI for names only; `SSL_set1_host` without partial wildcards, or
/// the IP for a literal; an empty host is refused (it would turn name checks off); after the
/// handshake `SSL_get_verify_result` must be `X509_V_OK`. A close without `close_notify` reads
/// as ``StreamError/uncleanEOF``: only HTTP framing may call it harmless.
///
/// `@unchecked Sendable`: the `SSL*` belongs to the one request that created it, which may
/// move between threads but never uses it from two at once.
final class TLSConnection: ByteStream, @unchecked Sendable {
  /// Kept alive while the `SSL` made from it is.
  private let context: TLSContext
  private let ssl: OpaquePointer
  private let socket: Socket
  private let clock: any TimeSource
  /// Ends every wait early once readable (Ctrl-C, or a cancelled task).
  private let stopFD: Int32?

  /// Prepares TLS on `socket` for `host` (a name, IPv4 literal, or bracketed IPv6 literal); no bytes move yet.
  package init(socket: Socket, host: String, trust: TLSTrust, clock: any TimeSource, stopFD: Int32? = nil)
    throws(TLSError)
  {
    guard !host.isEmpty else { throw .setup("no host name to verify the certificate against") }
    let context = try TLSContext.shared(for: trust)
    ERR_clear_error()
    // SSL_new copies the verify mode, protocol bounds and mode from the (configured) context.
    guard let ssl = SSL_new(context.pointer) else {
      throw .setup(Self.queuedErrorReason() ?? "SSL_new failed")
    }
    self.context = context
    self.ssl = ssl
    self.socket = socket
    self.clock = clock
    self.stopFD = stopFD
    try configure(host: host)
  }

  deinit {
    SSL_free(ssl)
  }

  /// Attaches the socket, and sets the name (SNI and `SSL_set1_host`) or IP address to verify.
  private func configure(host: String) throws(TLSError) {
    guard SSL_get_verify_mode(ssl) == SSL_VERIFY_PEER else { throw .setup("peer verification is not enabled") }
    guard SSL_set_fd(ssl, socket.fd) == 1 else { throw .setup(Self.queuedErrorReason() ?? "SSL_set_fd failed") }
    let isIPv6 = host.hasPrefix("[") && host.hasSuffix("]")
    let isIPv4 =
      host.split(separator: ".", omittingEmptySubsequences: false).count == 4
      && host.allSatisfy { $0 == "." || $0.isASCIIDigit }
    if isIPv4 || isIPv6 {
      let literal = isIPv6 ? String(host.dropFirst().dropLast()) : host
      guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), literal) == 1 else {
        throw .setup("'\(host)' is not a valid IP address")
      }
    } else {
      guard ghl_set_sni(ssl, host) == 1 else { throw .setup("cannot set the server name") }
      SSL_set_hostflags(ssl, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS))
      guard SSL_set1_host(ssl, host) == 1 else { throw .setup("cannot set the host name to verify") }
    }
  }

  /// Runs the handshake (`SSL_connect`) until done or `deadline`, then checks `SSL_get_verify_result`.
  package func handshake(deadline: Double) throws(TLSError) {
    while true {
      ERR_clear_error()
      errno = 0
      let result = SSL_connect(ssl)
      if result == 1 { break }
      let code = SSL_get_error(ssl, result)
      let events: Int16
      switch code {
      case SSL_ERROR_WANT_READ: events = Poll.readable
      case SSL_ERROR_WANT_WRITE: events = Poll.writable
      default: throw .handshake(failureReason(code))
      }
      let ready: Bool
      do {
        ready = try Poll.wait(for: events, on: socket.fd, deadline: deadline, clock: clock, stopFD: stopFD)
      } catch {
        throw error == Poll.interruption ? .interrupted : .handshake(error.reason)
      }
      guard ready else { throw .timedOut }
    }
    let verification = SSL_get_verify_result(ssl)
    guard verification == X509_V_OK else { throw .handshake(Self.verifyReason(verification)) }
  }

  package func writeAll(_ bytes: [UInt8], deadline: Double) throws(StreamError) {
    var offset = 0
    while offset < bytes.count {
      ERR_clear_error()
      errno = 0
      var written = 0
      let result = bytes[offset...].withUnsafeBytes { SSL_write_ex(ssl, $0.baseAddress, $0.count, &written) }
      if result == 1 {
        offset += written
        continue
      }
      try waitOrFail(SSL_get_error(ssl, result), deadline: deadline)
    }
  }

  package func read(count: Int, deadline: Double) throws(StreamError) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: count)
    while true {
      ERR_clear_error()
      errno = 0
      var received = 0
      let result = buffer.withUnsafeMutableBytes { SSL_read_ex(ssl, $0.baseAddress, $0.count, &received) }
      if result == 1 { return Array(buffer[..<received]) }
      let code = SSL_get_error(ssl, result)
      if code == SSL_ERROR_ZERO_RETURN { return [] }
      if isUnexpectedEOF(code) { throw .uncleanEOF }
      try waitOrFail(code, deadline: deadline)
    }
  }

  /// Sends `close_notify` once, without waiting for the peer's; errors ignored.
  package func shutdown() {
    ERR_clear_error()
    _ = SSL_shutdown(ssl)
    ERR_clear_error()
  }

  private func waitOrFail(_ code: Int32, deadline: Double) throws(StreamError) {
    let events: Int16
    switch code {
    case SSL_ERROR_WANT_READ: events = Poll.readable
    case SSL_ERROR_WANT_WRITE: events = Poll.writable
    default:
      if code == SSL_ERROR_SYSCALL, errno != 0, ERR_peek_error() == 0 {
        throw .system(SystemError(call: "SSL", errno: errno))
      }
      throw .tls(failureReason(code))
    }
    let ready: Bool
    do {
      ready = try Poll.wait(for: events, on: socket.fd, deadline: deadline, clock: clock, stopFD: stopFD)
    } catch {
      throw StreamError(error)
    }
    guard ready else { throw .timedOut }
  }

  /// Whether the peer closed TCP without `close_notify` (OpenSSL 3 reports `unexpected eof while reading`).
  private func isUnexpectedEOF(_ code: Int32) -> Bool {
    if code == SSL_ERROR_SSL { return ghl_err_reason(ERR_peek_error()) == SSL_R_UNEXPECTED_EOF_WHILE_READING }
    return code == SSL_ERROR_SYSCALL && errno == 0 && ERR_peek_error() == 0
  }

  /// The one place OpenSSL failures become text: the verify result first, then the error queue, then errno.
  private func failureReason(_ code: Int32) -> String {
    let verification = SSL_get_verify_result(ssl)
    if verification != X509_V_OK {
      ERR_clear_error()
      return Self.verifyReason(verification)
    }
    if let reason = Self.queuedErrorReason() { return reason }
    if code == SSL_ERROR_SYSCALL {
      return errno != 0 ? SystemError(call: "SSL", errno: errno).reason : "the server closed the connection"
    }
    return "TLS error \(code)"
  }

  /// `certificate verify failed: ` and `X509_verify_cert_error_string` (e.g. `hostname mismatch`).
  static func verifyReason(_ result: Int) -> String {
    "certificate verify failed: " + String(cString: X509_verify_cert_error_string(result))
  }

  /// The reason text of the earliest queued OpenSSL error (`ERR_reason_error_string`, else
  /// `ERR_error_string_n`), clearing the queue; nil when it is empty.
  static func queuedErrorReason() -> String? {
    let code = ERR_get_error()
    defer { ERR_clear_error() }
    guard code != 0 else { return nil }
    if let reason = ERR_reason_error_string(code) { return String(cString: reason) }
    var text = [CChar](repeating: 0, count: 256)
    ERR_error_string_n(code, &text, text.count)
    return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
