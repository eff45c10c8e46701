/// GitHub's `GitHub-Authentication-Token-Expiration` response header: when a token that
/// expires (a personal access token with an expiry) stops working, as
/// `YYYY-MM-DD HH:MM:SS UTC`, or with a numeric offset (`+0200`, `-0530`) in place of `UTC`.
package enum TokenExpirationHeader {
  /// The header's name.
  package static let name = "GitHub-Authentication-Token-Expiration"

  /// The warning window of `token` and `env`: seven days.
  static let warningWindow: Double = 7 * 86_400

  /// The moment `text` names, in Unix seconds; nil for anything but the two forms above with
  /// a real date and time (month 1–12, a day the month has, hours 0–23, minutes and seconds
  /// 0–59, an offset of at most 18 hours).
  package static func parse(_ text: String) -> Double? {
    let bytes = Array(text.utf8)
    // "2026-12-20 10:00:00 " is 20 bytes; then "UTC" or "+HHMM"/"-HHMM".
    guard bytes.count == 23 || bytes.count == 25 else { return nil }
    func digits(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        let byte = bytes[index]
        guard byte >= 0x30 && byte <= 0x39 else { return nil }
        value = value * 10 + Int(byte - 0x30)
      }
      return value
    }
    func byte(_ index: Int, is character: Unicode.Scalar) -> Bool { bytes[index] == UInt8(ascii: character) }
    guard byte(4, is: "-"), byte(7, is: "-"), byte(10, is: " "), byte(13, is: ":"), byte(16, is: ":"),
      byte(19, is: " "),
      let year = digits(0..<4), let month = digits(5..<7), let day = digits(8..<10),
      let hour = digits(11..<13), let minute = digits(14..<16), let second = digits(17..<19),
      (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
      hour < 24, minute < 60, second < 60
    else { return nil }
    var offset = 0
    if bytes.count == 23 {
      guard bytes[20] == UInt8(ascii: "U"), bytes[21] == UInt8(ascii: "T"), bytes[22] == UInt8(ascii: "C") else {
        return nil
      }
    } else {
      guard byte(20, is: "+") || byte(20, is: "-"), let hours = digits(21..<23), let minutes = digits(23..<25),
        hours <= 18, minutes < 60
      else { return nil }
      offset = (hours * 3600 + minutes * 60) * (byte(20, is: "-") ? -1 : 1)
    }
    let days = daysFromCivil(year: year, month: month, day: day)
    return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset)
  }

  /// `seconds` (Unix time) as the header writes it in UTC: `2026-12-20 10:00:00 UTC`.
  package static func format(_ seconds: Double) -> String {
    let total = DurationText.wholeSeconds(seconds, rounding: .down)
    let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
    let rest = total - days * 86_400
    let (year, month, day) = civil(fromDays: days)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    var yearText = "\(year)"
    while yearText.count < 4 { yearText = "0" + yearText }
    return "\(yearText)-\(two(month))-\(two(day)) \(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60)) UTC"
  }

  /// The warning `token` and `env` print on stderr when GitHub's `expiration` of `login`'s token
  /// on `host` is within ``warningWindow`` of `now` (or has passed), in the voice of `remedies`,
  /// without a prefix; nil otherwise.
  package static func warning(
    expiration: Double?, login: String, host: String, now: Double, remedies: Remedies = .words
  ) -> String? {
    guard let expiration, expiration - now <= warningWindow else { return nil }
    let date = format(expiration)
    let when = expiration > now ? "expires \(remaining(expiration, now: now)) (\(date))" : "expired on \(date)"
    let store = remedies.command(.storeToken(host: host)).map { " with '\($0)'" } ?? ""
    return "GitHub says the token for \(host) (\(Sanitize.terminal(login))) \(when); "
      + "make a new one and store it\(store)"
  }

  /// "in 3 days", "in 5h 10m", or "has passed": what is left of `expiration` at `now`.
  package static func remaining(_ expiration: Double, now: Double) -> String {
    let left = expiration - now
    guard left > 0 else { return "has passed" }
    let days = DurationText.wholeSeconds(left / 86_400)
    if days >= 1 { return "in \(days) day\(days == 1 ? "" : "s")" }
    return "in \(DurationText.describe(left))"
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
  private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  private static func civil(fromDays days: Int) -> (Int, Int, Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
