#if canImport(Glibc)
  import Glibc
#endif
import Synchronization

/// Wall-clock and monotonic time, and sleeping: real in the product, manual in tests.
protocol TimeSource: Sendable {
  /// Seconds since the Unix epoch (for expiry times stored on disk).
  func now() -> Double
  /// Seconds on a monotonic clock (for deadlines and poll intervals).
  func monotonic() -> Double
  /// Sleeps for `seconds` (a manual clock just advances).
  func sleep(seconds: Double)
  /// Sleeps until `deadline` (on the ``monotonic()`` scale), or until `stopFD` becomes readable
  /// (Ctrl-C through ``Interrupt``); returns false when stopped, true when the deadline came.
  func sleep(until deadline: Double, stopFD: Int32?) -> Bool
}

extension TimeSource {
  /// The default for clocks that are not the system's (tests): a stop already pending
  /// (`stopFD` readable now, checked with a zero-timeout `poll`) ends the sleep at once;
  /// otherwise ``sleep(seconds:)`` for the rest of the time.
  func sleep(until deadline: Double, stopFD: Int32?) -> Bool {
    if let stopFD, Poll.isReadableNow(stopFD) { return false }
    let remaining = deadline - monotonic()
    if remaining > 0 { sleep(seconds: remaining) }
    return true
  }
}

/// The system clocks: `CLOCK_REALTIME`, `CLOCK_MONOTONIC`, and `nanosleep`.
struct SystemClock: TimeSource {
  init() {}

  func now() -> Double { read(CLOCK_REALTIME) }
  func monotonic() -> Double { read(CLOCK_MONOTONIC) }

  func sleep(seconds: Double) {
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
  func sleep(until deadline: Double, stopFD: Int32?) -> Bool {
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

/// A clock that moves only when told to, or when something sleeps on it.
final class ManualClock: TimeSource {
  private let time: Mutex<(wall: Double, mono: Double, sleeps: [Double])>

  init(now: Double = 1_700_000_000) { time = Mutex((now, 1000, [])) }

  func now() -> Double { time.withLock { $0.wall } }
  func monotonic() -> Double { time.withLock { $0.mono } }
  func sleep(seconds: Double) {
    time.withLock {
      $0.wall += seconds
      $0.mono += seconds
      $0.sleeps.append(seconds)
    }
  }
  /// Moves both clocks forward without recording a sleep.
  func advance(by seconds: Double) {
    time.withLock {
      $0.wall += seconds
      $0.mono += seconds
    }
  }
  /// Every `sleep` asked of this clock, in order.
  var sleeps: [Double] { time.withLock { $0.sleeps } }
}
