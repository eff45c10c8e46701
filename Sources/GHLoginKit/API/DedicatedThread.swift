import Synchronization
import GHLoginCore

/// Runs blocking work (sockets, `poll`, file locks) on a thread of its own, so that `async`
/// callers never block a thread of Swift's cooperative pool.
///
/// Each call starts one detached ``PosixThread``, runs the body there and
/// resumes the caller with its result. Task cancellation is turned into a byte on a
/// ``CancellationPipe``, whose read end the body gets as its stop descriptor: every wait in the
/// kit (`poll` in the loopback server, the device-flow sleep) watches it.
enum DedicatedThread {
  /// Runs `body` on a new thread with the read end of a cancellation pipe; cancelling the
  /// calling task makes that descriptor readable. Errors are wrapped with `remedies`.
  static func run<T: Sendable>(
    remedies: Remedies, _ body: @escaping @Sendable (_ stopFD: Int32?) throws -> T
  ) async -> Result<T, GitHubLoginError> {
    let pipe: CancellationPipe
    do { pipe = try CancellationPipe() } catch {
      return .failure(GitHubLoginError(error, remedies: remedies))
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, GitHubLoginError>, Never>) in
        let work: @Sendable () -> Void = {
          do {
            continuation.resume(returning: .success(try body(pipe.readFD)))
          } catch {
            continuation.resume(returning: .failure(GitHubLoginError(error, remedies: remedies)))
          }
        }
        do { try PosixThread.detached(work) } catch {
          continuation.resume(returning: .failure(GitHubLoginError(error, remedies: remedies)))
        }
      }
    } onCancel: {
      pipe.signal()
    }
  }
}

/// A self-pipe that turns task cancellation into a readable descriptor.
///
/// ``signal()`` writes one byte (from any thread, any number of times); the read end stays
/// readable from then on, since nobody drains it. Both ends close when the pipe is freed.
final class CancellationPipe: Sendable {
  private let ends: Mutex<(read: FileDescriptor, write: FileDescriptor)?>
  /// The end to `poll` on.
  let readFD: Int32

  init() throws(SystemError) {
    let pair = try FileDescriptor.pipe()
    readFD = pair.read.rawValue
    ends = Mutex(pair)
  }

  /// Makes ``readFD`` readable.
  func signal() {
    ends.withLock { ends in
      guard let ends else { return }
      _ = try? ends.write.write([1][...])
    }
  }

  deinit {
    ends.withLock { ends in
      ends?.read.close()
      ends?.write.close()
      ends = nil
    }
  }
}
