/// The pieces both HTTP/1.1 parsers share: finding the end of a head, splitting
/// it into lines, validating header fields, and deciding how a body is framed.
///
/// Everything here is strict (RFC 9112): lines end in CRLF only, NUL and
/// obsolete line folding are refused, names are `token`s, values carry no
/// control characters, `Content-Length` and `Transfer-Encoding` are checked
/// together so a message can be framed in exactly one way.
enum HTTPSyntax {
  static let cr: UInt8 = 0x0D
  static let lf: UInt8 = 0x0A
  package static let space: UInt8 = 0x20
  package static let tab: UInt8 = 0x09
  package static let colon: UInt8 = 0x3A

  /// Whether `byte` is a `tchar` (RFC 9110 §5.6.2).
  static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
  }

  /// Whether `text` is a non-empty `token`.
  static func isToken(_ text: some Collection<UInt8>) -> Bool {
    !text.isEmpty && text.allSatisfy(isTokenByte)
  }

  /// Whether `byte` may appear in a field value: visible, SP, HTAB or obs-text, never a control.
  static func isFieldValueByte(_ byte: UInt8) -> Bool {
    byte == tab || (byte >= space && byte != 0x7F)
  }

  /// Parses `HTTP/1.0` or `HTTP/1.1`; returns the minor version.
  static func parseVersion(_ bytes: ArraySlice<UInt8>) throws(HTTPParseError) -> Int {
    guard bytes.count == 8, bytes.starts(with: "HTTP/".utf8) else { throw .invalidStartLine }
    let digits = Array(bytes.suffix(3))
    guard digits[1] == UInt8(ascii: "."), (0x30...0x39).contains(digits[0]), (0x30...0x39).contains(digits[2]) else {
      throw .invalidStartLine
    }
    guard digits[0] == UInt8(ascii: "1"), digits[2] <= UInt8(ascii: "1") else { throw .unsupportedVersion }
    return Int(digits[2] - 0x30)
  }

  /// Splits a head (without its final empty line) into the lines between CRLFs.
  ///
  /// The scanner has already proven every CR is followed by LF and vice versa.
  package static func lines(of head: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
    var lines: [ArraySlice<UInt8>] = []
    var start = head.startIndex
    var index = head.startIndex
    while index < head.endIndex {
      if head[index] == cr {
        lines.append(head[start..<index])
        index += 2
        start = index
      } else {
        index += 1
      }
    }
    if start < head.endIndex { lines.append(head[start..<head.endIndex]) }
    return lines
  }

  /// Parses header (or trailer) field lines into ``HTTPHeaders``, at most `limit` fields.
  static func parseFields(_ lines: ArraySlice<ArraySlice<UInt8>>, limit: Int) throws(HTTPParseError)
    -> HTTPHeaders
  {
    guard lines.count <= limit else { throw .tooManyHeaders(limit: limit) }
    var headers = HTTPHeaders()
    for line in lines {
      guard let first = line.first else { throw .invalidHeaderName }
      if first == space || first == tab { throw .obsoleteLineFolding }
      guard let colon = line.firstIndex(of: colon) else { throw .invalidHeaderName }
      let name = line[line.startIndex..<colon]
      guard isToken(name) else { throw .invalidHeaderName }
      var value = line[(colon + 1)...]
      while let byte = value.first, byte == space || byte == tab { value = value.dropFirst() }
      while let byte = value.last, byte == space || byte == tab { value = value.dropLast() }
      guard value.allSatisfy(isFieldValueByte) else { throw .invalidHeaderValue }
      headers.add(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }
    return headers
  }

  /// How a message body is delimited, from its header fields.
  enum Framing: Equatable {
    case none
    case length(Int)
    case chunked
    case untilClose
  }

  /// Decides the framing from `Content-Length` and `Transfer-Encoding` (RFC 9112 §6.3).
  ///
  /// `untilClose` is returned when neither is present; request parsing treats
  /// that as "no body". Lengths above `maxBody` are refused at once.
  package static func framing(of headers: HTTPHeaders, maxBody: Int) throws(HTTPParseError) -> Framing {
    let encodings = headers.values(for: "Transfer-Encoding")
    let lengths = headers.values(for: "Content-Length")
    if !encodings.isEmpty {
      guard lengths.isEmpty else { throw .contentLengthWithTransferEncoding }
      guard encodings.count == 1, encodings[0].lowercased() == "chunked" else { throw .unsupportedTransferEncoding }
      return .chunked
    }
    guard !lengths.isEmpty else { return .untilClose }
    var declared: Int?
    for field in lengths {
      for item in field.split(separator: ",", omittingEmptySubsequences: false) {
        let text = item.trimmingASCIIWhitespace()
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
          let value = Int(text)
        else { throw .invalidContentLength }
        if let declared, declared != value { throw .conflictingContentLength }
        declared = value
      }
    }
    guard let declared else { throw .invalidContentLength }
    guard declared <= maxBody else { throw .bodyTooLarge(limit: maxBody) }
    return .length(declared)
  }
}

/// Finds the end of a head: the first empty line, checking line endings and NUL on the way.
///
/// Resumable: it remembers how far it has scanned, so feeding one byte at a
/// time costs linear work overall.
struct HeadScanner {
  /// The most bytes the head may take, its final empty line included.
  package let limit: Int
  /// Whether the head may be empty (a trailer section is; a start line is not).
  let allowsEmpty: Bool
  private var scanned = 0

  package init(limit: Int, allowsEmpty: Bool = false) {
    self.limit = limit
    self.allowsEmpty = allowsEmpty
  }

  /// Returns the head's length including the final CRLF CRLF (or CRLF when empty), or nil if more bytes are needed.
  package mutating func scan(_ buffer: [UInt8], from start: Int) throws(HTTPParseError) -> Int? {
    var index = start + scanned
    let end = min(buffer.count, start + limit)
    while index < end {
      let byte = buffer[index]
      if byte == 0 { throw .nulByte }
      if byte == HTTPSyntax.cr {
        guard index + 1 < buffer.count else { break }
        guard buffer[index + 1] == HTTPSyntax.lf else { throw .bareLineEnding }
        index += 2
        let lineStart = index - start
        if lineStart == 2 {
          guard allowsEmpty else { throw .invalidStartLine }
          return 2
        }
        if lineStart >= 4, buffer[index - 3] == HTTPSyntax.lf {
          guard lineStart <= limit else { throw .headersTooLarge(limit: limit) }
          return lineStart
        }
        continue
      }
      if byte == HTTPSyntax.lf { throw .bareLineEnding }
      index += 1
    }
    scanned = index - start
    if scanned >= limit { throw .headersTooLarge(limit: limit) }
    return nil
  }
}
