/// Makes text received from a server safe to show on a terminal (R83, CVE-2024-50349).
package enum Sanitize {
  /// `text` without C0 controls (including ESC, CR, LF, TAB), DEL, C1 controls,
  /// Unicode line and paragraph separators, and bidirectional overrides, cut to
  /// `maxCharacters` characters (an ellipsis marks the cut).
  ///
  /// Removing ESC and the C1 CSI (U+009B) defeats ANSI escape sequences: what
  /// is left of one is plain printable text. Bidi controls are removed so that a
  /// login cannot be shown reversed.
  package static func terminal(_ text: String, maxCharacters: Int = 300) -> String {
    var scalars = String.UnicodeScalarView()
    var count = 0
    for scalar in text.unicodeScalars where !isUnsafe(scalar) {
      if count == maxCharacters {
        scalars.append("…")
        break
      }
      scalars.append(scalar)
      count += 1
    }
    return String(scalars)
  }

  /// Whether `scalar` must not reach a terminal.
  static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: true  // C0 (ESC is 0x1B), DEL, C1 (CSI is 0x9B)
    case 0x2028, 0x2029: true  // line and paragraph separators
    case 0x200E, 0x200F, 0x061C: true  // LRM, RLM, ALM
    case 0x202A...0x202E, 0x2066...0x2069: true  // bidi embeddings, overrides and isolates
    case 0xFEFF: true  // zero-width no-break space (BOM)
    default: false
    }
  }

  /// `text` escaped like the inside of a JSON string, so that nothing in it can act on a
  /// terminal and nothing is lost: besides what JSON escapes (C0 controls, DEL, `"` and `\`),
  /// every scalar ``isUnsafe(_:)`` names (C1 controls, line separators, bidi overrides, U+FEFF)
  /// becomes `\uXXXX`. For quoting names from files (keys, hosts) in messages.
  package static func escaped(_ text: String) -> String {
    // Printable ASCII other than `"` and `\` is shown as it is: every key of a good config, on
    // the path of `token` and the helpers, which name each key they read.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
      return text
    }
    var shown = ""
    for scalar in JSON.serialize(.string(text)).dropFirst().dropLast().unicodeScalars {
      if isUnsafe(scalar) {
        let hex = String(scalar.value, radix: 16)
        shown += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      } else {
        shown.unicodeScalars.append(scalar)
      }
    }
    return shown
  }

  /// `text` with `&`, `<`, `>`, `"` and `'` replaced by HTML character references,
  /// after removing what ``terminal(_:maxCharacters:)`` removes.
  package static func html(_ text: String, maxCharacters: Int = 300) -> String {
    var out = ""
    for scalar in terminal(text, maxCharacters: maxCharacters).unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
