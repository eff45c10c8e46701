#if canImport(Glibc)
  import Glibc
#endif
import Synchronization

/// Wall-clock and monotonic time, and sleeping: real in the product, manual in tests.
public protocol Clock: Sendable {
  /// Seconds since the Unix epoch (for expiry times stored on disk).
  func now() -> Double
  /// Seconds on a monotonic clock (for deadlines and poll intervals).
  func monotonic() -> Double
  /// Sleeps for `seconds` (a manual clock just advances).
  func sleep(seconds: Double)
}

/// The system clocks: `CLOCK_REALTIME`, `CLOCK_MONOTONIC`, and `nanosleep`.
public struct SystemClock: Clock {
  public init() {}

  public func now() -> Double { read(CLOCK_REALTIME) }
  public func monotonic() -> Double { read(CLOCK_MONOTONIC) }

  public func sleep(seconds: Double) {
    guard seconds > 0 else { return }
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
    var remaining = timespec()
    while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
  }

  private func read(_ id: clockid_t) -> Double {
    var time = timespec()
    clock_gettime(id, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}

/// A clock that moves only when told to, or when something sleeps on it.
public final class ManualClock: Clock {
  private let time: Mutex<(wall: Double, mono: Double, sleeps: [Double])>

  public init(now: Double = 1_700_000_000) { time = Mutex((now, 1000, [])) }

  public func now() -> Double { time.withLock { $0.wall } }
  public func monotonic() -> Double { time.withLock { $0.mono } }
  public func sleep(seconds: Double) {
    time.withLock {
      $0.wall += seconds
      $0.mono += seconds
      $0.sleeps.append(seconds)
    }
  }
  /// Moves both clocks forward without recording a sleep.
  public func advance(by seconds: Double) {
    time.withLock {
      $0.wall += seconds
      $0.mono += seconds
    }
  }
  /// Every `sleep` asked of this clock, in order.
  public var sleeps: [Double] { time.withLock { $0.sleeps } }
}
