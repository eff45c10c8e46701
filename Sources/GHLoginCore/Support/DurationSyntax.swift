/// The one duration syntax of the command line (issue 35 §2): `N` (seconds), `Ns`, `Nm` or
/// `Nh`, N a positive whole number without sign or spaces. `auth --timeout` and
/// `agent forward --ttl` take it, each with its own range.
package enum DurationSyntax {
  /// The seconds `text` says; nil when it is not of the syntax (or overflows).
  package static func seconds(_ text: String) -> Int? {
    var digits = Substring(text)
    var unit = 1
    switch text.last {
    case "s": unit = 1
    case "m": unit = 60
    case "h": unit = 3600
    default: unit = 0
    }
    if unit == 0 { unit = 1 } else { digits = digits.dropLast() }
    guard !digits.isEmpty, digits.utf8.count <= 9, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let number = Int(digits), number > 0
    else { return nil }
    return number * unit
  }

  /// `seconds` as the syntax writes it: `2h`, `90m`, `45s`.
  package static func text(_ seconds: Int) -> String {
    if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
    if seconds % 60 == 0 { return "\(seconds / 60)m" }
    return "\(seconds)s"
  }
}
