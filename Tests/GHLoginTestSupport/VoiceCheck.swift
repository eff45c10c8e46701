/// The checks that hold Core and the library to their own voice (issue 31 §2): Core's string
/// literals name no `ghlogin` command or option, and the library's messages use none of the
/// command line's words (``CLIVocabulary``, generated from its declarations).
public enum VoiceCheck {
  /// The contents of the string literals in Swift `source` (`"…"`, `"""…"""`, raw strings),
  /// comments skipped. Interpolations are kept as they are written.
  public static func stringLiterals(in source: String) -> [String] {
    let text = Array(source.unicodeScalars)
    var literals: [String] = []
    var index = 0
    func at(_ offset: Int) -> Character? {
      index + offset < text.count ? Character(text[index + offset]) : nil
    }
    while index < text.count {
      let character = Character(text[index])
      if character == "/", at(1) == "/" {
        while index < text.count, text[index] != "\n" { index += 1 }
      } else if character == "/", at(1) == "*" {
        index += 2
        while index < text.count, !(Character(text[index]) == "*" && at(1) == "/") { index += 1 }
        index += 2
      } else if character == "\"" {
        let multiline = at(1) == "\"" && at(2) == "\""
        index += multiline ? 3 : 1
        var literal = ""
        while index < text.count {
          let next = Character(text[index])
          if next == "\\" {
            literal.unicodeScalars.append(text[index])
            if index + 1 < text.count { literal.unicodeScalars.append(text[index + 1]) }
            index += 2
            continue
          }
          if multiline ? (next == "\"" && at(1) == "\"" && at(2) == "\"") : (next == "\"" || next == "\n") {
            index += multiline ? 3 : 1
            break
          }
          literal.unicodeScalars.append(text[index])
          index += 1
        }
        literals.append(literal)
      } else {
        index += 1
      }
    }
    return literals
  }

  /// The long options (`--name`) written in `text`.
  public static func options(in text: String) -> [String] {
    var found: [String] = []
    let scalars = Array(text.unicodeScalars)
    var index = 0
    func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
      ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
    }
    while index + 2 < scalars.count {
      let starts = scalars[index] == "-" && scalars[index + 1] == "-" && ("a"..."z").contains(scalars[index + 2])
      let afterWord = index > 0 && (isNameScalar(scalars[index - 1]) || ("A"..."Z").contains(scalars[index - 1]))
      guard starts, !afterWord else {
        index += 1
        continue
      }
      var end = index + 2
      while end < scalars.count, isNameScalar(scalars[end]) { end += 1 }
      found.append(String(String.UnicodeScalarView(scalars[index..<end])))
      index = end
    }
    return found
  }

  /// What in a string literal of Core speaks as the command line: the name `ghlogin` (the
  /// command, or a `ghlogin:` prefix) and any of the command line's options.
  public static func commandLineWords(inCoreLiteral literal: String) -> [String] {
    var found: [String] = []
    if literal.contains("ghlogin:") { found.append("ghlogin:") }
    if literal.contains("ghlogin") && !found.contains("ghlogin:") { found.append("ghlogin") }
    found += options(in: literal).filter(CLIVocabulary.optionNames.contains)
    return found
  }

  /// What in a message the library shows is the command line's: a `ghlogin:` prefix, the
  /// `ghlogin` command quoted as a remedy, an option name, or a config-file key (a key with an
  /// underscore anywhere as a word; any key when quoted as in the file, `"host"`).
  public static func commandLineWords(inLibraryMessage message: String) -> [String] {
    var found: [String] = []
    if message.contains("ghlogin:") { found.append("ghlogin:") }
    if message.contains("'ghlogin ") { found.append("'ghlogin ") }
    found += options(in: message).filter(CLIVocabulary.optionNames.contains)
    for key in CLIVocabulary.configKeys {
      if message.contains("\"\(key)\"") {
        found.append("\"\(key)\"")
      } else if key.contains("_"), containsWord(key, in: message) {
        found.append(key)
      }
    }
    return found
  }

  /// Whether `word` occurs in `text` with no letter, digit or underscore on either side.
  static func containsWord(_ word: String, in text: String) -> Bool {
    func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
      scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_"
    }
    var rest = Substring(text)
    while let range = rest.range(of: word) {
      let before =
        range.lowerBound == text.startIndex
        ? nil : text.unicodeScalars[text.unicodeScalars.index(before: range.lowerBound)]
      let after = range.upperBound == text.endIndex ? nil : text.unicodeScalars[range.upperBound]
      if !(before.map(isWordScalar) ?? false) && !(after.map(isWordScalar) ?? false) { return true }
      rest = text[range.upperBound...]
    }
    return false
  }
}
