import Synchronization

/// Wall-clock and monotonic time, and sleeping: real in the product, manual in tests.
package protocol TimeSource: Sendable {
  /// Seconds since the Unix epoch (for expiry times stored on disk).
  func now() -> Double
  /// Seconds on a monotonic clock (for deadlines and poll intervals).
  func monotonic() -> Double
  /// Sleeps for `seconds` (a manual clock just advances).
  func sleep(seconds: Double)
  /// Sleeps until `deadline` (on the ``monotonic()`` scale), or until `stopFD` becomes readable
  /// (Ctrl-C through ``Interrupt``); returns false when stopped, true when the deadline came.
  func sleep(until deadline: Double, stopFD: Int32?) -> Bool
  /// The longest one `poll(2)` may block before the deadline is checked again on this clock, in
  /// seconds; nil: until the deadline. Only the system clock's deadlines are real time: any
  /// other clock (a tool's injected one, a test's) may jump ahead while a `poll` blocks, so its
  /// waits are cut into slices of at most ``TimeSource/injectedClockSlice`` and end once it
  /// passes the deadline.
  var pollSlice: Double? { get }
}

extension TimeSource {
  /// The longest real time one `poll(2)` blocks on a clock other than the system's: 100 ms.
  static var injectedClockSlice: Double { 0.1 }

  /// ``injectedClockSlice``: clocks other than the system's are checked every 100 ms.
  package var pollSlice: Double? { Self.injectedClockSlice }

  /// The default for clocks that are not the system's (tests): a stop already pending
  /// (`stopFD` readable now, checked with a zero-timeout `poll`) ends the sleep at once;
  /// otherwise ``sleep(seconds:)`` for the rest of the time.
  package func sleep(until deadline: Double, stopFD: Int32?) -> Bool {
    if let stopFD, Poll.isReadableNow(stopFD) { return false }
    let remaining = deadline - monotonic()
    if remaining > 0 { sleep(seconds: remaining) }
    return true
  }
}
