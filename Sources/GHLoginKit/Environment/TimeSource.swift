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
