/// Tokens as `status` shows them (R88): a known public GitHub prefix when the token has one,
/// then `****`, then its last four characters; nothing at all of a token shorter than 16
/// characters. Nothing else of the token is shown: a token from another token endpoint (base64url,
/// a JWT) may have an `_` or `.` anywhere, so no "prefix up to `_`" is trusted.
package enum Redaction {
  /// The prefixes GitHub documents for its token formats: they say what kind of token it is and
  /// carry no secret.
  static let knownPrefixes = ["github_pat_", "gho_", "ghu_", "ghp_", "ghs_", "ghr_"]

  /// Tokens shorter than this are shown as `****` only (their last four would be a quarter of them).
  static let minimumLengthForSuffix = 16

  package static func redact(_ token: String) -> String {
    let characters = Array(token.unicodeScalars)
    guard characters.count >= minimumLengthForSuffix else { return "****" }
    let prefix = knownPrefixes.first { token.hasPrefix($0) } ?? ""
    var suffix = String.UnicodeScalarView()
    suffix.append(contentsOf: characters.suffix(4))
    return prefix + "****" + String(suffix)
  }
}
