/// An incremental, strict HTTP/1.1 response parser (client side).
///
/// Feed it bytes as they arrive; it answers `.needMore` until the whole
/// response is there, then `.complete`. At end of stream call ``finish()``:
/// it completes a read-until-close body, and otherwise reports `.truncated`.
/// Limits: the head (status line and fields) and each trailer section to
/// `maxHeadBytes`, fields to `maxHeaderCount`, the de-chunked body to
/// `maxBodyBytes`. `100 Continue` heads are skipped; other 1xx are refused.
/// Responses to `HEAD`, and 204 and 304, have no body. For `CONNECT`, every
/// response ends with its head (a proxy's body is never read).
struct HTTPResponseParser: Sendable {
  let maxHeadBytes: Int
  let maxHeaderCount: Int
  let maxBodyBytes: Int
  let requestMethod: String

  private enum State: Equatable {
    case head
    case body(remaining: Int)
    case chunkSize
    case chunkData(remaining: Int)
    case chunkDataEnd
    case trailers
    case untilClose
    case done
  }

  private static let chunkLineLimit = 4096
  private static let maxInterimResponses = 8

  private var state = State.head
  private var buffer: [UInt8] = []
  private var cursor = 0
  private var scanner: HeadScanner
  private var receivedAny = false
  private var interimResponses = 0
  private var status = 0
  private var reason = ""
  private var headers = HTTPHeaders()
  private var body: [UInt8] = []

  package init(
    requestMethod: String = "GET", maxHeadBytes: Int = 64 * 1024, maxHeaderCount: Int = 100,
    maxBodyBytes: Int = 1024 * 1024
  ) {
    self.requestMethod = requestMethod.uppercased()
    self.maxHeadBytes = maxHeadBytes
    self.maxHeaderCount = maxHeaderCount
    self.maxBodyBytes = maxBodyBytes
    self.scanner = HeadScanner(limit: maxHeadBytes)
  }

  /// Bytes received after the end of the complete response (for CONNECT, what followed the proxy's head).
  var unconsumed: ArraySlice<UInt8> { state == .done ? buffer[cursor...] : [] }

