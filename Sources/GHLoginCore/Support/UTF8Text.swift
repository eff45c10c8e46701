/// UTF-8 bytes as text, without the standard library's generic `String(validating:as:)`.
///
/// That initializer is generic over the encoding and is not specialised in a client module:
/// validating `git-credential get`'s two-line request with it cost more than the rest of
/// ghlogin's own code on that path does (bench/RESULTS.md, issue 19). Decoding repairs every ill-formed
/// sequence with U+FFFD, so the decoded text re-encodes to the same bytes exactly when the
/// bytes were valid UTF-8.
enum UTF8Text {
  /// `bytes` as a `String`, or nil when they are not valid UTF-8.
  package static func validated(_ bytes: [UInt8]) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    return text.utf8.elementsEqual(bytes) ? text : nil
  }
}
