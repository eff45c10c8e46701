/// What one agent forward may hand out (issue 35 §2, R116), fixed when it is created: the
/// account (host, user), the repositories and permissions its tokens are narrowed to, how long
/// it lives, whether each new grant is confirmed, how many tokens it may mint, its name, and
/// whether it hands out the login's own token (`unscoped`).
package struct ForwardPolicy: Sendable, Equatable {
  /// `--ttl`'s range: one minute to a day.
  package static let ttlRange = 60...86_400

  package var host: String?
  package var user: String?
  /// `OWNER/NAME` each, as given.
  package var repositories: [String]
  /// `NAME:LEVEL` each, as given.
  package var permissions: [String] = []
  /// Seconds; nil: until revoked or the agent stops.
  package var ttl: Int?
  package var confirm = false
  package var maxTokens: Int?
  /// The socket's stable name (`NAME.sock`); nil: a random one.
  package var name: String?
  package var unscoped = false

  package init(repositories: [String]) { self.repositories = repositories }

  /// The narrowing the policy's tokens get; throws ``NarrowingError`` (exit 2) as `token --repo` does.
  package func narrowing() throws(NarrowingError) -> Narrowing {
    try Narrowing(repositories: repositories, permissions: permissions)
  }

  /// Whether `text` can name a forward: 1 to 64 of ASCII letters, digits, `.`, `_`, `-`, not
  /// `.` or `..` and not starting with `.` (its socket is `NAME.sock` in the agent's directory).
  package static func isValidName(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard (1...64).contains(bytes.count), bytes[0] != UInt8(ascii: ".") else { return false }
    return bytes.allSatisfy { byte in
      (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x2D || byte == 0x5F
        || byte == 0x2E
    }
  }

  /// Why the policy cannot make a forward (a usage error, exit 2), or nil.
  package var problem: String? {
    if let name, !Self.isValidName(name) {
      return "a forward's name is 1 to 64 letters, digits, '.', '_' or '-' (not starting with '.')"
    }
    if let ttl, !Self.ttlRange.contains(ttl) { return "a forward's time to live is 1m to 24h" }
    if let maxTokens, maxTokens < 1 { return "the token budget (max_tokens) must be at least 1" }
    if unscoped && ttl == nil {
      return "an unscoped forward hands out the login's own token: give it a time to live (ttl)"
    }
    return nil
  }

  /// The policy in words, for `agent list`, `whoami` and the confirmation question.
  package var summary: String {
    var parts = ["repositories \(repositories.joined(separator: ","))"]
    parts.append("permissions \(permissions.isEmpty ? "the login's own" : permissions.joined(separator: ","))")
    if unscoped { parts.append("UNSCOPED: hands out the login's own token, not a narrowed one") }
    if confirm { parts.append("each new token confirmed") }
    if let maxTokens { parts.append("at most \(maxTokens) token\(maxTokens == 1 ? "" : "s")") }
    return parts.joined(separator: "; ")
  }

  /// The warning every client through an unscoped forward prints, and `agent forward` too.
  package static let unscopedWarning =
    "this forward is unscoped: it hands out the login's own token, not one narrowed to the forward's "
    + "repositories, and ending the forward does not revoke it"
}
