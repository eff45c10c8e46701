/// An absolute `http` or `https` URL, parsed strictly.
///
/// Only what ghlogin needs: scheme, host, optional port, and the path with
/// its query. User info, fragments, whitespace, control characters and
/// non-ASCII bytes are refused, so a value from a config file or a server can
/// never smuggle a second host or a header into a request.
package struct WebURL: Sendable, Hashable, CustomStringConvertible {
  package enum Scheme: String, Sendable { case http, https }

  package var scheme: Scheme
  /// The host, ASCII-lowercased; an IPv6 literal keeps its brackets.
  package var host: String
  /// The port given in the URL, or nil for the scheme's default.
  package var explicitPort: Int?
  /// The path and query, always starting with `/`.
  package var pathAndQuery: String

  package init(scheme: Scheme, host: String, port: Int? = nil, pathAndQuery: String = "/") {
    self.scheme = scheme
    self.host = host
    self.explicitPort = port
    self.pathAndQuery = pathAndQuery
  }

  /// Why a string is not a URL ghlogin accepts.
  package struct ParseError: Error, Equatable, Sendable {
    package var reason: String
  }

  /// Parses `text`, or throws a ``ParseError`` saying what is wrong with it. Searched on the
  /// UTF-8 bytes (the text is ASCII once the first check passes): `Character` searches walk
  /// grapheme clusters, which made the config's endpoint URLs the most of `token`'s own work.
  package init(parsing text: String) throws(ParseError) {
    // One pass over the contiguous bytes finds every offset (each byte is ASCII once the first
    // check passes, so a byte offset is a character's); the checks then run in their order.
    var copy = text
    let scan = copy.withUTF8 { Self.scan($0) }
    if scan.hasForbiddenByte {
      throw ParseError(reason: "it contains a space, a control character or a non-ASCII character")
    }
    guard let schemeEnd = scan.schemeEnd else {
      throw ParseError(reason: "it is not an absolute URL (expected https://HOST/...)")
    }
    let bytes = text.utf8
    let schemeEndIndex = bytes.index(bytes.startIndex, offsetBy: schemeEnd)
    guard let scheme = Scheme(rawValue: text[..<schemeEndIndex].lowercased()) else {
      throw ParseError(reason: "only https:// URLs are supported")
    }
    if scan.hasFragment { throw ParseError(reason: "it has a fragment (#...)") }
    let authorityStart = bytes.index(schemeEndIndex, offsetBy: 3)
    let authorityEnd = bytes.index(bytes.startIndex, offsetBy: scan.authorityEnd)
    var path = String(text[authorityEnd...])
    if path.isEmpty || path.utf8.first == UInt8(ascii: "?") { path = "/" + path }
    if scan.authorityHasAt {
      throw ParseError(reason: "it has user info (user@host); put credentials in the config instead")
    }

    let (host, port) = try Self.parseAuthority(text[authorityStart..<authorityEnd])
    self.init(scheme: scheme, host: host, port: port, pathAndQuery: path)
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
    var hostPart = authority
    var port: Int?
    // Searched on the UTF-8 bytes: the delimiters are ASCII, so their indices are valid in the
    // text; a non-ASCII host still fails `isValidHost` below.
    if hostPart.utf8.first == UInt8(ascii: "[") {
      guard let close = hostPart.utf8.firstIndex(of: UInt8(ascii: "]")) else {
        throw ParseError(reason: "its IPv6 address is not closed with ]")
      }
      let after = hostPart[hostPart.utf8.index(after: close)...]
      if !after.isEmpty {
        guard after.utf8.first == UInt8(ascii: ":") else {
          throw ParseError(reason: "unexpected text after the IPv6 address")
        }
        port = try parsePort(after[after.utf8.index(after: after.startIndex)...])
      }
      hostPart = hostPart[...close]
    } else if let colon = hostPart.utf8.lastIndex(of: UInt8(ascii: ":")) {
      port = try parsePort(hostPart[hostPart.utf8.index(after: colon)...])
      hostPart = hostPart[..<colon]
    }
    let host = hostPart.lowercased()
    guard !host.isEmpty else { throw ParseError(reason: "it has no host") }
    guard isValidHost(host) else { throw ParseError(reason: "'\(host)' is not a valid host name") }
    return (host, port)
  }

  private static func parsePort(_ text: Substring) throws(ParseError) -> Int {
    guard !text.isEmpty, text.utf8.count <= 5, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let port = Int(text),
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
