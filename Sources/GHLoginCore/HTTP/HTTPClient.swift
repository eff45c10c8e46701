/// The real ``HTTPTransport``: one HTTP/1.1 request per connection, over TLS or (loopback only) plain TCP.
///
/// - `https://` through ``TLSConnection`` (verification always on); `http://` to loopback only.
/// - `https_proxy`/`HTTPS_PROXY` tunnels with `CONNECT` unless ``ProxySettings`` exempts the host.
/// - Redirects are never followed (callers see the 3xx); nothing is retried; `Connection: close`.
/// - Connecting, name resolution included (``Resolver``), is bounded by `connectTimeout`, the
///   whole exchange by `send`'s `timeout`; bodies by `maxBodyBytes`, heads by a fixed limit.
package struct HTTPClient: HTTPTransport {
  package var variables: EnvironmentVariables
  package var caFile: String?
  package var userAgent: String
  package var connectTimeout: Double = 10
  var maxBodyBytes = 1024 * 1024
  package var clock: any TimeSource = SystemClock()
  /// How names are resolved (`getaddrinfo`; tests inject one that never answers).
  package var lookup: NameLookup = .system
  /// A descriptor that ends every wait (name lookup, connect, TLS, read, write) once readable:
  /// the SIGINT self-pipe or a library call's cancellation pipe, passed down explicitly
  /// (``stopping(on:)``); nothing global is read.
  package var stopFD: Int32?

  package init(variables: EnvironmentVariables, caFile: String? = nil, userAgent: String, stopFD: Int32? = nil) {
    self.variables = variables
    self.caFile = caFile
    self.userAgent = userAgent
    self.stopFD = stopFD
  }

  /// This client, with every wait also ending when `stopFD` becomes readable.
  package func stopping(on stopFD: Int32?) -> any HTTPTransport {
    var client = self
    client.stopFD = stopFD ?? self.stopFD
    return client
  }

  package func send(_ request: HTTPRequest, timeout: Double) throws -> HTTPResponse {
    try perform(request, timeout: timeout)
  }

  /// Makes the TLS context for `url` ahead of time (``TLSContext/shared(for:)``). Throws only
  /// for a trust path that can never work (R90, ``HTTPError/unusableTrustPath(path:setting:reason:)``).
  package func prepare(for url: WebURL) throws {
    guard url.scheme == .https else { return }
    do {
      _ = try TLSContext.shared(for: TLSTrust(variables: variables, caFile: caFile))
    } catch .unusableTrustPath(let path, let setting, let reason) {
      throw HTTPError.unusableTrustPath(path: path, setting: setting, reason: reason)
    } catch {
      // Anything else surfaces in the request, as before.
    }
  }

  /// ``send(_:timeout:)`` with the error type spelled out.
  func perform(_ request: HTTPRequest, timeout: Double) throws(HTTPError) -> HTTPResponse {
    let url = request.url
    // Plain http only to a literal loopback address, connected as parsed: no lookup can send it elsewhere (R98).
    var loopback: SocketAddress?
    if url.scheme == .http {
      guard let bytes = url.loopbackAddress, let address = SocketAddress(ip: bytes, port: url.port) else {
        throw .insecureURL(host: url.host)
      }
      loopback = address
    }
    let bytes = try HTTPWriter.request(request, userAgent: userAgent)
    let proxy = try ProxySettings(variables: variables).proxy(for: url)
    let start = clock.monotonic()
    let deadline = start + timeout
    let setupDeadline = min(deadline, start + connectTimeout)

    let socket: Socket
    if let proxy {
      socket = try connect(host: proxy.host, port: proxy.port, label: "proxy \(proxy.host)", deadline: setupDeadline)
      try openTunnel(on: socket, through: proxy, to: url, deadline: setupDeadline)
    } else if let loopback {
      socket = try connect(to: [loopback], port: url.port, label: url.host, deadline: setupDeadline)
    } else {
      socket = try connect(host: url.host, port: url.port, label: url.host, deadline: setupDeadline)
    }
    let stream: any ByteStream
    if url.scheme == .https {
      stream = try startTLS(on: socket, host: url.host, deadline: setupDeadline)
    } else {
      stream = SocketStream(socket: socket, clock: clock, stopFD: stopFD)
    }
    return try exchange(bytes, method: request.method, on: stream, host: url.authority, deadline: deadline)
  }

  /// Resolves `host` and tries each address in turn until one connects before `deadline`.
  private func connect(host: String, port: Int, label: String, deadline: Double) throws(HTTPError) -> Socket {
    let addresses: [SocketAddress]
    do {
      addresses = try Resolver.resolve(
        host: host, port: port, variables: variables, lookup: lookup, deadline: deadline,
        stopFD: stopFD, clock: clock)
    } catch {
      if error == .interrupted { throw .interrupted }
      if error == .timedOut { throw .timedOut(host: label, phase: .resolve) }
      throw .resolve(host: label, reason: error.reason)
    }
    return try connect(to: addresses, port: port, label: label, deadline: deadline)
  }

  /// Tries each of `addresses` in turn until one connects before `deadline`.
  private func connect(to addresses: [SocketAddress], port: Int, label: String, deadline: Double) throws(HTTPError)
    -> Socket
  {
    var lastError = SystemError(call: "connect", errno: 0)
    for address in addresses {
      if let stopFD, Poll.isReadableNow(stopFD) { throw .interrupted }
      do {
        let socket = try Socket.connect(to: address, deadline: deadline, clock: clock, stopFD: stopFD)
        socket.disableNagle()
        return socket
      } catch {
        if error == Poll.interruption { throw .interrupted }
        if error == Socket.connectTimedOut { throw .timedOut(host: "\(label):\(port)", phase: .connect) }
        lastError = error
      }
    }
    throw .connect(host: label, port: port, reason: lastError.reason)
  }

  /// Sends `CONNECT host:port` to the proxy and requires a 2xx head with nothing after it (R79).
  ///
  /// The proxy's answer is parsed only as far as its head: its body (a 407 or
  /// 502 page) is never read, let alone handed to a caller.
  private func openTunnel(on socket: Socket, through proxy: ProxyURL, to url: WebURL, deadline: Double)
    throws(HTTPError)
  {
    let target = "\(url.host):\(url.port)"
    let request = try HTTPWriter.connect(
      authority: target, proxyAuthorization: proxy.authorization, userAgent: userAgent)
    let stream = SocketStream(socket: socket, clock: clock, stopFD: stopFD)
    let label = "proxy \(proxy)"
    var parser = HTTPResponseParser(requestMethod: "CONNECT")
    let response = try exchange(
      request, parser: &parser, on: stream, host: label, deadline: deadline, phase: .proxyTunnel)
    switch response.status {
    case 200..<300:
      guard parser.unconsumed.isEmpty else { throw .badResponse(host: label, .unexpectedData) }
    case 407: throw .proxyAuthenticationRequired(proxy: proxy.description)
    default: throw .proxyRefused(proxy: proxy.description, target: target, status: response.status)
    }
  }

  /// Wraps `socket` in TLS for `host` and completes the handshake before `deadline`.
  private func startTLS(on socket: Socket, host: String, deadline: Double) throws(HTTPError) -> TLSConnection {
    do {
      let connection = try TLSConnection(
        socket: socket, host: host, trust: TLSTrust(variables: variables, caFile: caFile), clock: clock, stopFD: stopFD)
      try connection.handshake(deadline: deadline)
      return connection
    } catch {
      switch error {
      case .setup(let reason), .handshake(let reason): throw .tls(host: host, reason: reason)
      case .caFile(let path, let reason): throw .caFile(path: path, reason: reason)
      case .unusableTrustPath(let path, let setting, let reason):
        throw .unusableTrustPath(path: path, setting: setting, reason: reason)
      case .timedOut: throw .timedOut(host: host, phase: .tlsHandshake)
      case .interrupted: throw .interrupted
      }
    }
  }

  /// Writes `bytes` and reads one response for `method`.
  private func exchange(
    _ bytes: [UInt8], method: String, on stream: any ByteStream, host: String, deadline: Double
  ) throws(HTTPError) -> HTTPResponse {
    var parser = HTTPResponseParser(requestMethod: method, maxBodyBytes: maxBodyBytes)
    return try exchange(bytes, parser: &parser, on: stream, host: host, deadline: deadline, phase: .send)
  }

  /// Writes `bytes`, then feeds what arrives to `parser` until it completes, the stream ends, or `deadline`.
  ///
  /// A TLS stream that ends without `close_notify` is accepted only when the
  /// framing already proved the response complete (then it is never read);
  /// otherwise it is `.truncated` (R72), even for a read-until-close body.
  private func exchange(
    _ bytes: [UInt8], parser: inout HTTPResponseParser, on stream: any ByteStream, host: String, deadline: Double,
    phase: HTTPError.Phase
  ) throws(HTTPError) -> HTTPResponse {
    do {
      try stream.writeAll(bytes, deadline: deadline)
    } catch {
      throw Self.map(error, host: host, phase: phase)
    }
    let readPhase: HTTPError.Phase = phase == .send ? .response : phase
    while true {
      let chunk: [UInt8]
      do {
        chunk = try stream.read(count: 16 * 1024, deadline: deadline)
      } catch .uncleanEOF {
        do {
          _ = try parser.finish()
        } catch {
          throw .badResponse(host: host, error)
        }
        throw .badResponse(host: host, .truncated)
      } catch {
        throw Self.map(error, host: host, phase: readPhase)
      }
      do {
        if chunk.isEmpty { return try parser.finish() }
        if case .complete(let response) = try parser.feed(chunk) { return response }
      } catch {
        throw .badResponse(host: host, error)
      }
    }
  }

  private static func map(_ error: StreamError, host: String, phase: HTTPError.Phase) -> HTTPError {
    switch error {
    case .timedOut: .timedOut(host: host, phase: phase)
    case .system(let error): .io(host: host, reason: error.reason)
    case .tls(let reason): .io(host: host, reason: reason)
    case .uncleanEOF: .badResponse(host: host, .truncated)
    case .interrupted: .interrupted
    }
  }
}
