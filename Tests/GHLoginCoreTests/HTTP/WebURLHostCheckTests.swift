import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// `WebURL.isValidHost` checks bytes; it must accept exactly what the `String` version it
/// replaced accepted, except non-ASCII "hex digits" (fullwidth `０`) inside brackets.
@Suite struct WebURLHostCheckTests {
  /// The check as it was (labels split on `Character`s).
  static func before(_ host: String) -> Bool {
    if host.hasPrefix("[") {
      let inner = host.dropFirst().dropLast()
      return host.hasSuffix("]") && !inner.isEmpty && inner.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }
    guard !host.isEmpty, host.utf8.count <= 253 else { return false }
    return host.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
      !label.isEmpty && label.utf8.count <= 63 && label.first != "-" && label.last != "-"
        && label.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }
  }

  static let long63 = String(repeating: "a", count: 63)

  @Test(arguments: [
    ("ghcr.io", true), ("github.com", true), ("a", true), ("127.0.0.1", true), ("a-b.c", true),
    ("[::1]", true), ("[2001:db8::1]", true), ("[::ffff:127.0.0.1]", true), ("[A:b]", true),
    ("", false), (".", false), ("a.", false), (".a", false), ("a..b", false), ("-a.b", false),
    ("a-.b", false), ("a.b-", false), ("A.b", false), ("a_b", false), ("a b", false), ("é.com", false),
    ("[]", false), ("[", false), ("[::1", false), ("[g::1]", false), ("[\u{FF10}::1]", false),
    ("\(long63).com", true), ("\(long63)a.com", false),
    (Array(repeating: "a", count: 127).joined(separator: "."), true),
    (Array(repeating: "a", count: 128).joined(separator: "."), false),
  ])
  func hosts(host: String, valid: Bool) {
    #expect(WebURL.isValidHost(host) == valid)
  }

  @Test func agreesWithTheCharacterVersionOnRandomHosts() {
    let alphabet: [String] = [
      "a", "z", "0", "9", "-", ".", "[", "]", ":", "A", "_", " ", "é", "\u{301}", "\u{FF10}", "f",
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let length = Int.random(in: 0...12, using: &generator)
      let host = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }.joined()
      let expected = Self.before(host) && !(host.hasPrefix("[") && host.utf8.contains { $0 >= 0x80 })
      #expect(WebURL.isValidHost(host) == expected, "\(host.debugDescription)")
    }
  }
}
