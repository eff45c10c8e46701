import GHLoginCore

/// Colour and emphasis for one output, only where a person reads it: on a terminal, and not
/// when `NO_COLOR` is set (to anything), `CLICOLOR=0` or `TERM=dumb`. In pipes and files every
/// function returns its text unchanged.
struct TerminalStyle: Sendable {
  /// Whether escape sequences for colour and emphasis are written.
  let usesColor: Bool
  /// Whether a line may be rewritten in place (`\r`, erase line): a terminal that is not dumb.
  let rewritesLines: Bool

  init(_ output: any TextOutput, variables: EnvironmentVariables) {
    let dumb = variables["TERM"] == "dumb"
    rewritesLines = output.isTerminal && !dumb
    usesColor = rewritesLines && (variables["NO_COLOR"] ?? "").isEmpty && variables["CLICOLOR"] != "0"
  }

  /// No colour, no rewriting: what pipes and files get.
  static let plain = TerminalStyle(usesColor: false, rewritesLines: false)

  private init(usesColor: Bool, rewritesLines: Bool) {
    self.usesColor = usesColor
    self.rewritesLines = rewritesLines
  }

  /// Bold.
  func bold(_ text: String) -> String { wrap(text, "1") }
  /// Bold red, for the `ghlogin:` before an error.
  func error(_ text: String) -> String { wrap(text, "1;31") }
  /// Red, for a check that failed (`status`'s ✗).
  func failure(_ text: String) -> String { wrap(text, "31") }
  /// Green, for a finished login.
  func success(_ text: String) -> String { wrap(text, "32") }

  private func wrap(_ text: String, _ code: String) -> String {
    usesColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}
