/// JSON that is safe to print on a terminal: characters a terminal acts on, or that reorder what
/// is shown, written as `\u` escapes (still the same JSON value).
///
/// C0 controls cannot occur raw in valid JSON strings, but DEL, the C1 controls (U+0080–U+009F,
/// which some terminals take as CSI and OSC) and the Unicode bidi controls (U+202A–U+202E,
/// U+2066–U+2069, U+200E, U+200F, U+061C: "Trojan Source") and line/paragraph separators can,
/// and `/user` is text from GitHub's users.
package enum TerminalSafeJSON {
  /// Whether the scalar `value` is written as a `\u` escape.
  static func needsEscape(_ value: UInt32) -> Bool {
    switch value {
    case 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// `json`, a valid JSON text, with every such character escaped. Outside strings JSON has only
  /// ASCII, so each one found is inside a string and its escape means the same character.
  package static func escape(_ json: [UInt8]) -> String {
    var output = String.UnicodeScalarView()
    for scalar in String(decoding: json, as: UTF8.self).unicodeScalars {
      if needsEscape(scalar.value) {
        output.append(contentsOf: escaped(scalar.value).unicodeScalars)
      } else {
        output.append(scalar)
      }
    }
    return String(output)
  }

  /// `\uXXXX` (four lowercase hex digits) for a scalar of the Basic Multilingual Plane.
  package static func escaped(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
