import Glibc
import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// `SecureFile.withRegularFile` (issue 30): a large file is mapped for as long as the body runs,
/// a small one read, and both give the body the file's bytes and `fstat` result; what is found
/// instead of a regular file reaches the body as the failure `readRegularFile` throws.
@Suite struct SecureFileTests {
  /// The lines of `/proc/self/maps` that map `path`.
  private func mappings(of path: String) -> [Substring] {
    // `readAll`, not `readFile`: a `/proc` file's size is 0, and reading stops at no size.
    let bytes = try? FileDescriptor.open("/proc/self/maps", .readOnly).readAll(limit: 1 << 24, expectedSize: 0)
    let maps = String(decoding: bytes.flatMap { $0 } ?? [], as: UTF8.self)
    #expect(maps.contains("[stack]"))
    return maps.split(separator: "\n").filter { $0.hasSuffix(" " + path) }
  }

  /// What the body of `withRegularFile` saw: the bytes, the status and whether the file was
  /// mapped while it ran, or the failure.
  private func contents(
    of path: String, limit: Int = 1 << 20
  ) -> Result<(bytes: [UInt8], status: FileStatus, mapped: Bool), SecureFile.ReadFailure> {
    var calls = 0
    let seen = SecureFile.withRegularFile(path, limit: limit) { result in
      calls += 1
      return result.map { file in (bytes: Array(file.bytes), status: file.status, mapped: !mappings(of: path).isEmpty) }
    }
    #expect(calls == 1)
    #expect(mappings(of: path).isEmpty, "the mapping ends with the body")
    return seen
  }

  @Test(arguments: [
    (SecureFile.mappingThreshold - 1, false), (SecureFile.mappingThreshold, true), (600_000, true), (1, false),
  ])
  func aLargeFileIsMappedAndASmallOneRead(size: Int, mapped: Bool) throws {
    let directory = try TemporaryDirectory()
    let path = directory.at("file")
    let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 12) }
    try writeFile(path, bytes)
    let read = try SecureFile.readRegularFile(path, limit: 1 << 20)
    let seen = try contents(of: path).get()
    #expect(seen.bytes == bytes)
    #expect(seen.status == read.status)
    #expect(read.bytes == bytes)
    #expect(seen.mapped == mapped)
  }

  @Test func anEmptyFileIsReadEmpty() throws {
    let directory = try TemporaryDirectory()
    try writeFile(directory.at("empty"), [])
    let seen = try contents(of: directory.at("empty")).get()
    #expect(seen.bytes.isEmpty)
    #expect(!seen.mapped)
  }

  /// A file over the limit is refused before it is mapped or read, at any size.
  @Test(arguments: [10, SecureFile.mappingThreshold + 10])
  func aFileOverTheLimitIsTooLarge(size: Int) throws {
    let directory = try TemporaryDirectory()
    let path = directory.at("file")
    try writeFile(path, [UInt8](repeating: 0x20, count: size))
    #expect(throws: SecureFile.ReadFailure.tooLarge) { try contents(of: path, limit: size - 1).get() }
    #expect(throws: SecureFile.ReadFailure.tooLarge) { try SecureFile.readRegularFile(path, limit: size - 1) }
  }

  @Test func whatIsNotARegularFileReachesTheBody() throws {
    let directory = try TemporaryDirectory()
    try writeFile(directory.at("target"), [UInt8](repeating: 0x20, count: SecureFile.mappingThreshold))
    #expect(symlink(directory.at("target"), directory.at("link")) == 0)
    #expect(mkfifo(directory.at("fifo"), 0o600) == 0)
    #expect(mkdir(directory.at("directory"), 0o700) == 0)
    #expect(throws: SecureFile.ReadFailure.missing) { try contents(of: directory.at("absent")).get() }
    #expect(throws: SecureFile.ReadFailure.symbolicLink) { try contents(of: directory.at("link")).get() }
    #expect(throws: SecureFile.ReadFailure.notRegularFile) { try contents(of: directory.at("fifo")).get() }
    #expect(throws: SecureFile.ReadFailure.notRegularFile) { try contents(of: directory.at("directory")).get() }
  }
}
