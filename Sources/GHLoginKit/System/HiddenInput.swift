#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Reading a secret typed or pasted on a terminal without showing it.
enum HiddenInput {
  /// Why no line was read.
  enum Failure: Error, Equatable {
    /// Ctrl-C (or SIGTERM) while waiting: `stopFD` became readable.
    case interrupted
    /// End of input before a newline, or a read error.
    case endOfInput
  }

  /// Reads one line from the terminal `fd` with echo turned off (`tcgetattr`/`tcsetattr`,
  /// `ECHO` cleared, `ICANON` kept so the line can be edited), waiting with `poll(2)` on `fd`
  /// and `stopFD`, so Ctrl-C ends the wait; the terminal's settings are restored before it
  /// returns. At most 64 KiB; the newline is not part of the result.
  static func readLine(fd: Int32, stopFD: Int32?) throws(Failure) -> String {
    var saved = termios()
    let hasTerminal = tcgetattr(fd, &saved) == 0
    if hasTerminal {
      var quiet = saved
      quiet.c_lflag &= ~tcflag_t(ECHO)
      _ = tcsetattr(fd, TCSANOW, &quiet)
    }
    defer { if hasTerminal { _ = tcsetattr(fd, TCSANOW, &saved) } }
    var bytes: [UInt8] = []
    var fds = [pollfd(fd: fd, events: Poll.readable, revents: 0)]
    if let stopFD { fds.append(pollfd(fd: stopFD, events: Poll.readable, revents: 0)) }
    while true {
      for index in fds.indices { fds[index].revents = 0 }
      let count = nfds_t(fds.count)
      let ready = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, count, -1) }
      if ready < 0 {
        if errno == EINTR { continue }
        throw .endOfInput
      }
      if fds.count > 1 && fds[1].revents & Poll.readable != 0 { throw .interrupted }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if got < 0 && errno == EINTR { continue }
      if got <= 0 { throw .endOfInput }
      for byte in chunk[..<got] {
        if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
        bytes.append(byte)
      }
      if bytes.count > 65_536 { throw .endOfInput }
    }
  }
}
