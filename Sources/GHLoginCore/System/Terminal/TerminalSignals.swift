#if canImport(Glibc)
  @preconcurrency import Glibc
#endif
import Synchronization

/// The write end of the self-pipe the hidden read's signal handler writes to (-1 when none).
private let terminalSignalWriteFD = Atomic<Int32>(-1)

/// The handler while a hidden read runs: writes the signal's number to the self-pipe.
/// Async-signal-safe (an atomic load and `write(2)`), `errno` preserved.
private func handleTerminalSignal(_ signal: Int32) {
  let savedErrno = errno
  let fd = terminalSignalWriteFD.load(ordering: .sequentiallyConsistent)
  if fd >= 0 {
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(fd, &byte, 1)
  }
  errno = savedErrno
}

/// The signals that must not leave a terminal with its echo off (R100), as readpassphrase(3)
/// handles them, caught only while a hidden read runs (``TerminalSecret``): each one lands in a
/// self-pipe the read's `poll` watches, so the read restores the terminal first and then ends
/// by the signal's default action (``endByDefaultAction(_:)``) or, for a stop, stops
/// (``stopByDefaultAction(_:)``) and turns the echo off again once continued.
///
/// Handlers are installed without `SA_RESTART`, so a `tcsetattr` a background process makes
/// (which the kernel answers with SIGTTOU) returns `EINTR` instead of being retried forever.
/// A signal that was ignored when the read began (`nohup`'s SIGHUP) stays ignored.
final class TerminalSignals {
  /// Ends the process (the terminal is restored first): HUP, QUIT, PIPE, ALRM, and INT and TERM
  /// when no stop descriptor handles those.
  package static let ending: [Int32] = [SIGHUP, SIGQUIT, SIGPIPE, SIGALRM]
  /// Stops the process (^Z, and a background job's terminal access); the echo goes off again
  /// after SIGCONT.
  package static let stopping: [Int32] = [SIGTSTP, SIGTTIN, SIGTTOU]

  /// Whether `signal` stops the process rather than ending it.
  package static func stops(_ signal: Int32) -> Bool { stopping.contains(signal) }

  /// The read end the read's `poll` watches.
  package let readFD: Int32
  private let writeFD: Int32
  /// The signals caught, with the action each had before.
  private var previous: [(signal: Int32, action: sigaction)] = []

  /// Installs the handlers for ``ending`` and ``stopping`` (and `extra`: SIGINT and SIGTERM
  /// when the caller has no stop descriptor for them). Only one hidden read runs at a time.
  package init(extra: [Int32] = []) throws(SystemError) {
    let ends = try FileDescriptor.pipe()
    readFD = ends.read.rawValue
    writeFD = ends.write.rawValue
    ends.read.release()
    ends.write.release()
    terminalSignalWriteFD.store(writeFD, ordering: .sequentiallyConsistent)
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handleTerminalSignal
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    for signal in Self.ending + Self.stopping + extra {
      var old = sigaction()
      guard sigaction(signal, nil, &old) == 0 else { continue }
      if Self.isIgnored(old) { continue }
      guard sigaction(signal, &action, nil) == 0 else { continue }
      previous.append((signal, old))
    }
  }

  /// Whether `action` is `SIG_IGN` (`(__sighandler_t) 1`; a C function pointer is not Equatable).
  private static func isIgnored(_ action: sigaction) -> Bool {
    guard action.sa_flags & Int32(SA_SIGINFO) == 0 else { return false }
    return unsafeBitCast(action.__sigaction_handler.sa_handler, to: UnsafeRawPointer?.self)
      == UnsafeRawPointer(bitPattern: 1)
  }

  /// The signals that arrived since the last call, in order, without duplicates.
  func drain() -> [Int32] {
    var arrived: [Int32] = []
    var byte: UInt8 = 0
    while read(readFD, &byte, 1) == 1 {
      let signal = Int32(byte)
      if !arrived.contains(signal) { arrived.append(signal) }
    }
    return arrived
  }

  /// Puts every handler back as it was and closes the pipe. Idempotent.
  package func uninstall() {
    for (signal, action) in previous.reversed() {
      var old = action
      sigaction(signal, &old, nil)
    }
    previous = []
    if terminalSignalWriteFD.compareExchange(expected: writeFD, desired: -1, ordering: .sequentiallyConsistent)
      .exchanged
    {
      close(writeFD)
      close(readFD)
    }
  }

  deinit { uninstall() }

  /// Stops the process as `signal` would with its default action (the caller has restored the
  /// terminal), and returns once SIGCONT continued it, with this guard's handler back.
  func stopByDefaultAction(_ signal: Int32) {
    var ours = sigaction()
    sigaction(signal, nil, &ours)
    Self.raiseWithDefaultAction(signal)
    sigaction(signal, &ours, nil)
  }

  /// Ends the process by `signal`'s default action (the caller has restored the terminal):
  /// every handler is put back first, then the signal's own disposition is reset and the signal
  /// raised again. Returns only if the signal did not end the process.
  func endByDefaultAction(_ signal: Int32) {
    uninstall()
    Self.raiseWithDefaultAction(signal)
  }

  /// `signal` at `SIG_DFL`, unblocked in this thread, raised (`raise(3)`).
  private static func raiseWithDefaultAction(_ signal: Int32) {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    sigaction(signal, &action, nil)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signal)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    raise(signal)
  }
}

/// Whether the process may leave a core dump (and be read by the user's other processes
/// through ptrace and `/proc/PID/mem`): `prctl(PR_SET_DUMPABLE)`.
package enum CoreDumps {
  /// glibc's `prctl`, which Swift cannot call directly (it is variadic in the header); looked up
  /// once. Every argument ghlogin passes is an `unsigned long`, as the kernel reads them.
  /// `<linux/prctl.h>`'s option numbers (the header's macros are not imported).
  private static let setDumpable: Int32 = 4
  private typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
  private static let prctl: Prctl? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl") else { return nil }
    return unsafeBitCast(symbol, to: Prctl.self)
  }()

  /// From now on no core dump is written (SIGQUIT, a crash) and no other process of the user
  /// may ptrace this one, so a secret read into memory cannot be written out (R82). Left so for
  /// the rest of the process: the secret stays in memory until it ends. The process's own
  /// `/proc/self` (the trust files' `/proc/self/fd/N`, `/proc/self/exe`) is unaffected.
  /// Returns whether it took effect.
  @discardableResult
  package static func disable() -> Bool {
    guard let prctl else { return false }
    return prctl(setDumpable, 0, 0, 0, 0) == 0
  }
}
