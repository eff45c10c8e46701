/// Human durations for expiry times: "7h 59m", "3 days".
enum DurationText {
  static func describe(_ seconds: Double) -> String {
    let total = Int(seconds)
    if total >= 2 * 86_400 { return "\(total / 86_400) days" }
    if total >= 3600 { return "\(total / 3600)h \(total % 3600 / 60)m" }
    if total >= 60 { return "\(total / 60)m" }
    return "\(total)s"
  }
}
