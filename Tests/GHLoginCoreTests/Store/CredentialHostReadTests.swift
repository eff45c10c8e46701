import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// Issue 30: a command on one host decodes only that host's entry
/// (``CredentialCoding/decode(_:host:)``); the file is still checked as JSON, and the entry it
/// needs as ``CredentialCoding/decode(_:)`` checks it, with the same messages.
@Suite struct CredentialHostReadTests {
  typealias T = CredentialHostReadTests

  static func account(_ login: String, _ id: Int, token: String = "gho_hostReadToken0123456789") -> String {
    #"{"login": "\#(login)", "user_id": \#(id), "token": "\#(token)", "token_type": "bearer", "scopes": ["repo"], "created_at": 1700000000}"#
  }

  static func file(_ hosts: String, version: String = "1") -> [UInt8] {
    Array(#"{"version": \#(version), "hosts": {\#(hosts)}}"#.utf8)
  }

  static let good = #""github.test": {"active": "octocat", "accounts": [\#(account("octocat", 1))]}"#

  /// What the whole-file read of `good` alone gives.
  static func expected() throws -> Credentials { try CredentialCoding.decode(file(good)) }

  /// Another host's entry that the whole-file read refuses, each its own way.
  static let badOthers: [String] = [
    #""other.test": {"accounts": [{"login": "x", "user_id": 2, "token_type": "bearer", "scopes": [], "created_at": 1}]}"#,
    #""other.test": {"accounts": [], "extra": 1}"#,
    #""other.test": {"accounts": [{"login": "x", "login": "y"}]}"#,
    #""other.test": 42"#,
    #""Bad Host": {"accounts": []}"#,
    #""other.test": {"accounts": [\#(account("m", 2, token: "has space"))]}"#,
  ]

  @Test(arguments: T.badOthers)
  func anotherHostsBadEntryDoesNotFailTheHostRead(_ other: String) throws {
    for hosts in [Self.good + ", " + other, other + ", " + Self.good] {
      let bytes = Self.file(hosts)
      #expect(throws: CredentialCoding.Failure.self) { try CredentialCoding.decode(bytes) }
      #expect(try CredentialCoding.decode(bytes, host: "github.test") == Self.expected())
    }
  }

  /// The needed host's bad entry fails with the whole-file read's message; so does anything
  /// wrong at the top level, a duplicate host name, and JSON that is not valid anywhere.
  @Test(arguments: [
    T.file(
      #""github.test": {"accounts": [{"login": "x", "user_id": 2, "token_type": "bearer", "scopes": [], "created_at": 1}]}"#
    ),
    T.file(#""github.test": {"active": "a", "active": "b", "accounts": []}"#),
    T.file(#""github.test": {"accounts": [{"login": "x", "login": "y"}]}"#),
    T.file(#""github.test": {"accounts": [\#(T.account("m", 2, token: "has space"))]}"#),
    T.file(T.good + ", " + T.good),
    T.file(T.good + #", "other.test": {"accounts": [1,]}"#),
    T.file(T.good + #", "other.test": {"accounts": ["\u12"]}"#),
    T.file(T.good + #", "other.test": {"accounts": [01]}"#),
    T.file(T.good + #", "other.test": {"a": tru}"#),
    T.file(T.good + #", "other.test": "\#u{1}""#),
    T.file(T.good) + Array(#" {"#.utf8),
    Array(#"{"version": 1, "version": 1, "hosts": {}}"#.utf8),
    Array(#"{"version": 1, "hosts": {\#(T.good)}, "hosts": {}}"#.utf8),
    Array(#"{"version": 1, "hosts": {\#(T.good)}, "other": 1}"#.utf8),
    Array(#"{"version": 1, "hosts": []}"#.utf8),
    Array(#"{"hosts": {\#(T.good)}}"#.utf8),
    T.file(T.good, version: "5"),
    T.file(T.good, version: "1.0"),
    Array(#"[]"#.utf8),
  ])
  func whatTheHostReadStillRefuses(_ bytes: [UInt8]) throws {
    var whole: CredentialCoding.Failure?
    do { _ = try CredentialCoding.decode(bytes) } catch { whole = error }
    let expected = try #require(whole)
    #expect(throws: expected) { try CredentialCoding.decode(bytes, host: "github.test") }
  }

  /// A host not in the file: no entry, the others not decoded; nothing chosen: no entry.
  @Test func noEntryForTheHost() throws {
    let bytes = Self.file(Self.good + ", " + Self.badOthers[0])
    #expect(try CredentialCoding.decode(bytes, host: "example.test") == Credentials())
    #expect(try CredentialCoding.decode(bytes, choosingHost: { _ in nil }) == Credentials())
    var offered: [String] = []
    _ = try CredentialCoding.decode(
      bytes,
      choosingHost: { names in
        offered = names
        return nil
      })
    #expect(offered == ["github.test", "other.test"])
  }

  /// Duplicate host names in a long `hosts` object (past the sixteen names compared one by one,
  /// where the host read looks ASCII names up by their bytes): found at the same position, with
  /// the same message, as the whole-file parse finds them, also when the names are not ASCII and
  /// only canonically equal (KELVIN SIGN and `K`), and not found where there are none.
  @Test(arguments: [
    (0..<40).map { "h\($0).test" } + ["h7.test"],
    (0..<40).map { "h\($0).test" } + ["h39.test"],
    (0..<200).map { "h\($0).test" } + ["h150.test"],
    (0..<20).map { "h\($0).test" } + ["\u{212A}.test", "K.test"],
    (0..<20).map { "h\($0).test" } + ["K.test", "\u{212A}.test"],
    ["\u{212A}.test"] + (0..<20).map { "h\($0).test" } + ["K.test"],
    ["caf\u{E9}.test"] + (0..<30).map { "h\($0).test" } + ["cafe\u{301}.test"],
    (0..<30).map { "h\($0).test" } + ["\u{E9}.test"] + (30..<60).map { "h\($0).test" } + ["h3.test"],
    (0..<300).map { "h\($0).test" },
    (0..<30).map { "h\($0).test" } + ["\u{E9}.test"] + (30..<60).map { "h\($0).test" },
  ])
  func duplicateHostNamesInALongFile(_ names: [String]) throws {
    let bytes = Self.file(names.map { "\"\($0)\": {\"accounts\": []}" }.joined(separator: ",\n  "))
    let (wholeError, hostError) = Self.errors(bytes)
    #expect(hostError == wholeError)
    #expect((wholeError != nil) == (Set(names).count != names.count))
    if let wholeError { #expect(wholeError.reason.hasPrefix("duplicate key")) }
  }

  /// What the whole parse and the deferred read of `bytes` refuse (nil: accepted).
  static func errors(_ bytes: [UInt8]) -> (whole: JSONError?, deferred: JSONError?) {
    var whole: JSONError?
    do { _ = try JSON.parse(bytes) } catch { whole = error }
    var deferred: JSONError?
    do {
      _ = try bytes.withUnsafeBufferPointer { buffer throws(JSONError) in
        var parser = JSONParser(buffer: buffer)
        return try parser.parseDocument(deferring: "hosts")
      }
    } catch {
      deferred = error
    }
    return (whole, deferred)
  }

  /// Host names written with escapes are the names they decode to: a duplicate is found whether
  /// the escaped one comes first, last or after the sixteenth name, and the message (the same
  /// as the whole parse's) names the decoded name.
  @Test(arguments: [
    (["h1.test", "a.test", #"h\u0031.test"#], "h1.test"),
    ([#"h\u0031.test"#, "a.test", "h1.test"], "h1.test"),
    ((0..<17).map { "h\($0).test" } + [#"h\u0031\u0036.test"#], "h16.test"),
    ([#"k\""#, "a", #"k\""#], #"k\""#),
  ])
  func escapedDuplicateHostNames(_ raw: [String], _ shown: String) throws {
    let bytes = Self.file(raw.map { "\"\($0)\": {\"accounts\": []}" }.joined(separator: ",\n  "))
    let (wholeError, hostError) = Self.errors(bytes)
    #expect(hostError == wholeError)
    #expect(wholeError?.reason == "duplicate key \"\(shown)\"")
  }

  /// Only an exact match of the name's bytes picks an entry.
  @Test func theHostIsMatchedByItsBytes() throws {
    let bytes = Self.file(#""GITHUB.TEST": {"accounts": []}, "#.appending(Self.good))
    #expect(try CredentialCoding.decode(bytes, host: "github.test") == Self.expected())
  }

  /// The one host's credentials keep the entry outside a dictionary; they answer every question
  /// as the whole-file read's do, and a change through `hosts` keeps the entry and the change.
  @Test func oneHostsCredentialsAnswerAsTheWholeFilesDo() throws {
    let bytes = Self.file(Self.good + ", " + #""other.test": {"accounts": []}"#)
    let one = try CredentialCoding.decode(bytes, host: "github.test")
    let whole = try CredentialCoding.decode(bytes)
    let entry = try #require(whole.hosts["github.test"])
    #expect(one.entry(for: "github.test") == entry)
    #expect(one.entry(for: "other.test") == nil)
    #expect(one.hostNames == ["github.test"])
    #expect(whole.hostNames == ["github.test", "other.test"])
    #expect(one.hosts == ["github.test": entry])
    #expect(one == Credentials(hosts: ["github.test": entry]))
    #expect(one != whole)

    var changed = one
    changed.hosts["github.test"]?.activeLogin = "hubot"
    changed.hosts["new.test"] = HostEntry()
    #expect(changed.hostNames == ["github.test", "new.test"])
    #expect(changed.entry(for: "github.test")?.activeLogin == "hubot")
    #expect(changed.entry(for: "github.test")?.accounts == entry.accounts)
    #expect(one.entry(for: "github.test") == entry)
  }
}

/// The parser's word-at-a-time scan of strings: a quote, backslash, control byte or non-ASCII
/// byte at any offset of a run (before, inside and after whole eight-byte words) is found where
/// it is, both when a string is built and when it is stepped over.
@Suite struct JSONStringScanTests {
  @Test(arguments: 0..<20)
  func everySpecialByteIsFoundAtItsOffset(_ offset: Int) throws {
    let before = [UInt8](repeating: UInt8(ascii: "a"), count: offset)
    let after = [UInt8](repeating: UInt8(ascii: "b"), count: 11)
    let text: (([UInt8]) -> [UInt8]) = { Array(#"{"k": ""#.utf8) + before + $0 + after + Array(#""}"#.utf8) }
    let cases: [(inserted: [UInt8], value: String?, reason: String?)] = [
      (Array(#"\n"#.utf8), "\n", nil),
      (Array(#"\""#.utf8), "\"", nil),
      ([0xC3, 0xA9], "é", nil),
      ([0x01], nil, "control character byte 0x01 in a string; escape it"),
      ([0xFF], nil, "invalid UTF-8"),
      ([0x7F], "\u{7F}", nil),
    ]
    for (inserted, value, reason) in cases {
      let bytes = text(inserted)
      let expectedValue = value.map { String(repeating: "a", count: offset) + $0 + String(repeating: "b", count: 11) }
      do {
        let parsed = try JSON.parse(bytes)
        #expect(parsed.objectValue?["k"]?.stringValue == expectedValue, "\(inserted) at \(offset)")
        #expect(reason == nil)
      } catch {
        #expect(error.reason == reason, "\(inserted) at \(offset)")
        #expect(error.column == 8 + offset, "\(inserted) at \(offset)")
      }
      // Stepped over inside another host's entry: the same outcome as the whole-file read.
      let file = Array(#"{"version": 1, "hosts": {"other.test": "#.utf8) + bytes + Array("}}".utf8)
      var whole: CredentialCoding.Failure?
      do { _ = try CredentialCoding.decode(file) } catch { whole = error }
      if reason != nil {
        let expected = try #require(whole)
        #expect(throws: expected) { try CredentialCoding.decode(file, host: "github.test") }
      } else {
        #expect(try CredentialCoding.decode(file, host: "github.test") == Credentials())
      }
    }
  }
}
