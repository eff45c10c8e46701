/// The answer a credential helper writes to git: `key=value` lines ending in LF.
///
/// Only what R55 allows is ever written: `username`, `password` and `password_expiry_utc`.
/// No `capability[]`, `authtype`, `credential`, `state[]`, `continue` or `ephemeral` (ghlogin
/// advertises no capability, so git's rules forbid them), no `quit` (R61: it would stop git
/// asking its other helpers) and never `oauth_refresh_token` (R56: git would pass it on to
/// other storage helpers).
package struct CredentialResponse: Sendable, Equatable {
  package var username: String
  package var password: String
  /// When the password (the token) stops working, in Unix seconds; nil when it does not expire.
  package var passwordExpiryUTC: Int64?

  package init(username: String, password: String, passwordExpiryUTC: Int64? = nil) {
    self.username = username
    self.password = password
    self.passwordExpiryUTC = passwordExpiryUTC
  }

  /// A value git could not read back as written: it holds LF, CR or NUL, or is empty.
  package struct UnsafeValue: ReportableError, Equatable {
    /// The attribute (never its value, which may be a token).
    package var key: String

    package init(key: String) { self.key = key }

    package var message: String { message(.words) }
    package func message(_ remedies: Remedies) -> String {
      "git-credential: the stored \(key) cannot be given to git (it is empty or has a line break "
        + "or NUL); \(remedies.command(.logIn(host: nil)).map { "run '\($0)' to log in again" } ?? "log in again")"
    }
    package var exitStatus: ExitStatus { .failure }
    package var errorKind: ErrorKind { .store }
  }

  /// The lines to write, in order; throws instead of writing a value that could inject or
  /// cut a line (R55). Written straight into one buffer: a list of pairs would instantiate
  /// array metadata on the path git runs for every fetch.
  package func encoded() throws(UnsafeValue) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(64 + username.utf8.count + password.utf8.count)
    try Self.append("username", username, to: &output)
    try Self.append("password", password, to: &output)
    if let passwordExpiryUTC {
      output.append(contentsOf: "password_expiry_utc=".utf8)
      Self.appendDecimal(passwordExpiryUTC, to: &output)
      output.append(0x0A)
    }
    return output
  }

  /// `value` in decimal, the digits `String(value)` gives, written into `output` without the
  /// standard library's integer printing: code that every `git fetch` would fault in for this
  /// one number.
  static func appendDecimal(_ value: Int64, to output: inout [UInt8]) {
    if value < 0 { output.append(UInt8(ascii: "-")) }
    let start = output.count
    var rest = value.magnitude
    repeat {
      output.append(UInt8(ascii: "0") + UInt8(rest % 10))
      rest /= 10
    } while rest > 0
    output[start...].reverse()
  }

  /// One `key=value` line and its LF, or ``UnsafeValue`` for an empty value or one holding LF,
  /// CR or NUL.
  private static func append(_ key: String, _ value: String, to output: inout [UInt8]) throws(UnsafeValue) {
    guard !value.isEmpty, !value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0x00 }) else {
      throw UnsafeValue(key: key)
    }
    output.append(contentsOf: key.utf8)
    output.append(UInt8(ascii: "="))
    output.append(contentsOf: value.utf8)
    output.append(0x0A)
  }
}

/// How a host sent by git is compared with the host names logins are stored under (R54).
package enum CredentialHostMatch {
  /// The stored host name equal to `requested` byte for byte once both are ASCII-lowercased
  /// (and only ASCII: no Unicode case folding or normalisation, which Swift's `String ==`
  /// would apply). `:port` is part of the name: `github.test:8443` is not `github.test`.
  package static func storedHost(for requested: String, among stored: [String]) -> String? {
    let wanted = asciiLowercased(requested)
    guard !wanted.isEmpty else { return nil }
    return stored.first { asciiLowercased($0) == wanted }
  }

  /// The UTF-8 bytes of `text` with only `A`–`Z` mapped to `a`–`z`.
  static func asciiLowercased(_ text: String) -> [UInt8] {
    text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
  }

  /// Whether `a` and `b` are the same bytes, comparing every byte whatever the first
  /// difference (for the token sent back by `erase`).
  package static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    let left = Array(a.utf8)
    let right = Array(b.utf8)
    guard left.count == right.count else { return false }
    var difference: UInt8 = 0
    for index in left.indices { difference |= left[index] ^ right[index] }
    return difference == 0
  }
}
