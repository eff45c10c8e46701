#if canImport(Glibc)
  @preconcurrency import Glibc
#endif
import Synchronization

/// Runs blocking jobs at the same time, each on a POSIX thread of its own, and returns their
/// results in order. For a few network checks (`status`), where Dispatch or Swift concurrency
/// would load libraries that the `token` path must not pay for.
///
/// The corresponding C functions are `pthread_create` and `pthread_join`. A job whose thread
/// cannot be created runs on the calling thread instead.
enum Concurrently {
  /// The results of `jobs`, in the order of `jobs`, once every job has returned.
  static func run<T: Sendable>(_ jobs: [@Sendable () -> T]) -> [T] {
    let results = Results<T>(count: jobs.count)
    var threads: [pthread_t] = []
    for (index, job) in jobs.enumerated() {
      let box = Unmanaged.passRetained(Job { results.set(index, job()) }).toOpaque()
      var thread = pthread_t()
      let created = pthread_create(
        &thread, nil,
        { raw in
          guard let raw else { return nil }
          Unmanaged<Job>.fromOpaque(raw).takeRetainedValue().body()
          return nil
        }, box)
      if created == 0 {
        threads.append(thread)
      } else {
        Unmanaged<Job>.fromOpaque(box).takeRetainedValue().body()
      }
    }
    for thread in threads { pthread_join(thread, nil) }
    return results.values()
  }

  /// One job's body, handed to its thread through an opaque pointer.
  private final class Job: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }

  /// The slots the jobs write their results to.
  private final class Results<T: Sendable>: Sendable {
    private let slots: Mutex<[T?]>
    init(count: Int) { slots = Mutex([T?](repeating: nil, count: count)) }
    func set(_ index: Int, _ value: T) { slots.withLock { $0[index] = value } }
    func values() -> [T] { slots.withLock { $0.map { $0! } } }
  }
}
