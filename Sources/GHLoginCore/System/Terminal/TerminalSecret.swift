#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Reads one line typed or pasted on a terminal without showing it: `ECHO` off (and `ECHONL`
/// on, so the Enter still moves to a new line) for the read, the previous settings restored
/// afterwards whatever happens. The corresponding C functions are `tcgetattr`, `tcsetattr`
/// (`TCSAFLUSH`: input typed before the echo went off is dropped, it was shown) and `poll`.
///
/// No signal leaves the echo off (R100, as readpassphrase(3)): ``TerminalSignals`` catches
/// them during the read, the terminal is restored, then the signal takes its default action
/// (after ^Z and `fg` the echo goes off again). The process stops being dumpable first
/// (``CoreDumps/disable()``, R82), so no core dump holds the secret.
package enum TerminalSecret {
  /// Why no line was read.
  package enum Failure: Error, Equatable {
    /// `tcgetattr` or `tcsetattr` failed: the echo could not be turned off, nothing was read.
    case cannotHideInput(SystemError)
    /// SIGINT or SIGTERM arrived while waiting (the stop descriptor became readable).
    case interrupted
    /// End of input before a newline, with nothing typed.
    case endOfInput
    /// More than `limit` bytes without a newline.
    case tooLong
  }

  /// How one attempt at reading ended.
  private enum Attempt {
    case line([UInt8])
    case failed(Failure)
    /// A signal caught by ``TerminalSignals``: the caller acts on it.
    case signalled
  }

  /// The line read from the terminal `fd` (without its newline), with echo off.
  /// `stopFD`, when given, ends the wait when it becomes readable (the Ctrl-C self-pipe).
  /// `echoNewline` false: the Enter is not echoed either (the caller moves to a new line).
  /// `prompt` runs each time the echo goes off (so what it shows means the terminal is ready):
  /// again after a stop and `fg`, whose read starts afresh; with
  /// `visible`, the echo is left as it is (a line that is not secret, such as a client ID).
  package static func readLine(
    fd: Int32, stopFD: Int32?, limit: Int, echoNewline: Bool = true, visible: Bool = false,
    prompt: () -> Void = {}
  ) throws(Failure) -> [UInt8] {
    var probe = termios()
    guard tcgetattr(fd, &probe) == 0 else { throw .cannotHideInput(SystemError(call: "tcgetattr", errno: errno)) }
    CoreDumps.disable()
    let signals: TerminalSignals
    do { signals = try TerminalSignals(extra: stopFD == nil ? [SIGINT, SIGTERM] : []) } catch {
      throw .cannotHideInput(error)
    }
    defer { signals.uninstall() }
    while true {
      // (Again after a stop: the settings the terminal has now are the ones to give back.)
      var saved = termios()
      guard tcgetattr(fd, &saved) == 0 else { throw .cannotHideInput(SystemError(call: "tcgetattr", errno: errno)) }
      var quiet = saved
      if !visible {
        quiet.c_lflag &= ~tcflag_t(ECHO)
        if echoNewline { quiet.c_lflag |= tcflag_t(ECHONL) }
      }
      let attempt: Attempt
      var pending: [Int32] = []
      if tcsetattr(fd, visible ? TCSANOW : TCSAFLUSH, &quiet) == 0 {
        prompt()
        attempt = read(fd, stopFD: stopFD, signals: signals.readFD, limit: limit)
        // The terminal first, whatever ended the read. In the background this raises SIGTTOU:
        // stop, and finish restoring once continued.
        while tcsetattr(fd, TCSANOW, &saved) != 0 && errno == EINTR {
          for signal in signals.drain() {
            if TerminalSignals.stops(signal) { signals.stopByDefaultAction(signal) } else { pending.append(signal) }
          }
        }
      } else if errno == EINTR {
        attempt = .signalled  // SIGTTOU for a background process: the echo never went off
      } else {
        throw .cannotHideInput(SystemError(call: "tcsetattr", errno: errno))
      }
      let arrived = pending + signals.drain()
      for signal in arrived where !TerminalSignals.stops(signal) { signals.endByDefaultAction(signal) }
      for signal in arrived where TerminalSignals.stops(signal) { signals.stopByDefaultAction(signal) }
      switch attempt {
      case .line(let line): return line
      case .failed(let failure): throw failure
      case .signalled: continue  // continued after a stop: echo off again, and a fresh read
      }
    }
  }

  /// Reads until a newline (the line is returned), end of input, too much, the stop
  /// descriptor, or a byte on `signals`.
  private static func read(_ fd: Int32, stopFD: Int32?, signals: Int32, limit: Int) -> Attempt {
    var line: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      var fds = [
        pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
      ]
      if let stopFD { fds.append(pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)) }
      let ready = poll(&fds, nfds_t(fds.count), -1)
      if ready < 0 {
        if errno == EINTR { continue }
        return .failed(.cannotHideInput(SystemError(call: "poll", errno: errno)))
      }
      if fds.count > 2 && fds[2].revents != 0 { return .failed(.interrupted) }
      if fds[1].revents != 0 { return .signalled }
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR || errno == EAGAIN { continue }  // SIGTTIN in the background: seen next round
        return .failed(.cannotHideInput(SystemError(call: "read", errno: errno)))
      }
      if count == 0 { return line.isEmpty ? .failed(.endOfInput) : .line(line) }
      if let newline = chunk[..<count].firstIndex(of: 0x0A) {
        line += chunk[..<newline]
        return line.count <= limit ? .line(line) : .failed(.tooLong)
      }
      line += chunk[..<count]
      guard line.count <= limit else { return .failed(.tooLong) }
    }
  }
}
