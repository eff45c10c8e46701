import Synchronization

/// Where a command writes text: the process's stdout or stderr, or a buffer in tests.
package protocol TextOutput: Sendable {
  func write(_ text: String)
  /// Whether this output is a terminal (a token must not be shown on one by `env`).
  var isTerminal: Bool { get }
}

/// Where a command reads input: the process's stdin, or bytes in tests.
package protocol ByteInput: Sendable {
  /// Reads up to `limit` bytes, until EOF. Returns nil when more than `limit` were available.
  func readAll(limit: Int) -> [UInt8]?
  /// Reads up to `limit` bytes, until EOF or the first empty line, whichever comes first (git's
  /// credential protocol ends a request with one; a caller may keep its end open for the answer,
  /// R91). Returns nil when more than `limit` came before either.
  func readUntilEmptyLine(limit: Int) -> [UInt8]?
  /// Reads one line (without its LF), or nil at EOF. Used for paste-back prompts.
  func readLine() -> String?
  var isTerminal: Bool { get }
  /// The file descriptor behind this input, for a `poll` loop that also waits on it
  /// (paste-back of a redirect URL); nil when there is none.
  var descriptor: Int32? { get }
}

extension ByteInput {
  /// No descriptor unless the input says otherwise.
  package var descriptor: Int32? { nil }

  /// Inputs that hold all their bytes already: everything (nothing can wait for more).
  package func readUntilEmptyLine(limit: Int) -> [UInt8]? { readAll(limit: limit) }

  /// Whether `bytes` hold an empty line: they start with LF (or CR LF), or hold LF LF (or
  /// LF CR LF, which the parser then refuses for its CR).
  static func hasEmptyLine(_ bytes: [UInt8], from start: Int) -> Bool {
    var index = max(0, start - 2)
    while index < bytes.count {
      if bytes[index] == 0x0A {
        let atStart = index == 0 || (index == 1 && bytes[0] == 0x0D)
        let afterLF = index >= 1 && bytes[index - 1] == 0x0A
        let afterLFCR = index >= 2 && bytes[index - 1] == 0x0D && bytes[index - 2] == 0x0A
        if atStart || afterLF || afterLFCR { return true }
      }
      index += 1
    }
    return false
  }
}
