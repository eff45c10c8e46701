/// `application/x-www-form-urlencoded` and URL query encoding (RFC 3986 §2, WHATWG URL).
package enum FormEncoding {
  /// Percent-encodes every byte outside the unreserved set `A-Z a-z 0-9 - . _ ~`.
  static func percentEncode(_ value: String) -> String {
    var out = ""
    out.reserveCapacity(value.utf8.count)
    for byte in value.utf8 {
      if isUnreserved(byte) {
        out.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        out += "%" + hexDigit(byte >> 4) + hexDigit(byte & 0xF)
      }
    }
    return out
  }

  /// `name=value&...` with every name and value percent-encoded; order kept.
  package static func encode(_ pairs: [(String, String)]) -> String {
    pairs.map { percentEncode($0.0) + "=" + percentEncode($0.1) }.joined(separator: "&")
  }

  /// Why a query or form body could not be decoded.
  package struct DecodeError: Error, Equatable, Sendable {
    package var reason: String
  }

  /// Decodes `a=b&c=d`, turning `+` into a space and percent-escapes into bytes, exactly once.
  ///
  /// Splits on the bytes `&` and `=`, never on `Character`s (a combining mark after a separator
  /// would form one grapheme with it). Invalid percent-encoding and invalid UTF-8 are errors,
  /// not guesses.
  /// Duplicate names are kept; callers that need single values check for them.
  package static func decode(_ text: Substring) throws(DecodeError) -> [(name: String, value: String)] {
    if text.isEmpty { return [] }
    var pairs: [(name: String, value: String)] = []
    for part in text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
      let pieces = part.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
      let name = try unescape(pieces[0])
      let value = pieces.count > 1 ? try unescape(pieces[1]) : ""
      pairs.append((name, value))
    }
    return pairs
  }

  private static func unescape(_ text: Substring.UTF8View) throws(DecodeError) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.count)
    var iterator = text.makeIterator()
    while let byte = iterator.next() {
      switch byte {
      case UInt8(ascii: "+"): bytes.append(0x20)
      case UInt8(ascii: "%"):
        guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
          throw DecodeError(reason: "invalid percent-encoding")
        }
        bytes.append(high << 4 | low)
      default: bytes.append(byte)
      }
    }
    guard let string = String(validating: bytes, as: UTF8.self) else { throw DecodeError(reason: "invalid UTF-8") }
    return string
  }

  private static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
      UInt8(ascii: "~"):
      return true
    default: return false
    }
  }

  private static func hexDigit(_ nibble: UInt8) -> String {
    String(UnicodeScalar(nibble < 10 ? nibble + 0x30 : nibble + 0x37))
  }

  /// The value of one hex digit (either case), or nil. Shared with the proxy user-info decoder.
  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - 0x30
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - 0x57
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - 0x37
    default: nil
    }
  }
}
