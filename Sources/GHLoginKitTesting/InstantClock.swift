import GHLoginKit
import Synchronization

/// A ``GitHubLoginClock`` whose waits pass at once: ``sleep(seconds:)`` moves its time forward
/// and returns, so a device login's polling takes no real time.
///
/// Nothing else moves it. A browser login waits on the loopback listener until the clock passes
/// its deadline (checked every 100 ms of real time), so a test whose browser never answers moves
/// the clock itself with ``advance(by:)``, for example from
/// ``ScriptedBrowser/neverAnswering(onOpen:)``.
public final class InstantClock: GitHubLoginClock {
  private let state: Mutex<(now: Double, sleeps: [Double])>

  /// A clock that reads `now` (seconds since 1970; 2023-11-14 by default) until it is moved.
  public init(now: Double = 1_700_000_000) { state = Mutex((now, [])) }

  /// The clock's time, in seconds since 1970.
  public func now() -> Double { state.withLock { $0.now } }

  /// Moves the clock forward by `seconds` at once, and records the wait (``sleeps``).
  public func sleep(seconds: Double) {
    state.withLock {
      $0.now += max(0, seconds)
      $0.sleeps.append(seconds)
    }
  }

  /// Moves the clock forward by `seconds` without recording a wait: time that passes while the
  /// library waits on something else (the user in the browser, an expiring token).
  public func advance(by seconds: Double) { state.withLock { $0.now += seconds } }

  /// Every wait the library asked of this clock, in order, in seconds.
  public var sleeps: [Double] { state.withLock { $0.sleeps } }
}
