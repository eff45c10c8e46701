#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Waiting for descriptors with `poll(2)` against monotonic deadlines.
///
/// Deadlines are absolute seconds on the monotonic clock of the `TimeSource` in
/// use; the timeout handed to `poll` is recomputed on every `EINTR` retry, so a
/// signal never stretches a deadline.
package enum Poll {
  package static let readable = Int16(POLLIN)
  package static let writable = Int16(POLLOUT)
  /// Conditions `poll` reports whatever was asked: error, hang-up, invalid descriptor.
  package static let failed = Int16(POLLERR | POLLHUP | POLLNVAL)

  /// Milliseconds from now until `deadline`, rounded up, clamped to `0...Int32.max`, and to the
  /// clock's ``TimeSource/pollSlice`` (100 ms on any clock but the system's, whose time may jump
  /// ahead while `poll` blocks: the caller checks the deadline again after each slice).
  package static func milliseconds(until deadline: Double, clock: any TimeSource) -> Int32 {
    var remaining = (deadline - clock.monotonic()) * 1000
    if let slice = clock.pollSlice { remaining = min(remaining, slice * 1000) }
    if !(remaining > 0) { return 0 }
    return remaining >= Double(Int32.max) ? Int32.max : Int32(remaining.rounded(.up))
  }

  /// Calls `poll(2)` on `fds` until `deadline`; returns how many have events (0 on timeout). `EINTR` retried.
  @discardableResult
  package static func wait(_ fds: inout [pollfd], deadline: Double, clock: any TimeSource) throws(SystemError) -> Int {
    let count = nfds_t(fds.count)
    let ready = try fds.withUnsafeMutableBufferPointer { buffer throws(SystemError) in
      try retryingEINTR("poll") { poll(buffer.baseAddress, count, milliseconds(until: deadline, clock: clock)) }
    }
    return Int(ready)
  }

  /// Whether `fd` is readable right now (`poll(2)` with a zero timeout; `EINTR` retried).
  /// Errors and hang-ups count as not readable.
  static func isReadableNow(_ fd: Int32) -> Bool {
    var fds = [pollfd(fd: fd, events: readable, revents: 0)]
    let count = nfds_t(fds.count)
    let ready = try? fds.withUnsafeMutableBufferPointer { buffer throws(SystemError) in
      try retryingEINTR("poll") { poll(buffer.baseAddress, count, 0) }
    }
    return (ready ?? 0) > 0 && fds[0].revents & readable != 0
  }

  /// Waits until one of `fds` is readable (or failed) or `deadline` passes; which ones are
  /// (each false after a timeout). `EINTR` retried.
  package static func readable(_ fds: [Int32], deadline: Double, clock: any TimeSource) throws(SystemError) -> [Bool] {
    var set = fds.map { pollfd(fd: $0, events: readable, revents: 0) }
    try wait(&set, deadline: deadline, clock: clock)
    return set.map { $0.revents != 0 }
  }

  /// What a wait throws when its stop descriptor became readable (real `EINTR`s are always retried).
  package static let interruption = SystemError(call: "poll", errno: EINTR)

  /// Waits until `fd` is ready for `events` (or has failed); false when `deadline` passes first.
  ///
  /// `stopFD` (the SIGINT self-pipe of ``Interrupt``, or a library call's ``CancellationPipe``)
  /// is watched too: once it is readable the wait throws ``interruption``, so Ctrl-C or a
  /// cancelled task never waits for a timeout. Nothing global is read here.
  package static func wait(
    for events: Int16, on fd: Int32, deadline: Double, clock: any TimeSource, stopFD: Int32? = nil
  ) throws(SystemError) -> Bool {
    var fds = [pollfd(fd: fd, events: events, revents: 0)]
    if let stopFD { fds.append(pollfd(fd: stopFD, events: readable, revents: 0)) }
    while true {
      if try wait(&fds, deadline: deadline, clock: clock) > 0 {
        if fds.count > 1 && fds[1].revents & readable != 0 { throw interruption }
        if fds[0].revents != 0 { return true }
        continue
      }
      if clock.monotonic() >= deadline { return false }
    }
  }
}

/// A set of descriptors for one `poll(2)` call, rebuilt each round of an event loop.
struct PollSet {
  private var fds: [pollfd] = []

  package var count: Int { fds.count }

  mutating func removeAll() { fds.removeAll(keepingCapacity: true) }

  /// Adds `fd` waiting for `events` (``Poll/readable`` or ``Poll/writable``); returns its index.
  @discardableResult
  package mutating func add(_ fd: Int32, events: Int16) -> Int {
    fds.append(pollfd(fd: fd, events: events, revents: 0))
    return fds.count - 1
  }

  /// Whether the descriptor at `index` has any event, errors and hang-ups included.
  func isReady(_ index: Int) -> Bool { fds[index].revents != 0 }

  /// Calls `poll(2)` until `deadline`; returns the number of ready descriptors (0 on timeout).
  package mutating func wait(deadline: Double, clock: any TimeSource) throws(SystemError) -> Int {
    try Poll.wait(&fds, deadline: deadline, clock: clock)
  }
}
