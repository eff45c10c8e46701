/// How long to wait before the next device-flow poll (RFC 8628 §3.2, §3.5; R34, R35, R38).
///
/// Starts at the server's `interval`. `slow_down` adds 5 s, or takes the server's new
/// interval when that is larger, for every later poll. A network error doubles the interval
/// (capped at ``maxBackoff`` unless the server asked for more). Each wait adds a safety margin
/// over the interval (×1.2, ×1.4 once the server has said `slow_down`, as gh does), so a clock
/// that runs a little fast never makes a poll early.
struct DeviceFlowPacing: Sendable, Equatable {
  /// The interval in seconds the server asked for, as raised since.
  package private(set) var interval: Double
  /// Whether the server has ever answered `slow_down`.
  private(set) var slowedDown = false
  /// `slow_down` answers since the last other answer.
  private(set) var consecutiveSlowDowns = 0

  /// What `slow_down` adds when the server names no larger interval.
  static let slowDownStep = 5.0
  /// The most a network error raises the interval to.
  static let maxBackoff = 60.0
  /// The margin over the interval before any `slow_down`.
  package static let margin = 1.2
  /// The margin once the server has said `slow_down`.
  static let slowDownMargin = 1.4
  /// `slow_down` answers in a row that mean the clocks disagree, not that we poll too often (R38).
  static let maxConsecutiveSlowDowns = 5

  package init(interval: Int) {
    self.interval = Double(min(max(1, interval), ServerDuration.maxPollInterval))
  }

  /// Seconds to wait after the last answer (or the code) before the next poll.
  package var wait: Double { interval * (slowedDown ? Self.slowDownMargin : Self.margin) }

  /// `authorization_pending`: same pace; the run of `slow_down`s is over.
  package mutating func pending() {
    consecutiveSlowDowns = 0
  }

  /// `slow_down`, with the `interval` the server sent if any: +5 s, or the server's if larger.
  package mutating func slowDown(serverInterval: Int?) {
    let asked = Double(min(serverInterval ?? 0, ServerDuration.maxPollInterval))
    interval = max(interval + Self.slowDownStep, asked)
    slowedDown = true
    consecutiveSlowDowns += 1
  }

  /// A poll that got no answer: poll half as often (at most every ``maxBackoff`` seconds,
  /// unless the interval is already longer).
  mutating func networkError() {
    interval = max(interval, min(interval * 2, Self.maxBackoff))
    consecutiveSlowDowns = 0
  }

  /// Whether the `slow_down`s in a row show clock drift rather than impatience.
  var suggestsClockDrift: Bool { consecutiveSlowDowns >= Self.maxConsecutiveSlowDowns }
}
