#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// A POSIX thread running one closure: the one place the kit calls `pthread_create`.
///
/// Used where Dispatch or Swift concurrency would load libraries the `token` path must not pay
/// for, or where blocking work must stay off Swift's cooperative pool (``Concurrently``,
/// ``DedicatedThread``, the resolver's helper thread). The closure is retained across
/// `pthread_create` and released on the new thread when it returns.
///
/// The corresponding C functions are `pthread_create`, `pthread_join` and `pthread_detach`;
/// `pthread_create` reports its error as its return value (it does not set `errno`).
package struct PosixThread {
  private let thread: pthread_t

  /// Starts `body` on a new thread; throws when no thread could be made (`body` is not run).
  package init(_ body: @escaping @Sendable () -> Void) throws(SystemError) {
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    var thread = pthread_t()
    let code = pthread_create(
      &thread, nil,
      { raw in
        guard let raw else { return nil }
        Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
        return nil
      }, context)
    guard code == 0 else {
      Unmanaged<Body>.fromOpaque(context).release()
      throw SystemError(call: "pthread_create", errno: code)
    }
    self.thread = thread
  }

  /// Starts `body` on a thread nobody waits for (its resources go when it returns).
  package static func detached(_ body: @escaping @Sendable () -> Void) throws(SystemError) {
    pthread_detach(try PosixThread(body).thread)
  }

  /// Waits until the thread's closure has returned.
  package func join() { pthread_join(thread, nil) }

  /// The closure, boxed so it can travel through `pthread_create`'s `void *`.
  private final class Body: Sendable {
    package let run: @Sendable () -> Void
    package init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }
}
