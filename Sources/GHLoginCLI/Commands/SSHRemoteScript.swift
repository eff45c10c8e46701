import GHLoginCore

/// The one remote command `ghlogin ssh` gives ssh (issue 35 §3). sshd runs it as
/// `$SHELL -c STRING` with the remote user's login shell, so STRING is
/// `exec /bin/sh -c 'BODY'`, read alike by sh, bash, dash, zsh and fish: BODY holds no `'` and
/// no `\` followed by `\` or `'` (the only escapes fish reads inside single quotes). BODY, a POSIX
/// sh script, exports `GHLOGIN_AGENT_SOCK`, runs the command with its arguments exactly (an
/// argument with a byte outside printable ASCII, or a dollar sign, backtick, double quote,
/// backslash or single quote, is written as `printf %b` octal escapes, `\0NNN`, and decoded on
/// the remote side), or `"$SHELL" -l` when there is no command (not `exec`: the script outlives
/// it), then removes the socket, also on HUP, INT and TERM, and exits with the command's status.
enum SSHRemoteScript {
  /// The string ssh sends as the remote command.
  static func command(socket: String, command: [String]) -> String {
    "exec /bin/sh -c '" + body(socket: socket, command: command) + "'"
  }

  /// The sh script.
  static func body(socket: String, command: [String]) -> String {
    var lines = [
      assignment("S", socket),
      "export \(AgentPaths.socketVariable)=\"$S\"",
      "ghlogin_end(){ rm -f -- \"$S\";}",
      "trap ghlogin_end EXIT",
      "trap \"ghlogin_end;exit 129\" HUP",
      "trap \"ghlogin_end;exit 130\" INT",
      "trap \"ghlogin_end;exit 143\" TERM",
    ]
    if command.isEmpty {
      lines.append("\"${SHELL:-/bin/sh}\" -l")
    } else {
      lines.append("set --")
      for argument in command {
        if isPlain(argument) {
          lines.append("set -- \"$@\" \"\(argument)\"")
        } else {
          lines.append(assignment("a", argument))
          lines.append("set -- \"$@\" \"$a\"")
        }
      }
      lines.append("\"$@\"")
    }
    lines += ["s=$?", "ghlogin_end", "exit \"$s\""]
    return lines.joined(separator: ";")
  }

  /// `name=VALUE` in sh: plain in double quotes, else decoded with `printf %b` (an `x` after it
  /// keeps the command substitution from dropping trailing newlines; it is cut off again).
  private static func assignment(_ name: String, _ value: String) -> String {
    if isPlain(value) { return "\(name)=\"\(value)\"" }
    var escaped = ""
    for byte in value.utf8 {
      if isPlain(byte) {
        escaped.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        let octal = String(byte, radix: 8)
        escaped += "\\0" + String(repeating: "0", count: 3 - octal.count) + octal
      }
    }
    return "\(name)=$(printf %bx \"\(escaped)\");\(name)=${\(name)%x}"
  }

  /// Whether `value` is written as it is inside double quotes.
  private static func isPlain(_ value: String) -> Bool { value.utf8.allSatisfy(isPlain) }

  /// Printable ASCII but what double quotes (sh), single quotes (the outer word) or `printf %b`
  /// would read specially.
  private static func isPlain(_ byte: UInt8) -> Bool {
    (0x20...0x7E).contains(byte) && !"$`\"\\'".utf8.contains(byte)
  }
}
