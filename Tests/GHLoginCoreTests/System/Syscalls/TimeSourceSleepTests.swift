import Testing

import GHLoginTestSupport
@testable import GHLoginCore

#if canImport(Glibc)
  import Glibc
#endif

/// `TimeSource.sleep(until:stopFD:)`: a pending stop ends the sleep at once, on both clocks.
@Suite struct ClockSleepTests {
  @Test func manualClockAdvancesToTheDeadline() throws {
    let clock = ManualClock()
    let quiet = try TestPipe(signalled: false)
    #expect(clock.sleep(until: clock.monotonic() + 7, stopFD: quiet.read))
    #expect(clock.sleeps == [7])
    #expect(clock.sleep(until: clock.monotonic() + 3, stopFD: nil))
    #expect(clock.sleeps == [7, 3])
  }

  @Test func manualClockStopsAtOnceWhenStopped() throws {
    let clock = ManualClock()
    let stop = try TestPipe(signalled: true)
    #expect(!clock.sleep(until: clock.monotonic() + 7, stopFD: stop.read))
    #expect(clock.sleeps.isEmpty)
  }

  @Test func systemClockStopsAtOnceWhenStopped() throws {
    let clock = SystemClock()
    let stop = try TestPipe(signalled: true)
    let start = clock.monotonic()
    #expect(!clock.sleep(until: start + 60, stopFD: stop.read))
    #expect(clock.monotonic() - start < 30)
  }

  @Test func systemClockPastDeadlineReturnsAtOnce() throws {
    let clock = SystemClock()
    let quiet = try TestPipe(signalled: false)
    #expect(clock.sleep(until: clock.monotonic() - 1, stopFD: quiet.read))
    #expect(clock.sleep(until: clock.monotonic() - 1, stopFD: nil))
  }

  @Test func isReadableNow() throws {
    let stopped = try TestPipe(signalled: true)
    let quiet = try TestPipe(signalled: false)
    #expect(Poll.isReadableNow(stopped.read))
    #expect(!Poll.isReadableNow(quiet.read))
  }
}
