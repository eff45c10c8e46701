import Testing

@testable import GHLoginKit

/// Keys and host names quoted in config and credentials messages are escaped so that nothing
/// in them can act on a terminal. Regression cases found by the `config` and `credentials`
/// fuzz targets (Fuzz/RESULTS.md): JSON escaping alone let a right-to-left override (U+202E),
/// a byte-order mark (U+FEFF) and C1 controls such as CSI (U+009B) through.
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
}
