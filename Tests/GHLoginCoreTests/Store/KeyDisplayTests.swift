import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// Keys and host names quoted in config, credentials and JSON messages are escaped so that
/// nothing in them can act on a terminal. Regression cases found by the `config` and
/// `credentials` fuzz targets (Fuzz/RESULTS.md): JSON escaping alone let a right-to-left override
/// (U+202E), a byte-order mark (U+FEFF) and C1 controls such as CSI (U+009B) through, in unknown
/// keys and in the JSON parser's "duplicate key" message.
@Suite struct KeyDisplayTests {
  @Test(arguments: [
    ("c\u{202E}.", #"c\u202e."#),
    ("hostRepxtra\u{FEFF}", #"hostRepxtra\ufeff"#),
    ("\u{9B}31m", #"\u009b31m"#),
    ("a\u{2028}b\u{2029}", #"a\u2028b\u2029"#),
    ("x\u{1B}[2J\u{7F}", #"x\u001b[2J\u007f"#),
    ("quote\"back\\slash", #"quote\"back\\slash"#),
    ("héllo 🙂", "héllo 🙂"),
  ])
  func escapesWhatCouldActOnATerminal(key: String, shown: String) {
    #expect(ConfigDecoder.display(key) == shown)
  }

  /// config fuzz crash-3c7e629f: `{"c\u202E.":"x"}` (raw bytes E2 80 AE).
  @Test func configUnknownKeyWithBidiOverride() throws {
    let bytes: [UInt8] = [0x7B, 0x22, 0x63, 0xE2, 0x80, 0xAE, 0x2E, 0x22, 0x3A, 0x22, 0x78, 0x22, 0x7D]
    let error = try #require(throws: ConfigError.self) {
      try Config.parse(bytes: bytes, file: "/c.json", variables: [:])
    }
    #expect(error.message == #"/c.json: unknown key "c\u202e.""#)
    #expect(!error.message.unicodeScalars.contains(where: Sanitize.isUnsafe))
  }

  /// credentials fuzz crash-fd0e0ec0: an unknown top-level key ending in a raw U+FEFF.
  @Test func credentialsUnknownKeyWithByteOrderMark() throws {
    let bytes = Array(#"{"version":1,"hostRepxtra"#.utf8) + [0xEF, 0xBB, 0xBF] + Array(#"":1}"#.utf8)
    let error = try #require(throws: CredentialCoding.Failure.self) { try CredentialCoding.decode(bytes) }
    #expect(error == .invalid(#"unknown key "hostRepxtra\ufeff""#))
  }

  /// config fuzz crash-368e9f0a: a `hosts` block repeating a key with a raw U+202E; the JSON
  /// parser's own "duplicate key" text quoted it unescaped.
  @Test func duplicateKeyWithBidiOverride() throws {
    let key = Array("a.ex".utf8) + [0xE2, 0x80, 0xAE] + Array("ample".utf8)
    let bytes = Array(#"{"hosts":{""#.utf8) + key + Array(#"":{},""#.utf8) + key + Array(#"":{}}}"#.utf8)
    let jsonError = try #require(throws: JSONError.self) { try JSON.parse(bytes) }
    #expect(jsonError.reason == #"duplicate key "a.ex\u202eample""#)
    let error = try #require(throws: ConfigError.self) {
      try Config.parse(bytes: bytes, file: "/c.json", variables: [:])
    }
    #expect(error.message == #"/c.json: invalid JSON at line 1, column 27: duplicate key "a.ex\u202eample""#)
    #expect(!error.message.unicodeScalars.contains(where: Sanitize.isUnsafe))
  }

  @Test func escapedIsWhatDisplayShows() {
    #expect(Sanitize.escaped("x\u{85}\u{2066}y\"") == #"x\u0085\u2066y\""#)
    #expect(ConfigDecoder.display("x\u{85}") == Sanitize.escaped("x\u{85}"))
  }
}
