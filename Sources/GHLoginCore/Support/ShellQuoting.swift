/// Quoting a value so a shell reads it back as exactly those bytes, with no expansion.
package enum ShellQuoting {
  /// The shells `ghlogin env` writes for.
  package enum Shell: String, Sendable, CaseIterable {
    case sh, fish, powershell
  }

  /// `value` as one word for `shell`:
  /// - sh (and bash, zsh, dash): `'…'`, each `'` written as `'\''` (nothing is special inside
  ///   single quotes);
  /// - fish: `'…'`, with `\` written `\\` and `'` written `\'` (the only escapes fish reads
  ///   inside single quotes);
  /// - PowerShell: `'…'`, each `'` doubled (PowerShell also treats the typographic quotes
  ///   U+2018, U+2019, U+201A and U+201B as single quotes, so they are doubled too).
  package static func quote(_ value: String, for shell: Shell) -> String {
    var out = "'"
    for scalar in value.unicodeScalars {
      switch (shell, scalar) {
      case (.sh, "'"): out += "'\\''"
      case (.fish, "'"): out += "\\'"
      case (.fish, "\\"): out += "\\\\"
      case (.powershell, "'"), (.powershell, "\u{2018}"), (.powershell, "\u{2019}"),
        (.powershell, "\u{201A}"), (.powershell, "\u{201B}"):
        out.unicodeScalars.append(scalar)
        out.unicodeScalars.append(scalar)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "'"
  }

  /// The line that sets and exports environment variable `name` to `value` in `shell`.
  package static func export(_ name: String, _ value: String, for shell: Shell) -> String {
    switch shell {
    case .sh: "export \(name)=\(quote(value, for: .sh))"
    case .fish: "set -gx \(name) \(quote(value, for: .fish))"
    case .powershell: "$env:\(name) = \(quote(value, for: .powershell))"
    }
  }
}
