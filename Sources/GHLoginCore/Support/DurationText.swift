/// Human durations for expiry times: "7h 59m", "3 days".
///
/// Never traps (R89): a stored expiry may be anything finite a file or an old build held
/// (`2^63` seconds from a hostile server), so seconds go through ``wholeSeconds(_:rounding:)`` first.
package enum DurationText {
  /// More than this is shown as "more than 100 years".
  package static let longest = 100 * 366 * 86_400

  package static func describe(_ seconds: Double) -> String {
    let total = wholeSeconds(seconds)
    if total > longest { return "more than 100 years" }
    if total >= 2 * 86_400 { return "\(total / 86_400) days" }
    if total >= 3600 { return "\(total / 3600)h \(total % 3600 / 60)m" }
    if total >= 60 { return "\(total / 60)m" }
    return "\(total)s"
  }

  /// A wait as a person says it, with correct plurals: "1 second", "90 seconds", "1 minute",
  /// "5 minutes", "60 minutes", "3 minutes 20 seconds" (seconds rounded up; under two minutes
  /// and not whole minutes, in seconds).
  static func spoken(_ seconds: Double) -> String {
    let total = max(0, wholeSeconds(seconds, rounding: .up))
    func unit(_ count: Int, _ name: String) -> String { "\(count) \(name)\(count == 1 ? "" : "s")" }
    if total >= 60 && total % 60 == 0 { return unit(total / 60, "minute") }
    if total > 120 { return unit(total / 60, "minute") + " " + unit(total % 60, "second") }
    return unit(total, "second")
  }

  /// A countdown as a clock shows it: "4:59", "0:05", "1:02:03".
  package static func clock(_ seconds: Double) -> String {
    let total = max(0, wholeSeconds(seconds, rounding: .up))
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    if total >= 3600 { return "\(total / 3600):\(two(total % 3600 / 60)):\(two(total % 60))" }
    return "\(total / 60):\(two(total % 60))"
  }

  /// `seconds` rounded toward zero as an `Int`, clamped to ±2^52 (so any sum or product of a
  /// few of them stays far from overflow); 0 for NaN. `Int(_: Double)` traps outside `Int`'s range.
  static func wholeSeconds(_ seconds: Double, rounding rule: FloatingPointRoundingRule = .towardZero) -> Int {
    guard !seconds.isNaN else { return 0 }
    let limit = 4_503_599_627_370_496.0  // 2^52
    return Int(min(max(seconds.rounded(rule), -limit), limit))
  }

  /// `duration` in seconds, for the clock's arithmetic (``TimeSource`` counts in `Double`
  /// seconds): where a plan's `Duration` meets a wait.
  package static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
