/// The syntax of a token ghlogin stores and sends: RFC 6750 §2.1's `b64token`.
///
/// `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`: at least one of those
/// characters, then only `=` padding. Nothing else (no space, quote, comma, control or non-ASCII
/// byte), so a token can go into an `Authorization` header and git's `key=value` credential
/// protocol unchanged (R30, R74).
enum BearerToken {
  /// The longest token accepted; GitHub's longest today are about 520 characters.
  static let maxLength = 4096

  /// Whether `token` can go into an `Authorization` header and the git credential protocol (R30, R74).
  ///
  /// Otherwise opaque: a `b64token` (``isValid(_:)``: letters, digits, `-._~+/`, then only `=`
  /// padding; so no whitespace, quotes, controls or non-ASCII), at most ``maxLength`` long.
  static func isUsable(_ token: String) -> Bool {
    token.utf8.count <= maxLength && isValid(token)
  }

  /// Whether `token` is a `b64token`. No length limit here; callers add their own.
  static func isValid(_ token: String) -> Bool {
    // On the contiguous bytes when the string has them (every native string): iterating the
    // UTF-8 view byte by byte costs more, for each token of the credentials file.
    if let valid = token.utf8.withContiguousStorageIfAvailable({ isValid(bytes: $0) }) { return valid }
    return isValid(bytes: Array(token.utf8))
  }

  private static func isValid(bytes: some Collection<UInt8>) -> Bool {
    var sawPadding = false
    var count = 0
    for byte in bytes {
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

/// An OAuth scope list as GitHub writes it: in a token response's `scope` and the
/// `X-OAuth-Scopes` header.
enum ScopeList {
  /// Splits GitHub's comma-separated scope list (spaces tolerated, RFC 6749 §3.3).
  package static func split(_ text: String) -> [String] {
    text.split { $0 == "," || $0 == " " || $0 == "\t" }.map(String.init)
  }
}
