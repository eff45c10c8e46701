import Testing

import GHLoginTestSupport

@testable import GHLoginCore

@Suite struct JSONParseTests {
  @Test func parsesEveryKindOfValue() throws {
    let value = try JSON.parse(#" {"a": [1, -2.5e+3, true, false, null], "b": {"c": "d"}, "e": "" } "#)
    let expected: JSONValue = [
      "a": [1, .number("-2.5e+3"), true, false, nil],
      "b": ["c": "d"],
      "e": "",
    ]
    #expect(value == expected)
  }

  @Test func keepsKeyOrder() throws {
    let object = try #require(try JSON.parse(#"{"z":1,"a":2,"m":3}"#).objectValue)
    #expect(object.keys == ["z", "a", "m"])
  }

  @Test(arguments: [
    ("0", "0"), ("-0", "-0"), ("12", "12"), ("1.5", "1.5"), ("1e5", "1e5"), ("1E-5", "1E-5"),
    ("-0.0e+0", "-0.0e+0"), ("123456789012345678901234567890", "123456789012345678901234567890"),
  ])
  func keepsNumberLiterals(text: String, literal: String) throws {
    #expect(try JSON.parse(text) == .number(literal))
  }

  @Test func decodesEscapes() throws {
    let value = try JSON.parse(#""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00\u0000""#)
    #expect(value == .string("\"\\/\u{8}\u{C}\n\r\tAé€😀\u{0}"))
  }

  @Test func acceptsRawUTF8() throws {
    #expect(try JSON.parse("\"é€😀\"") == .string("é€😀"))
  }

  @Test func acceptsDepthOfSixtyFour() throws {
    let text = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
    #expect(throws: Never.self) { try JSON.parse(text) }
  }

  @Test func acceptsAllJSONWhitespace() throws {
    #expect(try JSON.parse(" \t\r\n[ \t\r\n1 \t\r\n] \t\r\n") == [1])
  }

  /// A duplicate key is refused however many keys come before it: found by the scan of a small
  /// object, and by the set a larger one switches to (a duplicate of the 1st, 15th, 16th and
  /// 17th key after 30 distinct ones; and one canonically equivalent spelling of a key).
  @Test(arguments: [0, 14, 15, 16, 29])
  func duplicateKeyAfterManyKeys(duplicated: Int) throws {
    let members = (0..<30).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
    let text = "{\(members),\"k\(duplicated)\":1}"
    #expect(throws: JSONError.self) { try JSON.parse(text) }
    do {
      _ = try JSON.parse(text)
    } catch {
      #expect(error.reason == "duplicate key \"k\(duplicated)\"")
    }
    #expect(try JSON.parse("{\(members)}").objectValue?.keys.count == 30)
  }

  @Test func canonicallyEquivalentKeysAreDuplicatesInSmallAndLargeObjects() throws {
    let many = (0..<20).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
    for prefix in ["", many + ","] {
      #expect(throws: JSONError.self) { try JSON.parse("{\(prefix)\"\u{E9}\":1,\"e\u{301}\":2}") }
    }
  }

  /// Each bad input with the exact line, column and reason reported.
  @Test(
    arguments: [
      ("", 1, 1, "unexpected end of input, expected a value"),
      ("   ", 1, 4, "unexpected end of input, expected a value"),
      (#"{"a":1,"a":2}"#, 1, 8, #"duplicate key "a""#),
      ("[1,]", 1, 4, "trailing comma before ]"),
      (#"{"a":1,}"#, 1, 8, "trailing comma before }"),
      ("// c\n1", 1, 1, "comments are not allowed"),
      ("[1 /* c */]", 1, 4, "comments are not allowed"),
      (#"{"a":1 /* c */}"#, 1, 8, "comments are not allowed"),
      ("{/*c*/}", 1, 2, "comments are not allowed"),
      ("01", 1, 2, "numbers must not have leading zeros"),
      ("-01", 1, 3, "numbers must not have leading zeros"),
      ("-", 1, 2, "expected a digit after '-'"),
      ("-a", 1, 2, "expected a digit after '-'"),
      ("1.", 1, 3, "expected a digit after the decimal point"),
      ("1.e3", 1, 3, "expected a digit after the decimal point"),
      ("1e", 1, 3, "expected a digit in the exponent"),
      ("1e+", 1, 4, "expected a digit in the exponent"),
      ("+1", 1, 1, "unexpected character '+', expected a value"),
      (".5", 1, 1, "unexpected character '.', expected a value"),
      ("1 2", 1, 3, "unexpected character '2' after the JSON value"),
      ("{} x", 1, 4, "unexpected character 'x' after the JSON value"),
      ("tru", 1, 1, "invalid literal, expected 'true'"),
      ("nul", 1, 1, "invalid literal, expected 'null'"),
      ("falsy", 1, 1, "invalid literal, expected 'false'"),
      ("True", 1, 1, "unexpected character 'T', expected a value"),
      (#""\ud800""#, 1, 2, "high surrogate \\u escape not followed by a low surrogate"),
      (#""\ud800\u0041""#, 1, 2, "high surrogate \\u escape not followed by a low surrogate"),
      (#""\ud800\n""#, 1, 2, "high surrogate \\u escape not followed by a low surrogate"),
      (#""\udc00""#, 1, 2, "lone low surrogate \\u escape"),
      (#""\u12""#, 1, 2, "invalid \\u escape: expected four hex digits"),
      (#""\u12g4""#, 1, 2, "invalid \\u escape: expected four hex digits"),
      (#""\x""#, 1, 2, "invalid escape sequence"),
      (#""\'""#, 1, 2, "invalid escape sequence"),
      ("\"a\tb\"", 1, 3, "control character byte 0x09 in a string; escape it"),
      ("\"a\nb\"", 1, 3, "control character byte 0x0A in a string; escape it"),
      ("\"abc", 1, 5, "unexpected end of input inside a string"),
      ("\"abc\\", 1, 6, "unexpected end of input inside a string"),
      ("[1", 1, 3, "unexpected end of input, expected ',' or ']'"),
      ("[1 2]", 1, 4, "unexpected character '2', expected ',' or ']'"),
      ("{", 1, 2, "unexpected end of input, expected a key"),
      ("{1:2}", 1, 2, "unexpected character '1', expected a key in double quotes"),
      ("{'a':1}", 1, 2, "unexpected character ''', expected a key in double quotes"),
      (#"{"a" 1}"#, 1, 6, "unexpected character '1', expected ':'"),
      (#"{"a":1"#, 1, 7, "unexpected end of input, expected ',' or '}'"),
      (#"{"a":1]"#, 1, 7, "unexpected character ']', expected ',' or '}'"),
      ("[,1]", 1, 2, "unexpected character ',', expected a value"),
      ("{\n  \"a\": [\n    1,\n    ]\n}", 4, 5, "trailing comma before ]"),
      ("[\"é€\", x]", 1, 8, "unexpected character 'x', expected a value"),
      ("NaN", 1, 1, "unexpected character 'N', expected a value"),
    ] as [(String, Int, Int, String)])
  func rejects(text: String, line: Int, column: Int, reason: String) {
    #expect(throws: JSONError(line: line, column: column, reason: reason)) { try JSON.parse(text) }
  }

  @Test(
    arguments: [
      [0x22, 0xFF, 0x22],  // never valid
      [0x22, 0xC0, 0xAF, 0x22],  // overlong '/'
      [0x22, 0xC1, 0xBF, 0x22],  // overlong
      [0x22, 0xE0, 0x80, 0xAF, 0x22],  // overlong 3-byte
      [0x22, 0xED, 0xA0, 0x80, 0x22],  // UTF-8-encoded surrogate U+D800
      [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
      [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22],
      [0x22, 0x80, 0x22],  // lone continuation byte
      [0x22, 0xE2, 0x82, 0x22],  // truncated sequence
      [0x22, 0xF0, 0x9F, 0x98],  // truncated at end of input
    ] as [[UInt8]])
  func rejectsInvalidUTF8(bytes: [UInt8]) {
    #expect(throws: JSONError(line: 1, column: 2, reason: "invalid UTF-8")) { try JSON.parse(bytes) }
  }

  @Test func rejectsNonASCIIOutsideStrings() {
    #expect(throws: JSONError(line: 1, column: 2, reason: "unexpected byte 0xC3, expected a value")) {
      try JSON.parse([0x5B, 0xC3, 0xA9, 0x5D])
    }
  }

  @Test func rejectsByteOrderMark() {
    #expect(throws: JSONError(line: 1, column: 1, reason: "a byte-order mark is not allowed")) {
      try JSON.parse([0xEF, 0xBB, 0xBF, 0x31])
    }
  }

  @Test func rejectsNUL() {
    #expect(throws: JSONError(line: 1, column: 2, reason: "unexpected byte 0x00 after the JSON value")) {
      try JSON.parse([0x31, 0x00])
    }
  }

  @Test func rejectsDepthOfSixtyFive() {
    let text = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
    #expect(throws: JSONError(line: 1, column: 65, reason: "arrays and objects are nested deeper than 64 levels")) {
      try JSON.parse(text)
    }
    let objects = String(repeating: #"{"a":"#, count: 65) + "1" + String(repeating: "}", count: 65)
    #expect(throws: JSONError.self) { try JSON.parse(objects) }
  }

  @Test func depthCountsOpenContainersOnly() throws {
    // 100 sibling arrays at depth 2 are fine.
    let text = "[" + Array(repeating: "[[]]", count: 100).joined(separator: ",") + "]"
    #expect(try JSON.parse(text).arrayValue?.count == 100)
  }

  @Test func rejectsInputOverFourMiB() {
    let big = [UInt8](repeating: 0x20, count: 4 * 1024 * 1024 + 1)
    #expect(throws: JSONError(line: 1, column: 1, reason: "the input is larger than 4 MiB")) { try JSON.parse(big) }
    var justFits = [UInt8](repeating: 0x20, count: 4 * 1024 * 1024)
    justFits[0] = UInt8(ascii: "1")
    #expect(throws: Never.self) { try JSON.parse(justFits) }
  }

  @Test func randomBytesNeverCrash() throws {
    var generator = SplitMix64(seed: 0x5EED)
    let alphabet = Array(#"{}[]:,"\/ -+.eE0123456789tfnulrsabu"#.utf8) + [0x00, 0x0A, 0xC3, 0xA9, 0xED, 0xF0, 0xFF]
    for round in 0..<3000 {
      let length = Int(generator.next() % 64)
      let bytes: [UInt8] = (0..<length).map { _ in
        round.isMultiple(of: 2)
          ? UInt8(truncatingIfNeeded: generator.next()) : alphabet[Int(generator.next() % UInt64(alphabet.count))]
      }
      if let value = try? JSON.parse(bytes) {
        // Whatever parses must round-trip.
        #expect(try JSON.parse(JSON.serialize(value)) == value)
      }
    }
  }
}

@Suite struct JSONSerializeTests {
  @Test func compactAndPretty() {
    let value: JSONValue = ["b": [1, "x", nil], "a": [:], "c": [], "d": ["e": false]]
    #expect(JSON.serialize(value) == #"{"b":[1,"x",null],"a":{},"c":[],"d":{"e":false}}"#)
    #expect(
      JSON.serialize(value, pretty: true) == """
        {
          "b": [
            1,
            "x",
            null
          ],
          "a": {},
          "c": [],
          "d": {
            "e": false
          }
        }

        """)
  }

  @Test func escapesQuotesBackslashesAndControlCharacters() {
    let text = "q\"b\\s/\n\r\t\u{0}\u{1}\u{1F}\u{7F}é😀"
    #expect(JSON.serialize(.string(text)) == #""q\"b\\s/\n\r\t\u0000\u0001\u001f\u007fé😀""#)
  }

  @Test(arguments: [
    "", "plain", "\"\\", "\u{0}\u{1}\u{2}\u{8}\u{C}\u{1B}[31m", "line\nbreak", "é€😀", "\u{2028}\u{2029}", "a\u{301}",
  ])
  func stringsRoundTrip(text: String) throws {
    let value: JSONValue = ["k\(text)": .string(text)]
    #expect(try JSON.parse(JSON.serialize(value)) == value)
    #expect(try JSON.parse(JSON.serialize(value, pretty: true)) == value)
  }

  @Test func nestedValuesRoundTrip() throws {
    let value: JSONValue = [
      "version": 1, "hosts": ["github.com": ["accounts": [["login": "a", "n": .number("1.5e-3")]]]],
    ]
    #expect(try JSON.parse(JSON.serialize(value, pretty: true)) == value)
  }

  @Test func doubleInitializer() {
    #expect(JSONValue(double: 1_700_000_000) == .number("1700000000"))
    #expect(JSONValue(double: 1.5) == .number("1.5"))
    #expect(JSONValue(double: -0.25) == .number("-0.25"))
    #expect(JSONValue(double: .nan) == nil)
    #expect(JSONValue(double: .infinity) == nil)
    let tiny = JSONValue(double: 1e-7)
    #expect(tiny?.doubleValue == 1e-7)
    #expect(throws: Never.self) { try JSON.parse(JSON.serialize(tiny ?? .null)) }
    #expect(JSONValue(double: 1e300)?.doubleValue == 1e300)
  }
}

@Suite struct JSONValueTests {
  @Test func accessors() {
    #expect(JSONValue.string("s").stringValue == "s")
    #expect(JSONValue.number("1").stringValue == nil)
    #expect(JSONValue.number("42").intValue == 42)
    #expect(JSONValue.number("-7").intValue == -7)
    #expect(JSONValue.number("1.0").intValue == nil)
    #expect(JSONValue.number("1e2").intValue == nil)
    #expect(JSONValue.number("99999999999999999999").intValue == nil)
    #expect(JSONValue.string("1").intValue == nil)
    #expect(JSONValue.number("2.5").doubleValue == 2.5)
    #expect(JSONValue.bool(true).boolValue == true)
    #expect(JSONValue.null.boolValue == nil)
    #expect(JSONValue.array([1]).arrayValue == [1])
    #expect(JSONValue.object(JSONObject()).objectValue == JSONObject())
    #expect(JSONValue.null.isNull)
    #expect(
      [JSONValue.null, true, 1, "s", [], [:]].map(\.typeName) == [
        "null", "boolean", "number", "string", "array", "object",
      ])
  }

  @Test func objectSubscript() {
    var object = JSONObject([(key: "a", value: 1), (key: "b", value: 2)])
    #expect(object["a"] == 1)
    #expect(object["z"] == nil)
    object["a"] = 3
    object["c"] = 4
    #expect(object.keys == ["a", "b", "c"])
    #expect(object["a"] == 3)
    object["b"] = nil
    object["missing"] = nil
    #expect(object.keys == ["a", "c"])
  }

  @Test func objectEqualityIsOrderSensitive() {
    #expect(
      JSONObject([(key: "a", value: 1), (key: "b", value: 2)])
        != JSONObject([(key: "b", value: 2), (key: "a", value: 1)]))
    #expect(JSONObject([(key: "a", value: 1)]) != JSONObject([(key: "a", value: 2)]))
  }
}

/// Issue 30: numbers of up to 15 digits without an exponent become `Double`s without `strtod`,
/// and must be the very `Double`s `strtod` gives.
@Suite struct JSONShortDecimalTests {
  @Test(arguments: [
    "0", "-0", "1", "-1", "0.1", "0.3", "1796555149.75", "1812456350.5", "1700000000",
    "999999999999999", "-999999999999999", "0.00000000000001", "123456789012.345", "1.00000000000000",
    "9007199254740.99", "2.2250738585072", "-0.00000000000000",
  ])
  func givesWhatStrtodGives(_ text: String) throws {
    let fast = try #require(JSONValue.shortDecimal(text))
    let slow = try #require(Double(text))
    #expect(fast.bitPattern == slow.bitPattern, "\(text): \(fast) != \(slow)")
  }

  /// Longer numbers, exponents and what is not a JSON number are left to `strtod`.
  @Test(arguments: [
    "1234567890123456", "0.000000000000001", "9007199254740.993", "1e5", "1E5", "1.5e-3",
    "", "-", ".", "1..2", "--1", "1-", "+1", "0x10", " 1", "1 ",
  ])
  func leavesTheRestToStrtod(_ text: String) {
    #expect(JSONValue.shortDecimal(text) == nil)
  }

  @Test func agreesWithStrtodOnRandomShortDecimals() throws {
    var random = SplitMix64(seed: 30)
    for _ in 0..<20_000 {
      let digits = Int.random(in: 1...15, using: &random)
      var text = (0..<digits).map { _ in String(Int.random(in: 0...9, using: &random)) }.joined()
      let point = Int.random(in: 0...digits, using: &random)
      if point < digits { text.insert(".", at: text.index(text.startIndex, offsetBy: max(point, 1))) }
      if Bool.random(using: &random) { text = "-" + text }
      let fast = try #require(JSONValue.shortDecimal(text), "\(text)")
      let slow = try #require(Double(text))
      #expect(fast.bitPattern == slow.bitPattern, "\(text): \(fast) != \(slow)")
    }
  }

  @Test func theStoresTimesReadBackExactly() {
    #expect(JSONValue.number("1796555149.75").doubleValue == 1_796_555_149.75)
    #expect(JSONValue.number("1.5e3").doubleValue == 1500)
    #expect(JSONValue.number("12345678901234567").doubleValue == 12_345_678_901_234_568)
  }
}

/// A small deterministic generator so the random test is reproducible.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
