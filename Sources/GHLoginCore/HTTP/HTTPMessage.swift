/// Header fields in the order they were received or will be sent.
///
/// Names compare case-insensitively (RFC 9110 §5.1). Values are stored as
/// received; the parser has already refused CR, LF and NUL in them.
package struct HTTPHeaders: Sendable, Equatable, Sequence {
  package private(set) var fields: [(name: String, value: String)] = []

  package init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }

  /// The first value for `name`, or nil.
  package subscript(name: String) -> String? {
    let wanted = name.lowercased()
    return fields.first { $0.name.lowercased() == wanted }?.value
  }

  /// Every value for `name`, in order.
  package func values(for name: String) -> [String] {
    let wanted = name.lowercased()
    return fields.filter { $0.name.lowercased() == wanted }.map { $0.value }
  }

  package mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

  /// Replaces every field called `name` with one holding `value`.
  package mutating func set(_ name: String, _ value: String) {
    remove(name)
    add(name, value)
  }

  package mutating func remove(_ name: String) {
    let wanted = name.lowercased()
    fields.removeAll { $0.name.lowercased() == wanted }
  }

  package func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
    fields.makeIterator()
  }

  package static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
    lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
  }
}

/// A request the client sends to `url`.
package struct HTTPRequest: Sendable, Equatable {
  package var method: String
  package var url: WebURL
  package var headers: HTTPHeaders
  package var body: [UInt8]

  package init(method: String, url: WebURL, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }
}

/// A response as received by the client, body already de-chunked.
package struct HTTPResponse: Sendable, Equatable {
  package var status: Int
  package var reason: String
  package var headers: HTTPHeaders
  package var body: [UInt8]

  package init(status: Int, reason: String = "", headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
    self.status = status
    self.reason = reason
    self.headers = headers
    self.body = body
  }

  /// The media type of `Content-Type`, lowercased, without parameters.
  var mediaType: String? {
    guard let value = headers["Content-Type"] else { return nil }
    let type = value.split(separator: ";", maxSplits: 1).first ?? ""
    return type.trimmingASCIIWhitespace().lowercased()
  }
}

/// How the kit sends HTTP requests: the real client over TCP and TLS, or a fake in tests.
package protocol HTTPTransport: Sendable {
  /// Sends `request` once and returns the response.
  ///
  /// Never follows redirects and never retries once any byte of the request
  /// may have left: the caller decides. `timeout` bounds the whole exchange
  /// in seconds. Throws ``HTTPError``.
  func send(_ request: HTTPRequest, timeout: Double) throws -> HTTPResponse

  /// Gets ready for a request to `url` soon (the real client makes its TLS context, trust store
  /// included), so that ``send(_:timeout:)`` has less to do; nothing is sent and errors surface
  /// in `send`, except a trust file that can never be used (a FIFO as `SSL_CERT_FILE`, R90),
  /// thrown here so a login stops before the browser step. The default does nothing.
  func prepare(for url: WebURL) throws

  /// This transport with every wait also ending once `stopFD` becomes readable (a request then
  /// fails as interrupted); the default ignores it (fakes answer at once).
  func stopping(on stopFD: Int32?) -> any HTTPTransport
}

extension HTTPTransport {
  package func prepare(for url: WebURL) throws {}
  package func stopping(on stopFD: Int32?) -> any HTTPTransport { self }
}

extension StringProtocol {
  /// The string without leading and trailing spaces and horizontal tabs.
  package func trimmingASCIIWhitespace() -> String {
    var slice = Substring(self)
    while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
    while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
    return String(slice)
  }
}
