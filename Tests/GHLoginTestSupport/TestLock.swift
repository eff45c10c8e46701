import Glibc

/// A value behind a `pthread_mutex_t`, for test code whose state is shared between threads.
///
/// Not `Synchronization.Mutex`: on Linux that locks with atomics and futex system calls, which
/// ThreadSanitizer does not model, so `scripts/sanitizers.sh` reported every pair of accesses
/// inside its `withLock` on two threads as a race. ThreadSanitizer intercepts pthread mutexes.
public final class TestLock<Value>: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  public init(_ value: Value) {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    self.value = value
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with the value, holding the lock; throws what `body` throws (typed, as
  /// `Mutex.withLock` does).
  public func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
