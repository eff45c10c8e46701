#if canImport(Glibc)
  import Glibc
#endif

/// The system clocks: `CLOCK_REALTIME`, `CLOCK_MONOTONIC`, and `nanosleep`.
///
/// errno policy: `clock_gettime(2)` cannot fail for these two clocks, so its result is not
/// checked; `nanosleep(2)` interrupted by a signal (`EINTR`) sleeps on with the time it had
/// left, and any other error ends the sleep early.
package struct SystemClock: TimeSource {
  package init() {}

  package func now() -> Double { read(CLOCK_REALTIME) }
  /// nil: a deadline on this clock is real time, so `poll` may block until it.
  package var pollSlice: Double? { nil }
  package func monotonic() -> Double { read(CLOCK_MONOTONIC) }

  package func sleep(seconds: Double) {
    guard seconds > 0 else { return }
    let whole = DurationText.wholeSeconds(seconds, rounding: .down)
    let fraction = seconds < 1e15 ? seconds - seconds.rounded(.down) : 0
    var request = timespec(tv_sec: whole, tv_nsec: Int(fraction * 1e9))
    var remaining = timespec()
    while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
  }

  /// Waits with `poll(2)` on `stopFD` until `deadline` (`CLOCK_MONOTONIC`), so Ctrl-C ends the
  /// sleep at once; without a descriptor it is a plain `nanosleep`.
  ///
  /// `EINTR` is retried with the time left. Only `POLLIN` counts as a stop; if `poll` fails or
  /// reports the descriptor broken (`POLLNVAL`, `POLLERR`), the rest is slept without it.
  package func sleep(until deadline: Double, stopFD: Int32?) -> Bool {
    guard let stopFD else {
      sleep(seconds: deadline - monotonic())
      return true
    }
    var fds = [pollfd(fd: stopFD, events: Poll.readable, revents: 0)]
    while monotonic() < deadline {
      fds[0].revents = 0
      let ready: Int
      do { ready = try Poll.wait(&fds, deadline: deadline, clock: self) } catch {
        sleep(seconds: deadline - monotonic())
        return true
      }
      guard ready > 0 else { continue }
      if fds[0].revents & Poll.readable != 0 { return false }
      sleep(seconds: deadline - monotonic())
      return true
    }
    return true
  }

  private func read(_ id: clockid_t) -> Double {
    var time = timespec()
    clock_gettime(id, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
