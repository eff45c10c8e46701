#if canImport(Glibc)
  @preconcurrency import Glibc
#endif
import Synchronization

/// The signals `ghlogin run` forwards to its child, as they arrive (0: none yet); one slot per
/// signal so that none is lost between two polls.
private let pendingForwards = Atomic<UInt32>(0)

/// SIGINT, SIGTERM and SIGHUP while a child runs: async-signal-safe (one atomic or).
private func recordForward(_ signal: Int32) {
  let bit: UInt32 = signal == SIGINT ? 1 : signal == SIGTERM ? 2 : signal == SIGHUP ? 4 : 0
  _ = pendingForwards.bitwiseOr(bit, ordering: .sequentiallyConsistent)
}

/// Runs one program in the foreground for `ghlogin run` (issue 34 §1): started with
/// `posix_spawn(3)`, its arguments as separate strings, the standard streams inherited, exactly
/// the environment given; SIGINT, SIGTERM and SIGHUP sent to this process are passed on to it.
package enum ChildRun {
  /// How the child ended.
  package enum Ending: Sendable, Equatable {
    case exited(Int32)
    case signaled(Int32)
  }

  /// Runs `executable` (an absolute path) and waits for it. The three signals are caught while
  /// it runs (and restored after), each forwarded to the child once it arrives.
  package static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]
  ) throws(SystemError) -> Ending {
    var action = Glibc.sigaction()
    action.__sigaction_handler.sa_handler = recordForward
    sigemptyset(&action.sa_mask)
    action.sa_flags = SA_RESTART
    let signals = [SIGINT, SIGTERM, SIGHUP]
    var previousInterrupt = Glibc.sigaction()
    var previousTerminate = Glibc.sigaction()
    var previousHangUp = Glibc.sigaction()
    sigaction(SIGINT, &action, &previousInterrupt)
    sigaction(SIGTERM, &action, &previousTerminate)
    sigaction(SIGHUP, &action, &previousHangUp)
    defer {
      sigaction(SIGINT, &previousInterrupt, nil)
      sigaction(SIGTERM, &previousTerminate, nil)
      sigaction(SIGHUP, &previousHangUp, nil)
    }
    _ = pendingForwards.exchange(0, ordering: .sequentiallyConsistent)

    let pid = try Spawn.start(
      executable, argv: [arguments.first ?? executable] + arguments.dropFirst(), environment: environment)
    var status: Int32 = 0
    while true {
      let pending = pendingForwards.exchange(0, ordering: .sequentiallyConsistent)
      for (index, number) in signals.enumerated() where pending & (1 << UInt32(index)) != 0 { kill(pid, number) }
      let waited = waitpid(pid, &status, WNOHANG)
      if waited == pid { break }
      if waited == -1 && errno != EINTR { return .exited(127) }
      usleep(20_000)
    }
    let signal = status & 0x7F
    return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
  }

  /// Ends this process by `number` (its default action, unblocked), as the child it ran died:
  /// a shell around it then sees the same signal. Returns only if the signal does not kill.
  package static func die(of number: Int32) {
    signal(number, SIG_DFL)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, number)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    raise(number)
  }
}
