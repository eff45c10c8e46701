import Synchronization
import GHLoginCore

/// The lines a login prints while it waits, and on a terminal a last line that counts down in
/// place ("4:59 left"), redrawn each second by a thread of its own. Lines announced meanwhile are
/// written above it. Elsewhere (a pipe, a file, `TERM=dumb`) only the plain lines are written.
final class WaitingLine: Sendable {
  private struct State {
    var deadline: Double?
    /// The countdown text on the screen, if any.
    var shown: String?
    var stopped = false
  }

  private let output: any TextOutput
  private let clock: any TimeSource
  private let enabled: Bool
  private let state = Mutex(State())

  init(output: any TextOutput, clock: any TimeSource, style: TerminalStyle) {
    self.output = output
    self.clock = clock
    enabled = style.rewritesLines
  }

  /// Writes `line` (and a newline) above the countdown.
  func announce(_ line: String) {
    state.withLock { state in
      erase(&state)
      output.write(line + "\n")
      draw(&state)
    }
  }

  /// Starts counting down to `deadline` (on the clock's monotonic scale), when enabled.
  func start(until deadline: Double) {
    guard enabled else { return }
    state.withLock { state in
      state.deadline = deadline
      draw(&state)
    }
    // A thread of its own, not a Swift task: the command line then needs no concurrency
    // runtime (and `token` does not pay for loading it). Without a thread, no countdown.
    try? PosixThread.detached { [self] in
      let sleeper = SystemClock()
      while true {
        sleeper.sleep(seconds: 0.2)
        let running = state.withLock { state -> Bool in
          guard !state.stopped else { return false }
          draw(&state)
          return true
        }
        if !running { return }
      }
    }
  }

  /// Stops the countdown; with `erase`, removes it from the screen (after Ctrl-C it stays, the
  /// terminal's `^C` after it, and the message goes on the next line).
  func stop(erase shouldErase: Bool) {
    state.withLock { state in
      state.stopped = true
      if shouldErase { erase(&state) }
    }
  }

  private func erase(_ state: inout State) {
    guard state.shown != nil else { return }
    output.write("\r\u{1B}[K")
    state.shown = nil
  }

  private func draw(_ state: inout State) {
    guard enabled, !state.stopped, let deadline = state.deadline else { return }
    let text = "\(DurationText.clock(deadline - clock.monotonic())) left"
    guard text != state.shown else { return }
    output.write("\r\u{1B}[K" + text)
    state.shown = text
  }
}
