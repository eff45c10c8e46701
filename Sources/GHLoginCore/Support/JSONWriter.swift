/// Serializes a ``JSONValue`` into UTF-8 bytes; used by ``JSON/serialize(_:pretty:)``.
struct JSONWriter {
  package let pretty: Bool
  package var output: [UInt8] = []

  package init(pretty: Bool) { self.pretty = pretty }

  /// Appends `value`; `indent` is the nesting level of the line it starts on.
  package mutating func write(_ value: JSONValue, indent: Int) {
    switch value {
    case .null: append("null")
    case .bool(let flag): append(flag ? "true" : "false")
    case .number(let text): append(text)
    case .string(let text): writeString(text)
    case .array(let elements):
      if elements.isEmpty { return append("[]") }
      output.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        newline(indent + 1)
        write(element, indent: indent + 1)
      }
      newline(indent)
      output.append(UInt8(ascii: "]"))
    case .object(let object):
      if object.isEmpty { return append("{}") }
      output.append(UInt8(ascii: "{"))
      for (index, (key, value)) in object.entries.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        newline(indent + 1)
        writeString(key)
        append(pretty ? ": " : ":")
        write(value, indent: indent + 1)
      }
      newline(indent)
      output.append(UInt8(ascii: "}"))
    }
  }

  /// Appends `text` as it is: JSON punctuation, or text already known to be valid JSON.
  mutating func append(_ text: String) { output.append(contentsOf: text.utf8) }

  private mutating func newline(_ level: Int) {
    guard pretty else { return }
    output.append(UInt8(ascii: "\n"))
    output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
  }

  /// Writes a quoted string: `"` and `\` escaped with a backslash, LF/CR/TAB as `\n` `\r` `\t`,
  /// other control characters, DEL, C1 controls and bidi controls as `\uXXXX`
  /// (``TerminalSafeJSON``); everything else as its UTF-8 (encoded in place, not through a
  /// `String` made for each character, on the docker helper's path).
  mutating func writeString(_ text: String) {
    output.append(UInt8(ascii: "\""))
    // Printable ASCII without `"` or `\` (a token, a login, a host name) needs no escape: its bytes
    // go in at once. Anything else goes scalar by scalar below.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) {
      output.append(contentsOf: text.utf8)
      output.append(UInt8(ascii: "\""))
      return
    }
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x22: append("\\\"")
      case 0x5C: append("\\\\")
      case 0x0A: append("\\n")
      case 0x0D: append("\\r")
      case 0x09: append("\\t")
      case 0x00..<0x20: append(TerminalSafeJSON.escaped(scalar.value))
      case let value where TerminalSafeJSON.needsEscape(value): append(TerminalSafeJSON.escaped(value))
      case 0x20..<0x80: output.append(UInt8(scalar.value))
      default: UTF8.encode(scalar) { output.append($0) }
      }
    }
    output.append(UInt8(ascii: "\""))
  }
}
