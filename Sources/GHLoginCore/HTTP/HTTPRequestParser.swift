/// The head of a request as the loopback listener received it.
struct HTTPRequestHead: Sendable, Equatable {
  package var method: String
  /// The request target exactly as sent (origin form for a browser: `/callback?code=...`).
  package var target: String
  /// The minor version: 0 for HTTP/1.0, 1 for HTTP/1.1.
  var minorVersion: Int
  package var headers: HTTPHeaders
  /// Whether the request declares a body (`Content-Length` above 0, or chunked).
  var hasBody: Bool
}

/// An incremental, strict HTTP/1.1 request-head parser (listener side).
///
/// Reads `METHOD SP target SP HTTP/1.x CRLF`, the header fields and the empty
/// line; the request line and fields together may take at most
/// `maxHeadBytes` (8 KiB by default, error `.headersTooLarge`, answered 431)
/// and `maxHeaderCount` fields. Bodies are never read: the framing fields are
/// validated (so smuggling shapes are refused) and reported as `hasBody`.
struct HTTPRequestParser: Sendable {
  let maxHeadBytes: Int
  let maxHeaderCount: Int
  private var buffer: [UInt8] = []
  private var scanner: HeadScanner
  private var result: HTTPRequestHead?

  package init(maxHeadBytes: Int = 8 * 1024, maxHeaderCount: Int = 100) {
    self.maxHeadBytes = maxHeadBytes
    self.maxHeaderCount = maxHeaderCount
    self.scanner = HeadScanner(limit: maxHeadBytes)
  }

  /// Adds `bytes` and parses as far as they allow; bytes after the head are ignored.
  mutating func feed(_ bytes: some Sequence<UInt8>) throws(HTTPParseError) -> HTTPParseResult<HTTPRequestHead> {
    if let result { return .complete(result) }
    let room = maxHeadBytes + 1 - buffer.count
    if room > 0 { buffer.append(contentsOf: bytes.prefix(room)) }
    guard let length = try scanner.scan(buffer, from: 0) else { return .needMore }
    let head = try Self.parse(buffer[0..<(length - 4)], maxHeaderCount: maxHeaderCount)
    result = head
    buffer = Array(buffer.prefix(length))
    return .complete(head)
  }

  private static func parse(_ bytes: ArraySlice<UInt8>, maxHeaderCount: Int) throws(HTTPParseError) -> HTTPRequestHead {
    let lines = HTTPSyntax.lines(of: bytes)
    guard let requestLine = lines.first else { throw .invalidStartLine }
    let parts = requestLine.split(separator: HTTPSyntax.space, omittingEmptySubsequences: false)
    guard parts.count == 3 else { throw .invalidStartLine }
    guard HTTPSyntax.isToken(parts[0]) else { throw .invalidStartLine }
    guard !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw .invalidStartLine }
    let minor = try HTTPSyntax.parseVersion(parts[2])
    let headers = try HTTPSyntax.parseFields(lines.dropFirst(), limit: maxHeaderCount)
    let hasBody =
      switch try HTTPSyntax.framing(of: headers, maxBody: Int.max) {
      case .none, .untilClose, .length(0): false
      case .length, .chunked: true
      }
    return HTTPRequestHead(
      method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: parts[1], as: UTF8.self),
      minorVersion: minor, headers: headers, hasBody: hasBody)
  }
}
