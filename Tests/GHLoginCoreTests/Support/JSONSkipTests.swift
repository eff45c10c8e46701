import Testing

@testable import GHLoginCore

/// Issue 30: the other hosts' entries of a credentials file are stepped over, not built
/// (``JSONParser/parseDocument(deferring:)``), by a loop that takes plain values alone and
/// leaves everything else to the checking skip. Whatever a value is, the deferred read refuses
/// exactly what the whole parse refuses, at the same position with the same message (duplicate
/// keys inside a value aside, which only the whole parse looks for), and where it accepts, the
/// value it points at parses to what the whole parse built.
@Suite struct JSONSkipTests {
  /// Each one the value of member "a" of the deferred object, followed by another member.
  static let values: [String] = [
    // Plain, accepted.
    #"{"login": "octocat", "user_id": 1, "scopes": ["repo", "gist"], "expires_at": 1700000000.5}"#,
    #"[1, -2.5e+3, 0, -0, 0.25E-2, 1e5, true, false, null, "s", {}, [], { }, [ ], {"k": [[]]}]"#,
    "\"\"",
    "-12",
    "null",
    // Digit runs across the eight-byte steps (a digit, then each byte that is not one).
    "12345678901234567890",
    "[1796496628.75, 17964966281234567.5e1234567890, 1234567/]",
    "[12345678:]",
    "[123456789@]",
    "[1234567890`]",
    "[12345678\u{7F}]",
    "[1234567\u{A0}9]",
    "[12345678]",
    "[1234567812345678.12345678e12345678]",
    "[0.1234567, 7654321.0e-87654321]",
    "{\n  \"a\": {\n    \"b\": [\n      1,\n      2\n    ]\n  }\r\n\t}",
    // Valid, but not plain: the checking skip takes them.
    #"{"k": "a\nb"}"#,
    #"{"k\"": 1}"#,
    "[\"caf\u{E9}\"]",
    #"["\ud83d\ude00"]"#,
    #"{"a": 1, "a": 2}"#,
    // Refused, each its own way.
    "[1,]",
    #"{"a": 1,}"#,
    "[01]",
    "[-]",
    "[1.]",
    "[1e]",
    "[1e+]",
    "[.5]",
    "[+1]",
    "tru",
    "nul",
    "falsy",
    #"{"a" 1}"#,
    // Not a colon but one byte before a value that would be plain: refused, never stepped over.
    #"{"a" x"b"}"#,
    #"{"a",1}"#,
    #"{"a";true}"#,
    #"{"a": }"#,
    "{,}",
    "[,1]",
    #"{"a": 1 "b": 2}"#,
    "[1 2]",
    "[}",
    #"{"a": 1]"#,
    "{1: 2}",
    "[\"\u{1}\"]",
    "[\"abc]",
    "[\"\\x\"]",
    "[\"\\u12\"]",
    "[\"\u{7F}\"]",
    "[// comment\n1]",
    "[1] // comment",
    "",
    "{",
    "[[[",
    "[\"\\ud800\"]",
    "{\"k\": \"\u{FFFD}\"}",
  ]

  /// Nesting around the depth limit: the document's own two levels plus `levels` arrays.
  static let nestings: [String] = [61, 62, 63, 64].flatMap(nested)

  static func nested(_ levels: Int) -> [String] {
    let arrays = String(repeating: "[", count: levels)
    let arraysClosed = String(repeating: "]", count: levels)
    let objects = String(repeating: #"{"k": "#, count: levels)
    let objectsClosed = String(repeating: "}", count: levels)
    return [arrays + arraysClosed, arrays + "1" + arraysClosed, objects + "1" + objectsClosed]
  }

  @Test(arguments: T.values + T.nestings)
  func theDeferredReadAgreesWithTheWholeParse(_ value: String) throws {
    let prefix = #"{"version": 1, "hosts": {"a": "#
    let bytes = Array((prefix + value + #", "b": {}}}"#).utf8)
    var whole: Result<JSONValue, JSONError>
    do { whole = .success(try JSON.parse(bytes)) } catch { whole = .failure(error) }
    // The deferred read alone: the value is stepped over, not built.
    let deferred = bytes.withUnsafeBufferPointer { buffer in
      var parser = JSONParser(buffer: buffer)
      return Result { () throws(JSONError) in try parser.parseDocument(deferring: "hosts").members }
    }
    switch (whole, deferred) {
    case (.success(let document), .success(let members)):
      let members = try #require(members)
      #expect(bytes.withUnsafeBufferPointer { members.keys(in: $0) } == ["a", "b"])
      #expect(members.values[0] == prefix.utf8.count..<prefix.utf8.count + value.utf8.count)
      let member = try bytes.withUnsafeBufferPointer { buffer throws(JSONError) in
        var parser = JSONParser(buffer: buffer)
        return try parser.parseValue(at: members.values[0])
      }
      #expect(member == document.objectValue?["hosts"]?.objectValue?["a"])
    case (.failure(let expected), .failure(let error)):
      #expect(error == expected)
    case (.failure(let expected), .success):
      // Only a duplicate key inside a value may pass the deferred read until it is built.
      #expect(expected.reason.hasPrefix("duplicate key"), "deferred read accepted: \(expected)")
    default:
      Issue.record("whole parse \(whole), deferred read \(deferred)")
    }
  }

  typealias T = JSONSkipTests
}
