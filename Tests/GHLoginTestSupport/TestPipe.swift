#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// A pipe for one test, both ends closed with its last reference: a stop descriptor
/// (``signal()`` makes ``read`` readable, as Ctrl-C does to the interrupt pipe) or a line
/// source standing in for a terminal (``type(_:)``).
public final class TestPipe: @unchecked Sendable {
  /// The read end (the stop descriptor, or the input a test hands the code under test).
  public let read: Int32
  /// The write end.
  public let write: Int32

  public struct Failure: Error, CustomStringConvertible {
    public let errno: Int32
    public var description: String { "pipe failed, errno \(errno)" }
  }

  /// A new pipe; `signalled` writes one byte at once, so a stop is already pending.
  public init(signalled: Bool = false) throws {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw Failure(errno: errno) }
    (read, write) = (fds[0], fds[1])
    if signalled { signal() }
  }

  deinit {
    close(read)
    close(write)
  }

  /// Makes the read end readable (one byte), as a stop would.
  public func signal() { _ = Glibc.write(write, "x", 1) }

  /// Writes `line` and a newline, as typed on a terminal.
  public func type(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { Glibc.write(write, $0.baseAddress, $0.count) }
  }
}
