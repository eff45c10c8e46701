/// Searching text for ASCII syntax (`://`, a word in an error) byte for byte on UTF-8.
///
/// The standard library's `firstRange(of:)` and `contains(_:)` for a string argument live in
/// `_StringProcessing`, the regex engine's module: one call links all of it (about 9,000
/// symbols, a fifth of the binary's relocations) into every command. ghlogin never needs a
/// regex, and `scripts/build-release.sh` builds without that module's implicit import, so a
/// new call to them does not compile there; use these instead. No Unicode normalisation: for
/// ASCII needles that is the same answer.
extension String {
  /// The first place `needle` occurs, or nil; an empty needle is found at the start.
  func byteRange(of needle: String) -> Range<Index>? { Substring(self).byteRange(of: needle) }

  /// Whether `needle` occurs.
  func containsBytes(_ needle: String) -> Bool { byteRange(of: needle) != nil }

  /// The non-empty pieces between occurrences of the non-empty `separator`, as
  /// `split(separator:omittingEmptySubsequences: true)` with a string separator.
  package func byteSplit(separator: String) -> [Substring] {
    precondition(!separator.isEmpty, "an empty separator")
    var pieces: [Substring] = []
    var rest = Substring(self)
    while let range = rest.byteRange(of: separator) {
      if range.lowerBound != rest.startIndex { pieces.append(rest[..<range.lowerBound]) }
      rest = rest[range.upperBound...]
    }
    if !rest.isEmpty { pieces.append(rest) }
    return pieces
  }
}

extension Substring {
  /// The first place `needle` occurs, or nil; an empty needle is found at the start.
  func byteRange(of needle: String) -> Range<Index>? {
    let text = utf8
    let pattern = Array(needle.utf8)
    var start = text.startIndex
    while true {
      var end = start
      var matched = 0
      while matched < pattern.count, end != text.endIndex, text[end] == pattern[matched] {
        text.formIndex(after: &end)
        matched += 1
      }
      if matched == pattern.count { return start..<end }
      guard start != text.endIndex else { return nil }
      text.formIndex(after: &start)
    }
  }

  /// Whether `needle` occurs.
  func containsBytes(_ needle: String) -> Bool { byteRange(of: needle) != nil }
}
