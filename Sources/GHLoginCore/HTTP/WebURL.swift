/// An absolute `http` or `https` URL, parsed strictly.
///
/// Only what ghlogin needs: scheme, host, optional port, and the path with
/// its query. User info, fragments, whitespace, control characters and
/// non-ASCII bytes are refused, so a value from a config file or a server can
/// never smuggle a second host or a header into a request.
///
/// Its parts are behind one reference, replaced, never changed, when the path is set: a host's
/// settings hold five endpoint URLs in each layer of the config, and every copy, merge and
/// destruction of them then costs one reference count instead of two strings and a port each
/// (bench/NOTES.md, issue 30).
package struct WebURL: Sendable, Hashable, CustomStringConvertible {
  package enum Scheme: String, Sendable { case http, https }

  private var parts: Parts

  package var scheme: Scheme { parts.scheme }
  /// The host, ASCII-lowercased; an IPv6 literal keeps its brackets.
  package var host: String { parts.host }
  /// The port given in the URL, or nil for the scheme's default.
  package var explicitPort: Int? { parts.explicitPort }
  /// The path and query, always starting with `/`.
  package var pathAndQuery: String {
    get { parts.pathAndQuery }
    set { parts = Parts(scheme: scheme, host: host, explicitPort: explicitPort, pathAndQuery: newValue) }
  }

  package init(scheme: Scheme, host: String, port: Int? = nil, pathAndQuery: String = "/") {
    parts = Parts(scheme: scheme, host: host, explicitPort: port, pathAndQuery: pathAndQuery)
  }

  private final class Parts: Sendable {
    let scheme: Scheme
    let host: String
    let explicitPort: Int?
    let pathAndQuery: String

    init(scheme: Scheme, host: String, explicitPort: Int?, pathAndQuery: String) {
      self.scheme = scheme
      self.host = host
      self.explicitPort = explicitPort
      self.pathAndQuery = pathAndQuery
    }
  }

  package static func == (lhs: WebURL, rhs: WebURL) -> Bool {
    lhs.parts === rhs.parts
      || (lhs.scheme == rhs.scheme && lhs.host == rhs.host && lhs.explicitPort == rhs.explicitPort
        && lhs.pathAndQuery == rhs.pathAndQuery)
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(scheme)
    hasher.combine(host)
    hasher.combine(explicitPort)
    hasher.combine(pathAndQuery)
  }

  /// Why a string is not a URL ghlogin accepts.
  package struct ParseError: Error, Equatable, Sendable {
    package var reason: String
  }

  /// Parses `text`, or throws a ``ParseError`` saying what is wrong with it. Parsed on the
  /// contiguous UTF-8 bytes (every byte is ASCII once the first check passes): `Character`
  /// searches walk grapheme clusters, and Unicode lowercasing and substrings cost more than the
  /// rest of the parse, which runs for each endpoint URL of the config on every command.
  package init(parsing text: String) throws(ParseError) {
    var copy = text
    self = try copy.withUTF8 { bytes in Result { () throws(ParseError) in try Self.parse(bytes) } }.get()
  }

  private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(ParseError) -> WebURL {
    // One pass finds every offset; the checks then run in their order.
    let scan = scan(bytes)
    if scan.hasForbiddenByte {
      throw ParseError(reason: "it contains a space, a control character or a non-ASCII character")
    }
    guard let schemeEnd = scan.schemeEnd else {
      throw ParseError(reason: "it is not an absolute URL (expected https://HOST/...)")
    }
    let scheme: Scheme
    if equalsIgnoringASCIICase(bytes[..<schemeEnd], "https") {
      scheme = .https
    } else if equalsIgnoringASCIICase(bytes[..<schemeEnd], "http") {
      scheme = .http
    } else {
      throw ParseError(reason: "only https:// URLs are supported")
    }
    if scan.hasFragment { throw ParseError(reason: "it has a fragment (#...)") }
    let rest = UnsafeBufferPointer(rebasing: bytes[scan.authorityEnd...])
    let path =
      rest.first == nil || rest.first == UInt8(ascii: "?")
      ? "/" + String(decoding: rest, as: UTF8.self) : String(decoding: rest, as: UTF8.self)
    if scan.authorityHasAt {
      throw ParseError(reason: "it has user info (user@host); put credentials in the config instead")
    }
    let (host, port) = try parseAuthority(UnsafeBufferPointer(rebasing: bytes[(schemeEnd + 3)..<scan.authorityEnd]))
    return WebURL(scheme: scheme, host: host, port: port, pathAndQuery: path)
  }

  /// Whether `bytes` are `word` (lowercase ASCII) in any ASCII case.
  private static func equalsIgnoringASCIICase(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ word: StaticString) -> Bool
  {
    guard bytes.count == word.utf8CodeUnitCount else { return false }
    return zip(bytes, UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)).allSatisfy {
      $0 | 0x20 == $1 && $1 >= UInt8(ascii: "a")
    }
  }

  /// What ``init(parsing:)`` checks, found in one pass: a byte outside `!`...`~`, the offset of
  /// the first `://`, and after it a `#`, the end of the authority (the first `/` or `?`) and an
  /// `@` before that end.
  private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (
    hasForbiddenByte: Bool, schemeEnd: Int?, hasFragment: Bool, authorityEnd: Int, authorityHasAt: Bool
  ) {
    let count = bytes.count
    for byte in bytes where byte <= 0x20 || byte >= 0x7F { return (true, nil, false, count, false) }
    var index = 0
    while index + 2 < count
      && !(bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == UInt8(ascii: "/")
        && bytes[index + 2] == UInt8(ascii: "/"))
    {
      index += 1
    }
    guard index + 2 < count else { return (false, nil, false, count, false) }
    let schemeEnd = index
    var authorityEnd: Int?
    var hasFragment = false
    var hasAt = false
    for offset in (schemeEnd + 3)..<count {
      switch bytes[offset] {
      case UInt8(ascii: "#"): hasFragment = true
      case UInt8(ascii: "/"), UInt8(ascii: "?"): if authorityEnd == nil { authorityEnd = offset }
      case UInt8(ascii: "@"): if authorityEnd == nil { hasAt = true }
      default: break
      }
    }
    return (false, schemeEnd, hasFragment, authorityEnd ?? count, hasAt)
  }

  /// Splits `host[:port]` or `[v6]:port` and checks both: the host lowercased and valid, the
  /// port from 1 to 65535 (nil when absent). Shared with the proxy URL parser.
  static func parseAuthority(_ authority: Substring) throws(ParseError) -> (host: String, port: Int?) {
    var copy = String(authority)
    return try copy.withUTF8 { bytes in Result { () throws(ParseError) in try parseAuthority(bytes) } }.get()
  }

  /// ``parseAuthority(_:)-(Substring)`` of the authority's bytes. The delimiters are ASCII, so
  /// they are found on the bytes; a host with a byte that is not ASCII fails ``isValidHost(_:)``.
  private static func parseAuthority(
    _ bytes: UnsafeBufferPointer<UInt8>
  ) throws(ParseError) -> (host: String, port: Int?) {
    var hostEnd = bytes.count
    var port: Int?
    if bytes.first == UInt8(ascii: "[") {
      guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else {
        throw ParseError(reason: "its IPv6 address is not closed with ]")
      }
      if close + 1 < bytes.count {
        guard bytes[close + 1] == UInt8(ascii: ":") else {
          throw ParseError(reason: "unexpected text after the IPv6 address")
        }
        port = try parsePort(UnsafeBufferPointer(rebasing: bytes[(close + 2)...]))
      }
      hostEnd = close + 1
    } else if let colon = bytes.lastIndex(of: UInt8(ascii: ":")) {
      port = try parsePort(UnsafeBufferPointer(rebasing: bytes[(colon + 1)...]))
      hostEnd = colon
    }
    let hostBytes = UnsafeBufferPointer(rebasing: bytes[..<hostEnd])
    let host =
      hostBytes.allSatisfy { $0 < 0x80 }
      ? String(unsafeUninitializedCapacity: hostBytes.count) { buffer in
        for (index, byte) in hostBytes.enumerated() {
          buffer[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
        }
        return hostBytes.count
      }
      : String(decoding: hostBytes, as: UTF8.self).lowercased()
    guard !host.isEmpty else { throw ParseError(reason: "it has no host") }
    guard isValidHost(host) else { throw ParseError(reason: "'\(host)' is not a valid host name") }
    return (host, port)
  }

  private static func parsePort(_ digits: UnsafeBufferPointer<UInt8>) throws(ParseError) -> Int {
    var port = 0
    for byte in digits where digits.count <= 5 && byte >= 0x30 && byte <= 0x39 { port = port * 10 + Int(byte - 0x30) }
    guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      (1...65535).contains(port)
    else {
      throw ParseError(reason: "its port must be a number from 1 to 65535")
    }
    return port
  }

  /// Whether `host` is an LDH DNS name, an IPv4 literal, or a bracketed IPv6 literal.
  ///
  /// Checked on the UTF-8 bytes, so only ASCII passes: splitting the `String` into labels walked
  /// grapheme clusters (on `docker-credential get`'s path), and `Character.isHexDigit` also took fullwidth digits inside brackets.
  static func isValidHost(_ host: String) -> Bool {
    let bytes = host.utf8
    if bytes.first == UInt8(ascii: "[") {
      return bytes.count > 2 && bytes.last == UInt8(ascii: "]")
        && bytes.dropFirst().dropLast().allSatisfy {
          isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".")
        }
    }
    guard !bytes.isEmpty, bytes.count <= 253 else { return false }
    // Each label: 1 to 63 letters, digits and hyphens, not starting or ending with a hyphen.
    var labelLength = 0
    var previous = UInt8(ascii: ".")
    for byte in bytes {
      if byte == UInt8(ascii: ".") {
        guard labelLength > 0, previous != UInt8(ascii: "-") else { return false }
        labelLength = 0
      } else {
        let isLDH = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
        guard isLDH, labelLength > 0 || byte != UInt8(ascii: "-"), labelLength < 63 else { return false }
        labelLength += 1
      }
      previous = byte
    }
    return labelLength > 0 && previous != UInt8(ascii: "-")
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
  }

  /// The port to connect to: the explicit one, else 443 or 80.
  package var port: Int { explicitPort ?? (scheme == .https ? 443 : 80) }

  /// `host` or `host:port` when the port is not the scheme's default, as sent in `Host`.
  package var authority: String {
    if let explicitPort, explicitPort != (scheme == .https ? 443 : 80) { return "\(host):\(explicitPort)" }
    return host
  }

  /// Whether the host is a literal loopback address: 127.0.0.0/8 in canonical dotted decimal,
  /// or IPv6 `::1` (``IPAddress/loopback(_:)``, R98).
  ///
  /// Not the name `localhost`: it is resolved like any other name and may point elsewhere
  /// (RFC 8252 §8.3), so plain `http://` to it is refused like any other host.
  var isLoopback: Bool { loopbackAddress != nil }

  /// The address of a literal loopback host (4 or 16 bytes), nil for any other host: what the
  /// check allows is what the connection uses (``HTTPClient``), without a name lookup.
  var loopbackAddress: [UInt8]? { IPAddress.loopback(host) }

  /// The path and query with `suffix` appended to the path (no query may be present).
  package func appending(path suffix: String) -> WebURL {
    var copy = self
    let base = pathAndQuery.hasSuffix("/") ? String(pathAndQuery.dropLast()) : pathAndQuery
    copy.pathAndQuery = base + (suffix.hasPrefix("/") ? suffix : "/" + suffix)
    return copy
  }

  package var description: String { "\(scheme.rawValue)://\(authority)\(pathAndQuery)" }
}

extension Character {
  var isASCIIDigit: Bool { isASCII && isNumber }
}
