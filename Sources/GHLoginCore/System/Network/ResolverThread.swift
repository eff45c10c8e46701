#if canImport(Glibc)
  @preconcurrency import Glibc
#endif
import Synchronization

/// How a host name becomes addresses: `getaddrinfo(3)` in production; tests inject a lookup
/// that never answers, to prove the deadline and the stop descriptor cut it short.
package struct NameLookup: Sendable {
  /// Resolves `host` (no brackets) and `port`; may block for as long as it likes.
  package var lookup: @Sendable (_ host: String, _ port: Int) throws(ResolveError) -> [SocketAddress]

  /// `getaddrinfo` (``Resolver/systemLookup(host:port:)``).
  package static let system = NameLookup { host, port throws(ResolveError) in
    try Resolver.systemLookup(host: host, port: port)
  }
}

extension ResolveError {
  /// The deadline passed before the lookup answered.
  package static let timedOut = ResolveError(reason: "timed out")
  /// The stop descriptor (Ctrl-C, SIGTERM) became readable before the lookup answered.
  package static let interrupted = ResolveError(reason: "interrupted")
}

/// One lookup running on a detached helper thread; it signals its end with a byte on a
/// socket pair, which the caller waits for with `poll(2)` next to the stop descriptor.
///
/// `getaddrinfo` has no timeout and cannot be interrupted; running it on its own thread lets the
/// caller walk away at the deadline or on Ctrl-C. The thread may finish later: it holds its own
/// reference to this object, so the descriptors stay open (and its `send` cannot raise SIGPIPE)
/// until both sides are done; then `deinit` closes them.
private final class PendingLookup: Sendable {
  package let ends: (read: FileDescriptor, write: FileDescriptor)
  package let result = Mutex<Result<[SocketAddress], ResolveError>?>(nil)
  package let work: @Sendable () throws(ResolveError) -> [SocketAddress]

  package init(_ work: @escaping @Sendable () throws(ResolveError) -> [SocketAddress]) throws(SystemError) {
    let ends = try FileDescriptor.pipe()
    self.ends = ends
    self.work = work
  }

  /// The thread's body: runs the lookup, keeps its answer, and wakes the caller.
  package func run() {
    let answer = Result { () throws(ResolveError) in try work() }
    result.withLock { $0 = answer }
    var byte: UInt8 = 1
    _ = send(ends.write.rawValue, &byte, 1, Int32(MSG_NOSIGNAL))
  }
}

/// `@unchecked`: the descriptors are only closed in `deinit`, after both threads let go.
extension FileDescriptor: @unchecked Sendable {}

extension Resolver {
  /// Runs `lookup` for `host` and `port` on a helper thread and waits for its answer until
  /// `deadline` (on `clock`), or until `stopFD` becomes readable.
  ///
  /// Throws ``ResolveError/timedOut`` or ``ResolveError/interrupted`` without waiting for the
  /// lookup, which is left to finish (and be forgotten) on its own thread.
  package static func resolve(
    host: String, port: Int, lookup: NameLookup, deadline: Double, stopFD: Int32?, clock: any TimeSource
  ) throws(ResolveError) -> [SocketAddress] {
    let pending: PendingLookup
    do {
      pending = try PendingLookup { () throws(ResolveError) in try lookup.lookup(host, port) }
    } catch {
      throw ResolveError(reason: error.reason)
    }
    do { try PosixThread.detached { pending.run() } } catch {
      throw ResolveError(reason: "cannot start a thread for the lookup")
    }
    var fds = [pollfd(fd: pending.ends.read.rawValue, events: Poll.readable, revents: 0)]
    if let stopFD { fds.append(pollfd(fd: stopFD, events: Poll.readable, revents: 0)) }
    while true {
      if let answer = pending.result.withLock({ $0 }) { return try answer.get() }
      if fds.count > 1 && fds[1].revents != 0 { throw .interrupted }
      if clock.monotonic() >= deadline { throw .timedOut }
      fds[0].revents = 0
      if fds.count > 1 { fds[1].revents = 0 }
      do {
        _ = try Poll.wait(&fds, deadline: deadline, clock: clock)
      } catch {
        throw ResolveError(reason: error.reason)
      }
    }
  }
}
