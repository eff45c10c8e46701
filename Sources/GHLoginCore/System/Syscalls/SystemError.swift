#if canImport(Glibc)
  import Glibc
#endif

/// A failed system call: which call, and the `errno` it left.
package struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The C function that failed, for example `"open"`.
  package var call: String
  /// The `errno` value captured right after the call.
  package var errno: Int32

  package init(call: String, errno: Int32) {
    self.call = call
    self.errno = errno
  }

  /// The text `strerror` gives for `errno`.
  package var reason: String { String(cString: strerror(errno)) }

  package var description: String { "\(call): \(reason)" }

  /// An `EIO` failure of `call`: what the store's fault injection throws (no C call is made).
  static func inputOutput(call: String) -> SystemError { SystemError(call: call, errno: EIO) }

  /// An `ENOENT` failure of `call`, for a check that found nothing where something must be.
  static func noSuchFile(call: String) -> SystemError { SystemError(call: call, errno: ENOENT) }

  /// `ENOENT`: nothing is at the path (or a directory on it is missing).
  var isNoSuchFile: Bool { errno == ENOENT }
  /// `EEXIST`: something is already at the path (`O_CREAT|O_EXCL`, `mkdir`).
  var isAlreadyExisting: Bool { errno == EEXIST }
  /// `ELOOP`: with `O_NOFOLLOW`, the last component is a symbolic link.
  var isSymbolicLinkRefused: Bool { errno == ELOOP }
  /// `EINVAL`: for `fsync`, a file (system) that cannot be synchronised.
  var isInvalidArgument: Bool { errno == EINVAL }
}

/// Calls `body` until it does not fail with `EINTR`.
///
/// Returns the call's result when it is not `-1`; otherwise throws a
/// ``SystemError`` naming `call` with the `errno` captured at once.
/// Never use it for `close`: a `close` interrupted by a signal has already
/// released the descriptor, and retrying could close someone else's.
@discardableResult
func retryingEINTR<T: FixedWidthInteger>(_ call: String, _ body: () -> T) throws(SystemError) -> T {
  while true {
    let result = body()
    if result != -1 { return result }
    let code = Glibc.errno
    if code == EINTR { continue }
    throw SystemError(call: call, errno: code)
  }
}
