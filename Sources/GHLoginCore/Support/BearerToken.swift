/// The syntax of a token ghlogin stores and sends: RFC 6750 §2.1's `b64token`.
///
/// `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`: at least one of those
/// characters, then only `=` padding. Nothing else (no space, quote, comma, control or non-ASCII
/// byte), so a token can go into an `Authorization` header and git's `key=value` credential
/// protocol unchanged (R30, R74).
package enum BearerToken {
  /// Whether `token` is a `b64token`. No length limit here; callers add their own.
  package static func isValid(_ token: String) -> Bool {
    var sawPadding = false
    var count = 0
    for byte in token.utf8 {
      if byte == UInt8(ascii: "=") {
        sawPadding = true
        continue
      }
      guard !sawPadding, isTokenCharacter(byte) else { return false }
      count += 1
    }
    return count > 0
  }

  /// ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/".
  private static func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"),
      UInt8(ascii: "/"):
      return true
    default:
      return false
    }
  }
}
