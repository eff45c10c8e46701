#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Reads one line typed or pasted on a terminal without showing it: `ECHO` off (and `ECHONL`
/// on, so the Enter still moves to a new line) for the read, the previous settings restored
/// afterwards whatever happens. The corresponding C functions are `tcgetattr`, `tcsetattr`
/// (`TCSAFLUSH`: input typed before the echo went off is dropped, it was shown) and `poll`.
enum TerminalSecret {
  /// Why no line was read.
  enum Failure: Error, Equatable {
    /// `tcgetattr` or `tcsetattr` failed: the echo could not be turned off, nothing was read.
    case cannotHideInput(SystemError)
    /// SIGINT or SIGTERM arrived while waiting (the stop descriptor became readable).
    case interrupted
    /// End of input before a newline, with nothing typed.
    case endOfInput
    /// More than `limit` bytes without a newline.
    case tooLong
  }

  /// The line read from the terminal `fd` (without its newline), with echo off.
  /// `stopFD`, when given, ends the wait when it becomes readable (the Ctrl-C self-pipe).
  /// `prompt` runs once the echo is off (so what it shows means the terminal is ready);
  /// with `visible`, the echo is left as it is (a line that is not secret, such as a client ID).
  static func readLine(
    fd: Int32, stopFD: Int32?, limit: Int, visible: Bool = false, prompt: () -> Void = {}
  ) throws(Failure) -> [UInt8] {
    var saved = termios()
    if !visible {
      guard tcgetattr(fd, &saved) == 0 else { throw .cannotHideInput(SystemError(call: "tcgetattr", errno: errno)) }
      var quiet = saved
      quiet.c_lflag &= ~tcflag_t(ECHO)
      quiet.c_lflag |= tcflag_t(ECHONL)
      guard tcsetattr(fd, TCSAFLUSH, &quiet) == 0 else {
        throw .cannotHideInput(SystemError(call: "tcsetattr", errno: errno))
      }
    }
    defer { if !visible { _ = tcsetattr(fd, TCSANOW, &saved) } }
    prompt()
    var line: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
      if let stopFD { fds.append(pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)) }
      let ready = poll(&fds, nfds_t(fds.count), -1)
      if ready < 0 {
        if errno == EINTR { continue }
        throw .cannotHideInput(SystemError(call: "poll", errno: errno))
      }
      if fds.count > 1 && fds[1].revents != 0 { throw .interrupted }
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw .cannotHideInput(SystemError(call: "read", errno: errno))
      }
      if count == 0 {
        if line.isEmpty { throw .endOfInput }
        return line
      }
      if let newline = chunk[..<count].firstIndex(of: 0x0A) {
        line += chunk[..<newline]
        guard line.count <= limit else { throw .tooLong }
        return line
      }
      line += chunk[..<count]
      guard line.count <= limit else { throw .tooLong }
    }
  }
}
