import GHLoginCore

/// What follows `ghlogin ssh [forward options] --` (issue 35 §3): `[ssh options] DESTINATION
/// [COMMAND [ARG…]]`, read as ssh's own `getopt` reads it (OpenSSH's ssh.c, option string
/// `1246ab:c:e:fgi:kl:m:no:p:qstvxAB:CD:E:F:GI:J:KL:MNO:P:Q:R:S:TVw:W:XYy`): the ssh options
/// go to ssh unchanged and in order; DESTINATION is the first argument that is neither an option
/// nor the value of a value-taking one; everything after it, less a leading `--`, is the remote
/// command. Options that would take the session away from the forward are refused (exit 2).
struct SSHArguments: Equatable {
  /// The ssh options, unchanged and in order (an ending `--` is dropped: ghlogin puts its own
  /// before DESTINATION).
  var options: [String]
  var destination: String
  /// The remote command and its arguments; empty: a login shell.
  var command: [String]
  /// Whether the options decide the terminal themselves (`-t`, `-T` or `-o RequestTTY`).
  var choosesTerminal: Bool

  /// ssh's options that take a value, glued (`-p2222`) or as the next argument.
  static let valueOptions: Set<Character> = [
    "B", "b", "c", "D", "E", "e", "F", "I", "i", "J", "L", "l", "m", "O", "o", "P", "p", "Q", "R", "S", "W", "w",
  ]
  /// ssh's options that take none.
  static let flagOptions: Set<Character> = [
    "1", "2", "4", "6", "a", "f", "g", "k", "n", "q", "s", "t", "v", "x", "A", "C", "G", "K", "M", "N", "T", "V", "X",
    "Y", "y",
  ]

  /// The options refused, and why.
  static let refusedOptions: [Character: String] = [
    "N": "it runs no remote command, and ghlogin ssh ends the forward with the remote command",
    "f": "ssh would go to the background, and ghlogin ssh ends the forward when ssh exits",
    "W": "it forwards standard input and output instead of running the remote command",
    "O": "it controls a master connection, and ghlogin ssh uses none",
    "M": "a master connection would outlive the session, and ghlogin ssh uses none",
    "S": "it names a control socket, and ghlogin ssh uses none",
    "s": "a subsystem cannot run ghlogin's remote script",
  ]

  /// The `-o` keywords refused (lower case, as ssh compares them), and why.
  static let refusedKeywords: [String: String] = [
    "controlmaster": "ghlogin ssh sets it (no master connection)",
    "controlpath": "ghlogin ssh sets it (no control socket)",
    "clearallforwardings": "it would drop the forward ghlogin ssh adds",
    "sessiontype": "ghlogin ssh runs its remote script as the session",
    "forkafterauthentication": "ssh would go to the background, and ghlogin ssh ends the forward when ssh exits",
  ]

  /// Reads `arguments` (what follows `--`).
  static func parse(_ arguments: [String]) throws(UsageError) -> SSHArguments {
    var options: [String] = []
    var choosesTerminal = false
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if argument == "--" {
        index += 1
        break
      }
      guard argument.hasPrefix("-"), argument != "-" else { break }
      options.append(argument)
      index += 1
      var letters = Substring(argument.dropFirst())
      while let letter = letters.first {
        letters = letters.dropFirst()
        if let reason = refusedOptions[letter] { throw UsageError("ssh option -\(letter) is refused: \(reason)") }
        if letter == "t" || letter == "T" { choosesTerminal = true }
        if flagOptions.contains(letter) { continue }
        guard valueOptions.contains(letter) else {
          throw UsageError("unknown ssh option -\(Sanitize.terminal(String(letter)))")
        }
        let value: String
        if !letters.isEmpty {
          value = String(letters)
        } else if index < arguments.count {
          value = arguments[index]
          options.append(value)
          index += 1
        } else {
          throw UsageError("ssh option -\(letter) needs a value")
        }
        if letter == "o", let keyword = configKeyword(value) {
          if let reason = refusedKeywords[keyword] {
            throw UsageError("ssh option -o \(canonicalName(keyword)) is refused: \(reason)")
          }
          if keyword == "requesttty" { choosesTerminal = true }
        }
        break
      }
    }
    guard index < arguments.count else {
      throw UsageError("missing DESTINATION: give ssh's [user@]host after the ssh options")
    }
    let destination = arguments[index]
    var command = Array(arguments[(index + 1)...])
    if command.first == "--" { command.removeFirst() }
    return SSHArguments(options: options, destination: destination, command: command, choosesTerminal: choosesTerminal)
  }

  /// The keyword of one `-o` line, lower case, as ssh's config parser (`strdelim`) reads it:
  /// leading white space and `=` skipped, then up to white space or `=`; a `"` starts a quoted part
  /// that ends the keyword at its closing quote. nil when there is none.
  static func configKeyword(_ line: String) -> String? {
    let whitespace: Set<Character> = [" ", "\t", "\r", "\n"]
    var rest = Substring(line)
    var keyword = ""
    var started = false
    while let character = rest.first {
      rest = rest.dropFirst()
      if character == "\"" {
        // A quoted part: everything to the closing quote belongs to the keyword, which ends there.
        guard let close = rest.firstIndex(of: "\"") else { return nil }
        keyword += rest[..<close]
        started = true
        break
      }
      if whitespace.contains(character) || character == "=" {
        if started { break }
        continue
      }
      keyword.append(character)
      started = true
    }
    return keyword.isEmpty ? nil : keyword.lowercased()
  }

  /// `controlmaster` as ssh's manual spells it.
  private static func canonicalName(_ keyword: String) -> String {
    [
      "controlmaster": "ControlMaster", "controlpath": "ControlPath", "clearallforwardings": "ClearAllForwardings",
      "sessiontype": "SessionType", "forkafterauthentication": "ForkAfterAuthentication",
    ][keyword] ?? keyword
  }
}
