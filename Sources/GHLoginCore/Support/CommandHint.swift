/// Commands shown in hints, written so that they can be copied and run as printed: every
/// option they need (`--host` off github.com, `--user`), each word quoted for sh only when it
/// has to be.
package enum CommandHint {
  /// `ghlogin auth`, with `--host HOST` unless the host is github.com and `--user LOGIN` when given.
  package static func auth(host: String, user: String? = nil) -> String {
    var words = ["ghlogin", "auth"]
    if host != Config.defaultHostName { words += ["--host", host] }
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
