import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Why a helper of this module could not do its job.
public struct TestSupportError: Error, CustomStringConvertible {
  public let description: String

  public init(_ description: String) { self.description = description }
}

/// Creates a new private (0700) directory `BASE/PREFIX.XXXXXX` with `mkdtemp(3)` and returns its
/// path; `BASE` is `$TMPDIR` when set and not empty, else `/tmp`. Nothing removes it: hold a
/// ``TemporaryDirectory`` for that, or call ``removeTemporaryDirectory(_:)``.
public func makeTemporaryDirectory(prefix: String) throws -> String {
  let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
  var template = Array("\(base)/\(prefix).XXXXXX".utf8CString)
  let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
    guard let base = buffer.baseAddress else { return false }
    return mkdtemp(base) != nil
  }
  guard made else { throw TestSupportError("mkdtemp failed for \(prefix), errno \(errno)") }
  return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Removes the tree at `path`, first giving the owner full access to every directory in it
/// again (tests take some away), without spawning a process (a child would briefly share the
/// caller's descriptors, the store's lock among them). Links are removed, never followed.
/// Failures are ignored.
public func removeTemporaryDirectory(_ path: String) {
  var pending = [path]
  while let directory = pending.popLast() {
    chmod(directory, 0o700)
    for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
      let child = directory + "/" + name
      var info = stat()
      if lstat(child, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR { pending.append(child) }
    }
  }
  try? FileManager.default.removeItem(atPath: path)
}

/// A fresh private directory (``makeTemporaryDirectory(prefix:)``), removed with
/// ``removeTemporaryDirectory(_:)`` when the last reference goes away.
public final class TemporaryDirectory: @unchecked Sendable {
  /// The directory (mode 0700).
  public let path: String

  /// Makes `$TMPDIR/PREFIX.XXXXXX` (or under `/tmp`).
  public init(prefix: String = "ghlogin-test") throws {
    path = try makeTemporaryDirectory(prefix: prefix)
  }

  deinit { removeTemporaryDirectory(path) }

  /// `path/name`.
  public func at(_ name: String) -> String { path + "/" + name }
}
