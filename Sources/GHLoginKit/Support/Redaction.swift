/// Tokens as `status` shows them: the prefix up to `_` and the last four characters.
enum Redaction {
  static func redact(_ token: String) -> String {
    let prefix = token.firstIndex(of: "_").map { String(token[...$0]) } ?? ""
    guard token.count >= 12 else { return prefix + "****" }
    return prefix + "****" + token.suffix(4)
  }
}
