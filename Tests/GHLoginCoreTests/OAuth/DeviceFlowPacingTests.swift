import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// The interval arithmetic alone (R34, R35, R38).
@Suite struct DeviceFlowPacingTests {
  @Test func startsAtTheIntervalWithTheMargin() {
    let pacing = DeviceFlowPacing(interval: 5)
    #expect(pacing.interval == 5)
    #expect(abs(pacing.wait - 6) < 1e-9)
  }

  @Test func aZeroIntervalIsOneSecond() {
    #expect(DeviceFlowPacing(interval: 0).interval == 1)
  }

  @Test func slowDownAddsFiveOrTakesALargerServerInterval() {
    var pacing = DeviceFlowPacing(interval: 5)
    pacing.slowDown(serverInterval: nil)
    #expect(pacing.interval == 10)
    #expect(abs(pacing.wait - 14) < 1e-9)
    pacing.slowDown(serverInterval: 12)
    #expect(pacing.interval == 15)
    pacing.slowDown(serverInterval: 30)
    #expect(pacing.interval == 30)
    #expect(pacing.consecutiveSlowDowns == 3)
    pacing.pending()
    #expect(pacing.consecutiveSlowDowns == 0)
    #expect(pacing.interval == 30)
  }

  @Test func networkErrorsDoubleUpToSixtyButNeverLower() {
    var pacing = DeviceFlowPacing(interval: 20)
    pacing.networkError()
    #expect(pacing.interval == 40)
    pacing.networkError()
    #expect(pacing.interval == 60)
    pacing.networkError()
    #expect(pacing.interval == 60)
    var slow = DeviceFlowPacing(interval: 90)
    slow.networkError()
    #expect(slow.interval == 90)
  }

  @Test func fiveSlowDownsInARowSuggestDrift() {
    var pacing = DeviceFlowPacing(interval: 1)
    for _ in 0..<4 { pacing.slowDown(serverInterval: nil) }
    #expect(!pacing.suggestsClockDrift)
    pacing.slowDown(serverInterval: nil)
    #expect(pacing.suggestsClockDrift)
  }
}
