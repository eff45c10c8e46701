#if canImport(Glibc)
  import Glibc
#endif

/// A file descriptor of this process used as a text output; writes are unbuffered.
///
/// errno policy: `write(2)` is retried on `EINTR`; any other error drops the rest of the text
/// (nobody is left to tell when stdout or stderr is gone). `isatty(3)` failing means "not a terminal".
struct FileOutput: TextOutput {
  package let fd: Int32
  package init(fd: Int32) { self.fd = fd }

  package func write(_ text: String) {
    var text = text
    text.withUTF8 { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return
        }
        offset += written
      }
    }
  }

  package var isTerminal: Bool { isatty(fd) == 1 }
}

/// The process's standard input.
///
/// errno policy: `read(2)` is retried on `EINTR`; any other error counts as end of input
/// (what was read so far is returned). `isatty(3)` failing means "not a terminal".
struct FileInput: ByteInput {
  package let fd: Int32
  package init(fd: Int32) { self.fd = fd }

  package func readAll(limit: Int) -> [UInt8]? { read(limit: limit) { _, _ in false } }

  /// Reads what is there, chunk by chunk, and stops as soon as an empty line has arrived:
  /// a `read` on a pipe returns what the writer wrote, so this never waits for the writer to
  /// close its end once the request is complete.
  package func readUntilEmptyLine(limit: Int) -> [UInt8]? {
    read(limit: limit) { bytes, start in Self.hasEmptyLine(bytes, from: start) }
  }

  /// Reads chunks until end of input, or until `done(bytes, startOfLastChunk)` says so;
  /// nil when more than `limit` bytes arrive.
  private func read(limit: Int, until done: ([UInt8], Int) -> Bool) -> [UInt8]? {
    var bytes: [UInt8] = []
    // Not a zeroed [UInt8]: clearing 16 KiB per call is on `git-credential get`'s path.
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 16_384, alignment: 1)
    defer { chunk.deallocate() }
    while true {
      let count = Glibc.read(fd, chunk.baseAddress, chunk.count)
      if count < 0 {
        if errno == EINTR { continue }
        return bytes
      }
      if count == 0 { return bytes }
      let start = bytes.count
      bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<count]))
      if bytes.count > limit { return nil }
      if done(bytes, start) { return bytes }
    }
  }

  package func readLine() -> String? {
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      let count = Glibc.read(fd, &byte, 1)
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
      if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
      bytes.append(byte)
      if bytes.count > 65_536 { return String(decoding: bytes, as: UTF8.self) }
    }
  }

  package var isTerminal: Bool { isatty(fd) == 1 }
  package var descriptor: Int32? { fd }
}
