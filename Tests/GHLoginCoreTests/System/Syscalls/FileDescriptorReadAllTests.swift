import Glibc
import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// `FileDescriptor.readAll` sizes its buffer from the expected size but must still read
/// everything when the file holds more, and refuse more than the limit.
@Suite struct FileDescriptorReadAllTests {
  /// A pipe whose write end got `bytes` and was closed; returns the read end.
  private func pipe(with bytes: [UInt8]) throws -> FileDescriptor {
    var fds: [Int32] = [0, 0]
    try #require(Glibc.pipe(&fds) == 0)
    let written = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
    close(fds[1])
    try #require(written == bytes.count)
    return FileDescriptor(owning: fds[0])
  }

  @Test(arguments: [0, 1, 10, 100, 999, 1000, 1001, 5000])
  func readsEverythingWhateverTheExpectedSize(expected: Int) throws {
    let bytes = (0..<1000).map { UInt8($0 % 251) }
    let fd = try pipe(with: bytes)
    #expect(try fd.readAll(limit: 4096, expectedSize: expected) == bytes)
  }

  @Test func anEmptyInputIsEmpty() throws {
    let fd = try pipe(with: [])
    #expect(try fd.readAll(limit: 10, expectedSize: 0) == [])
  }

  @Test func exactlyTheLimitIsReadAndOneMoreIsRefused() throws {
    let atLimit = try pipe(with: Array(repeating: 7, count: 64))
    #expect(try atLimit.readAll(limit: 64, expectedSize: 64) == Array(repeating: 7, count: 64))
    let over = try pipe(with: Array(repeating: 7, count: 65))
    #expect(try over.readAll(limit: 64, expectedSize: 10) == nil)
  }

  /// A large file comes out whole, its size expected or not, and one byte over the limit is
  /// refused.
  @Test(arguments: [600_000, 599_999, 65_535, 1_000_000, 0])
  func readsALargeFileWhole(expected: Int) throws {
    let directory = try TemporaryDirectory()
    let bytes = (0..<600_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 12) }
    let path = directory.at("large")
    try FileDescriptor.open(path, .writeOnly, [.create], mode: 0o600).writeAll(bytes)
    let fd = try FileDescriptor.open(path, .readOnly)
    #expect(try fd.readAll(limit: 1 << 20, expectedSize: expected) == bytes)
    let again = try FileDescriptor.open(path, .readOnly)
    #expect(try again.readAll(limit: 599_999, expectedSize: expected) == nil)
  }

  @Test func aNegativeExpectedSizeIsTreatedAsZero() throws {
    let fd = try pipe(with: [1, 2, 3])
    #expect(try fd.readAll(limit: 10, expectedSize: -5) == [1, 2, 3])
  }
}
