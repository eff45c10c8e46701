import Foundation
import GHLoginTestSupport

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// A tiny HTTP/1.1 client for the fake GitHub's plain-HTTP control port on 127.0.0.1.
///
/// Written over raw Glibc sockets on purpose: the end-to-end tests must not pull in
/// URLSession/FoundationNetworking. One request per connection (`Connection: close`); the
/// answer is read until EOF. `EINTR` is retried; any other errno becomes a ``HarnessError``.
enum ControlHTTP {
  /// A status code and the raw body.
  struct Response {
    let status: Int
    let body: [UInt8]
  }

  /// Sends `method path` with `body` to 127.0.0.1:`port` and returns the response.
  /// The C calls are `socket`, `connect`, `send` and `recv`, each bounded by `timeout` seconds.
  static func send(
    method: String, port: Int, path: String, body: [UInt8] = [], timeout: Double = 10
  ) throws -> Response {
    let fd = LoopbackSocket.connect(port: port, timeout: Int(timeout))
    guard fd >= 0 else {
      throw HarnessError("control: connect to 127.0.0.1:\(port) failed, errno \(-fd)")
    }
    defer { close(fd) }

    var request = Array(
      ("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n"
        + "Connection: close\r\n\r\n").utf8)
    request += body
    try sendAll(fd, request)
    let raw = try receiveAll(fd)
    return try parse(raw)
  }

  /// Writes every byte (`send` with `MSG_NOSIGNAL`, retried on `EINTR`).
  private static func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if sent < 0 {
        if errno == EINTR { continue }
        throw HarnessError("control: send failed, errno \(errno)")
      }
      offset += sent
    }
  }

  /// Reads until EOF (`recv`, retried on `EINTR`; a timeout is an error).
  private static func receiveAll(_ fd: Int32) throws -> [UInt8] {
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count == 0 { return result }
      if count < 0 {
        if errno == EINTR { continue }
        throw HarnessError("control: recv failed, errno \(errno)")
      }
      result += buffer[0..<count]
    }
  }

  /// Splits a whole response into status and body (the body ends at Content-Length or EOF).
  private static func parse(_ raw: [UInt8]) throws -> Response {
    let separator: [UInt8] = [13, 10, 13, 10]
    guard let end = raw.firstRange(of: separator) else {
      throw HarnessError("control: response without a header block (\(raw.count) bytes)")
    }
    let head = String(decoding: raw[..<end.lowerBound], as: UTF8.self)
    let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
    let statusParts = lines.first?.split(separator: " ") ?? []
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
      throw HarnessError("control: bad status line \(lines.first ?? "")")
    }
    var body = Array(raw[end.upperBound...])
    for line in lines.dropFirst() {
      let parts = line.split(separator: ":", maxSplits: 1)
      if parts.count == 2, parts[0].lowercased() == "content-length",
        let length = Int(parts[1].trimmingCharacters(in: .whitespaces)), length <= body.count
      {
        body = Array(body[..<length])
      }
    }
    return Response(status: status, body: body)
  }
}
