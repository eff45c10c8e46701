import Synchronization

/// Runs blocking jobs at the same time, each on a POSIX thread of its own, and returns their
/// results in order. For a few network checks (`status`), where Dispatch or Swift concurrency
/// would load libraries that the `token` path must not pay for.
///
/// Each job runs on a ``PosixThread``; a job whose thread cannot be created runs on the calling
/// thread instead.
package enum Concurrently {
  /// The results of `jobs`, in the order of `jobs`, once every job has returned.
  package static func run<T: Sendable>(_ jobs: [@Sendable () -> T]) -> [T] {
    let results = Results<T>(count: jobs.count)
    var threads: [PosixThread] = []
    for (index, job) in jobs.enumerated() {
      let body: @Sendable () -> Void = { results.set(index, job()) }
      if let thread = try? PosixThread(body) { threads.append(thread) } else { body() }
    }
    for thread in threads { thread.join() }
    return results.values()
  }

  /// The slots the jobs write their results to.
  private final class Results<T: Sendable>: Sendable {
    private let slots: Mutex<[T?]>
    package init(count: Int) { slots = Mutex([T?](repeating: nil, count: count)) }
    package func set(_ index: Int, _ value: T) { slots.withLock { $0[index] = value } }
    package func values() -> [T] { slots.withLock { $0.map { $0! } } }
  }
}
