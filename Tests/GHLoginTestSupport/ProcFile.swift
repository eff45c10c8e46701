import Glibc

/// The whole text of a file under /proc, read until end of file.
///
/// Foundation's `String(contentsOfFile:)` and `FileManager.contents(atPath:)` trust `st_size`,
/// which is 0 for /proc files, and return only the first page: a /proc/net/tcp with more than
/// about 30 sockets (other tests running in parallel) then silently loses entries.
public func readProcFile(_ path: String) -> String? {
  let fd = open(path, O_RDONLY | O_CLOEXEC)
  guard fd >= 0 else { return nil }
  defer { close(fd) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65_536)
  while true {
    let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if count < 0 {
      if errno == EINTR { continue }
      return nil
    }
    if count == 0 { break }
    bytes += chunk[..<count]
  }
  return String(decoding: bytes, as: UTF8.self)
}
