#if canImport(Glibc)
  @preconcurrency import Glibc
#endif
import Synchronization

/// The write end of the self-pipe, read by the signal handler (-1 until installed).
private let interruptWriteFD = Atomic<Int32>(-1)
/// The read end, handed to callers (-1 until installed).
private let interruptReadFD = Atomic<Int32>(-1)
/// Set by the signal handler.
private let interruptRequested = Atomic<Bool>(false)
/// The first signal that arrived (SIGINT or SIGTERM); 0 before any.
private let interruptSignal = Atomic<Int32>(0)

/// The SIGINT/SIGTERM handler: async-signal-safe (atomic stores and `write(2)` only), `errno` preserved.
private func handleInterrupt(_ signal: Int32) {
  let savedErrno = errno
  interruptRequested.store(true, ordering: .sequentiallyConsistent)
  _ = interruptSignal.compareExchange(expected: 0, desired: signal, ordering: .sequentiallyConsistent)
  let fd = interruptWriteFD.load(ordering: .sequentiallyConsistent)
  if fd >= 0 {
    var byte: UInt8 = 1
    _ = write(fd, &byte, 1)
  }
  errno = savedErrno
}

/// Ctrl-C handling: SIGINT and SIGTERM write a byte to a self-pipe that poll loops watch.
///
/// The pipe is a close-on-exec, non-blocking socket pair (see
/// ``FileDescriptor/pipe()``). Nobody drains it, so once a signal arrives
/// every later wait sees it at once; the command then fails as interrupted (``ExitStatus/interrupted``,
/// or ``ExitStatus/terminated`` after SIGTERM), and `main.swift` ends the process by the signal
/// itself (a shell shows 130 or 143).
package enum Interrupt {
  /// Installs the handlers (with `sigaction`, `SA_RESTART`) once and returns the read end of the self-pipe.
  ///
  /// Later calls return the same descriptor. Returns -1 (and installs
  /// nothing) if the pipe cannot be created.
  package static func install() -> Int32 { installation }

  /// Whether SIGINT or SIGTERM has arrived since ``install()``.
  static var wasRequested: Bool { interruptRequested.load(ordering: .sequentiallyConsistent) }

  /// The first of SIGINT or SIGTERM that arrived since ``install()``, if any: the command's
  /// status is 130 for the one, 143 for the other, and the process then dies of that signal.
  package static var signal: Int32? {
    let number = interruptSignal.load(ordering: .sequentiallyConsistent)
    return number == 0 ? nil : number
  }

  /// Whether the first signal that arrived was SIGTERM (the CLI then exits 143, not 130).
  package static var wasTerminated: Bool { signal == SIGTERM }

  /// The read end when installed, else nil.
  static var installedFD: Int32? {
    let fd = interruptReadFD.load(ordering: .sequentiallyConsistent)
    return fd >= 0 ? fd : nil
  }

  /// Runs once (Swift initialises a static `let` exactly once, thread-safely).
  private static let installation: Int32 = {
    guard let ends = try? FileDescriptor.pipe() else { return -1 }
    // The descriptors live for the whole process: take them out of their owners.
    let readEnd = ends.read.rawValue
    let writeEnd = ends.write.rawValue
    ends.read.release()
    ends.write.release()
    interruptWriteFD.store(writeEnd, ordering: .sequentiallyConsistent)
    interruptReadFD.store(readEnd, ordering: .sequentiallyConsistent)
    _ = interruptRequested.load(ordering: .sequentiallyConsistent)
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handleInterrupt
    sigemptyset(&action.sa_mask)
    action.sa_flags = SA_RESTART
    sigaction(SIGINT, &action, nil)
    sigaction(SIGTERM, &action, nil)
    return readEnd
  }()
}
