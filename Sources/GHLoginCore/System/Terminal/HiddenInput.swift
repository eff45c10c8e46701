/// Reading a secret typed or pasted on a terminal without showing it: ``TerminalSecret``'s read
/// (the echo off, restored on every signal, R100), as text.
package enum HiddenInput {
  /// Why no line was read.
  package enum Failure: Error, Equatable {
    /// Ctrl-C (or SIGTERM) while waiting: `stopFD` became readable.
    case interrupted
    /// End of input before a newline, a read error, a terminal whose echo cannot be turned
    /// off, or more than 64 KiB.
    case endOfInput
  }

  /// Reads one line from the terminal `fd` with echo turned off (``TerminalSecret``; `ICANON`
  /// kept so the line can be edited, the Enter not echoed: the caller moves to a new line),
  /// waiting on `fd` and `stopFD`, so Ctrl-C ends the wait; the terminal's settings are
  /// restored before it returns. At most 64 KiB; the newline is not part of the result.
  package static func readLine(fd: Int32, stopFD: Int32?) throws(Failure) -> String {
    do {
      let bytes = try TerminalSecret.readLine(fd: fd, stopFD: stopFD, limit: 65_536, echoNewline: false)
      return String(decoding: bytes, as: UTF8.self)
    } catch .interrupted {
      throw .interrupted
    } catch {
      throw .endOfInput
    }
  }
}