  /// Adds `bytes` and parses as far as they allow.
  mutating func feed(_ bytes: some Sequence<UInt8>) throws(HTTPParseError) -> HTTPParseResult<HTTPResponse> {
    if state == .done { return .complete(response) }
    if cursor > 0 && cursor == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      cursor = 0
    } else if cursor >= 64 * 1024 {
      buffer.removeFirst(cursor)
      cursor = 0
    }
    let before = buffer.count
    buffer.append(contentsOf: bytes)
    if buffer.count > before { receivedAny = true }
    return try advance()
  }

  /// Reports the end of the stream: completes a read-until-close body, otherwise throws.
  package mutating func finish() throws(HTTPParseError) -> HTTPResponse {
    switch state {
    case .done, .untilClose:
      state = .done
      return response
    case .head where !receivedAny:
      throw .noResponse
    default:
      throw .truncated
    }
  }

  private var response: HTTPResponse { HTTPResponse(status: status, reason: reason, headers: headers, body: body) }

  private mutating func advance() throws(HTTPParseError) -> HTTPParseResult<HTTPResponse> {
    while true {
      switch state {
      case .head:
        guard let length = try scanner.scan(buffer, from: cursor) else { return .needMore }
        let head = buffer[cursor..<(cursor + length - 4)]
        cursor += length
        scanner = HeadScanner(limit: maxHeadBytes)
        try parseHead(head)
      case .body(let remaining):
        let take = min(remaining, buffer.count - cursor)
        body.append(contentsOf: buffer[cursor..<(cursor + take)])
        cursor += take
        if take == remaining {
          state = .done
        } else {
          state = .body(remaining: remaining - take)
          return .needMore
        }
      case .chunkSize:
        guard let size = try parseChunkSize() else { return .needMore }
        state = size == 0 ? .trailers : .chunkData(remaining: size)
      case .chunkData(let remaining):
        let take = min(remaining, buffer.count - cursor)
        body.append(contentsOf: buffer[cursor..<(cursor + take)])
        cursor += take
        guard take == remaining else {
          state = .chunkData(remaining: remaining - take)
          return .needMore
        }
        state = .chunkDataEnd
      case .chunkDataEnd:
        guard buffer.count - cursor >= 2 else {
          if buffer.count > cursor && buffer[cursor] != HTTPSyntax.cr { throw .invalidChunkFraming }
          return .needMore
        }
        guard buffer[cursor] == HTTPSyntax.cr, buffer[cursor + 1] == HTTPSyntax.lf else { throw .invalidChunkFraming }
        cursor += 2
        state = .chunkSize
      case .trailers:
        guard let length = try scanner.scan(buffer, from: cursor) else { return .needMore }
        if length > 2 {
          let lines = HTTPSyntax.lines(of: buffer[cursor..<(cursor + length - 4)])
          _ = try HTTPSyntax.parseFields(lines[...], limit: maxHeaderCount)
        }
        cursor += length
        state = .done
      case .untilClose:
        guard body.count + buffer.count - cursor <= maxBodyBytes else { throw .bodyTooLarge(limit: maxBodyBytes) }
        body.append(contentsOf: buffer[cursor...])
        cursor = buffer.count
        return .needMore
      case .done:
        return .complete(response)
      }
    }
  }

  /// Parses a status line and fields, then picks the body state.
  private mutating func parseHead(_ head: ArraySlice<UInt8>) throws(HTTPParseError) {
    let lines = HTTPSyntax.lines(of: head)
    guard let statusLine = lines.first else { throw .invalidStartLine }
    try parseStatusLine(statusLine)
    headers = try HTTPSyntax.parseFields(lines.dropFirst(), limit: maxHeaderCount)
    if (100...199).contains(status) {
      guard status == 100 else { throw .unexpectedInformational(status: status) }
      interimResponses += 1
      guard interimResponses <= Self.maxInterimResponses else { throw .unexpectedInformational(status: status) }
      headers = HTTPHeaders()
      state = .head
      return
    }
    let framing = try HTTPSyntax.framing(of: headers, maxBody: maxBodyBytes)
    if requestMethod == "HEAD" || requestMethod == "CONNECT" || status == 204 || status == 304 {
      state = .done
      return
    }
    switch framing {
    case .none, .length(0): state = .done
    case .length(let length): state = .body(remaining: length)
    case .chunked:
      state = .chunkSize
      scanner = HeadScanner(limit: maxHeadBytes, allowsEmpty: true)
    case .untilClose: state = .untilClose
    }
  }

  /// `HTTP/1.x SP 3DIGIT [SP reason]`, the reason without control characters.
  private mutating func parseStatusLine(_ line: ArraySlice<UInt8>) throws(HTTPParseError) {
    guard line.count >= 12, line[line.startIndex + 8] == HTTPSyntax.space else { throw .invalidStartLine }
    _ = try HTTPSyntax.parseVersion(line.prefix(8))
    let code = line[(line.startIndex + 9)..<(line.startIndex + 12)]
    guard code.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(String(decoding: code, as: UTF8.self)),
      (100...599).contains(value)
    else { throw .invalidStartLine }
    var rest = line[(line.startIndex + 12)...]
    if let first = rest.first {
      guard first == HTTPSyntax.space else { throw .invalidStartLine }
      rest = rest.dropFirst()
    }
    guard rest.allSatisfy(HTTPSyntax.isFieldValueByte) else { throw .invalidStartLine }
    status = value
    reason = String(decoding: rest, as: UTF8.self)
  }

  /// Reads `1*HEXDIG [ BWS ";" ext ] CRLF` at the cursor; nil when the line is not complete.
  private mutating func parseChunkSize() throws(HTTPParseError) -> Int? {
    var index = cursor
    var size = 0
    var digits = 0
    let limit = min(buffer.count, cursor + Self.chunkLineLimit)
    while index < limit, let digit = Self.hexValue(buffer[index]) {
      let (shifted, overflow) = size.multipliedReportingOverflow(by: 16)
      guard !overflow else { throw .bodyTooLarge(limit: maxBodyBytes) }
      size = shifted + digit
      guard size <= maxBodyBytes - body.count else { throw .bodyTooLarge(limit: maxBodyBytes) }
      digits += 1
      index += 1
    }
    if index == limit {
      if limit - cursor >= Self.chunkLineLimit { throw .invalidChunkSize }
      return nil
    }
    guard digits > 0 else { throw .invalidChunkSize }
    let afterDigits = index
    while index < limit, buffer[index] == HTTPSyntax.space || buffer[index] == HTTPSyntax.tab { index += 1 }
    if index < limit, buffer[index] == UInt8(ascii: ";") {
      while index < limit, buffer[index] != HTTPSyntax.cr {
        guard HTTPSyntax.isFieldValueByte(buffer[index]) else { throw .invalidChunkSize }
        index += 1
      }
    } else if index < limit, index != afterDigits {
      throw .invalidChunkSize
    }
    if index < limit, buffer[index] != HTTPSyntax.cr { throw .invalidChunkSize }
    guard index + 1 < limit else {
      if limit - cursor >= Self.chunkLineLimit { throw .invalidChunkSize }
      return nil
    }
    guard buffer[index + 1] == HTTPSyntax.lf else { throw .bareLineEnding }
    cursor = index + 2
    return size
  }

  private static func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - 0x30)
    case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - 0x57)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - 0x37)
    default: nil
    }
  }
}
