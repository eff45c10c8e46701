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
    guard LoopbackSocket.sendAll(fd, request) else { throw HarnessError("control: send failed, errno \(errno)") }
    let (raw, error) = LoopbackSocket.receiveAll(fd, limit: .max)
    if let error { throw HarnessError("control: recv failed, errno \(error)") }
    return try parse(raw)
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
