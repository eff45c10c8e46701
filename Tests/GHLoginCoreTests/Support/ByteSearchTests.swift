import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// The byte searches that stand in for `_StringProcessing`'s string methods in the release build.
@Suite struct ByteSearchTests {
  @Test func byteRangeFindsTheFirstOccurrence() throws {
    let text = "https://a.test/x://y"
    let range = try #require(text.byteRange(of: "://"))
    #expect(text[..<range.lowerBound] == "https")
    #expect(text[range.upperBound...] == "a.test/x://y")
    #expect(text.byteRange(of: "") == text.startIndex..<text.startIndex)
    #expect(text.byteRange(of: "ftp") == nil)
    #expect("ab".byteRange(of: "abc") == nil)
    #expect("".byteRange(of: "a") == nil)
    let end = try #require("xab".byteRange(of: "ab"))
    #expect("xab"[end] == "ab")
  }

  /// Indices are the string's own, usable on the text around non-ASCII characters.
  @Test func rangesAreIndicesOfTheString() throws {
    let text = "é🙂://ü"
    let range = try #require(text.byteRange(of: "://"))
    #expect(text[..<range.lowerBound] == "é🙂")
    #expect(text[range.upperBound...] == "ü")
    let sub = text.dropFirst()
    #expect(sub.byteRange(of: "://") == range)
  }

  @Test func containsBytesAnswersAsContains() {
    for (text, word) in [
      ("certificate: unable to get local issuer", "issuer"), ("self-signed certificate", "self-signed"),
      ("self signed", "self-signed"), ("", "x"), ("abc", "abc"), ("abc", "bcd"),
    ] {
      #expect(text.containsBytes(word) == text.contains(word), "\(text) / \(word)")
    }
  }

  /// The same pieces as the regex module's `split(separator:)` with a string separator.
  @Test(arguments: ["a\n\nb", "\n\na\n\n\nb\n\n", "", "\n\n", "a\n\n\n\nb", "one", "x\ny\n\nz"])
  func byteSplitIsSplitWithAStringSeparator(_ text: String) {
    #expect(text.byteSplit(separator: "\n\n") == text.split(separator: "\n\n", omittingEmptySubsequences: true))
  }
}
