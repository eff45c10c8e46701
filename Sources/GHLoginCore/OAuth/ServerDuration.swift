/// The bounds on every duration a server sends (R89): `expires_in` and `refresh_token_expires_in`
/// of a token answer, and `expires_in` and `interval` of a device-code or `slow_down` answer.
///
/// Values above a bound are **clamped** to it, never refused: a shorter lifetime only makes
/// ghlogin refresh (or give up on a device code) earlier than the server said, never later, and
/// a login that worked stays working. Negative numbers, fractions and non-numbers are still
/// refused by the callers (as before). Any run of digits is accepted however long, so `2^63`,
/// `2^64` and `1e999`-sized integers all clamp the same way instead of trapping or overflowing.
enum ServerDuration {
  /// The longest token or refresh-token lifetime kept: ten years (GitHub's are 8 hours and 6 months).
  static let maxTokenLifetime = 10 * 366 * 86_400
  /// The longest a device code is waited for: one hour (GitHub's codes live 15 minutes).
  static let maxDeviceCodeLifetime = 3600
  /// The longest interval between device-flow polls: five minutes (GitHub asks for 5 seconds).
  static let maxPollInterval = 300

  /// `text` as a whole number of seconds clamped to `limit`, when it is ASCII digits only (a JSON
  /// integer or a form value); nil otherwise (a sign, a fraction, an exponent, nothing).
  package static func clamped(_ text: String, to limit: Int) -> Int? {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    let digits = text.drop { $0 == "0" }
    guard digits.utf8.count <= 15, let value = Int(digits.isEmpty ? "0" : String(digits)) else { return limit }
    return min(value, limit)
  }
}
