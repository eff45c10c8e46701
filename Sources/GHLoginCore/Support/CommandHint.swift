/// Whose commands the remedies in a message name. The ghlogin command line's
/// messages say which `ghlogin` command fixes a failure; a tool built on the library has its own
/// commands (its users may not have ghlogin at all), so its messages name the login command it
/// says it has, or none: then they say what to do in words.
///
/// Each error that names a command renders its message for one of these
/// (``ReportableError/message(_:)``); ``ReportableError/message`` is the command line's.
package enum Remedies: Sendable, Hashable {
  /// The `ghlogin` command line.
  case ghlogin
  /// A tool built on the library, with the command its users log in with (`"mytool login"`),
  /// or nil when it names none.
  case tool(loginCommand: String?)

  /// What to do to log in: "run 'ghlogin auth --host H'" (with `options` after it), "run
  /// 'mytool login'", or, naming no command, "log in again" (or "log in first" when `again`
  /// is false).
  package func logIn(host: String, user: String? = nil, options: [String] = [], again: Bool = true) -> String {
    switch self {
    case .ghlogin:
      let command = CommandHint.auth(host: host, user: user)
      return "run '\(([command] + options).joined(separator: " "))'"
    case .tool(let command?): return "run '\(Sanitize.terminal(command))'"
    case .tool(nil): return again ? "log in again" : "log in first"
    }
  }

  /// What to do to try the login again: "run 'ghlogin auth --host H' again", "run 'mytool
  /// login' again", or "log in again".
  package func retry(host: String) -> String {
    switch self {
    case .ghlogin: "run '\(CommandHint.auth(host: host))' again"
    case .tool(let command?): "run '\(Sanitize.terminal(command))' again"
    case .tool(nil): "log in again"
    }
  }

  /// `remedy` starting a sentence: its first letter capitalised ("run 'ghlogin auth'" → "Run
  /// 'ghlogin auth'", "log in again" → "Log in again").
  package static func sentence(_ remedy: String) -> String {
    remedy.prefix(1).uppercased() + remedy.dropFirst()
  }

  /// `words` as a command to show, for the command line only: nil for a tool (the sentence that
  /// would name it is left out or said in words).
  package func ghlogin(_ words: [String]) -> String? {
    self == .ghlogin ? CommandHint.line(["ghlogin"] + words) : nil
  }
}

/// Commands shown in hints, written so that they can be copied and run as printed: every
/// option they need (`--host` off github.com, `--user`), each word quoted for sh only when it
/// has to be.
package enum CommandHint {
  /// `ghlogin auth`, with `--host HOST` unless the host is github.com and `--user LOGIN` when given.
  package static func auth(host: String, user: String? = nil) -> String {
    var words = ["ghlogin", "auth"]
    if host != DefaultHost.name { words += ["--host", host] }
    if let user { words += ["--user", user] }
    return line(words)
  }

  /// `words` joined with spaces, each one sh-quoted when it holds anything but letters, digits
  /// and `._:/@%+=,-`.
  package static func line(_ words: [String]) -> String {
    words.map(word).joined(separator: " ")
  }

  /// One word, sh-quoted when needed (control characters are shown escaped, never raw).
  package static func word(_ text: String) -> String {
    let plain =
      !text.isEmpty
      && text.utf8.allSatisfy { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
          || "._:/@%+=,-".utf8.contains(byte)
      }
    return plain ? text : ShellQuoting.quote(Sanitize.terminal(text), for: .sh)
  }
}
