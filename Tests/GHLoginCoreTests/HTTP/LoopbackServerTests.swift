import Foundation
import Synchronization
import Testing

@testable import GHLoginCore
import GHLoginTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Answers `/done` with 200 and finish, everything else with 404; records what it saw.
final class RecordingHandler: @unchecked Sendable {
  private(set) var requests: [LoopbackRequest] = []

  func handle(_ request: LoopbackRequest) -> LoopbackReply {
    requests.append(request)
    if request.target.hasPrefix("/done") {
      return LoopbackReply(
        status: 200, headers: HTTPHeaders([("Content-Type", "text/html; charset=utf-8")]), body: Array("ok".utf8),
        finish: true)
    }
    return LoopbackReply(status: 404, body: Array("nope".utf8))
  }
}

struct LoopbackServerTests {
  private func serve(_ server: LoopbackServer, seconds: Double = 20, handler: RecordingHandler) -> LoopbackOutcome {
    let clock = SystemClock()
    return server.serve(deadline: clock.monotonic() + seconds, clock: clock) { handler.handle($0) }
  }

  @Test func bindsOnly127001OnAnEphemeralPort() throws {
    let server = try LoopbackServer()
    defer { server.close() }
    #expect(server.port > 0)
    let fd = try #require(server.listenerFD)
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    #expect(Int32(address.sin_family) == AF_INET)
    #expect(UInt32(bigEndian: address.sin_addr.s_addr) == INADDR_LOOPBACK)
    #expect(Int(UInt16(bigEndian: address.sin_port)) == server.port)

    // R1: /proc/net/tcp lists exactly this listener, on 0100007F (127.0.0.1), and none on 0.0.0.0 or ::.
    let suffix = ":" + String(format: "%04X", server.port)
    // Only listening sockets count: a parallel test's client socket may have the same local port.
    let listening = { (table: String) throws -> [String] in
      try Self.sockets(in: table, localSuffix: suffix).filter { $0.hasSuffix(" 0A") }
    }
    #expect(try listening("/proc/net/tcp") == ["0100007F" + suffix + " 0A"])
    #expect(try listening("/proc/net/tcp6") == [])
  }

  /// "local_address state" for each socket in a /proc/net table whose local address ends in `localSuffix`.
  static func sockets(in table: String, localSuffix: String) throws -> [String] {
    let text = try #require(readProcFile(table), "cannot read \(table)")
    var found: [String] = []
    for line in text.split(separator: "\n").dropFirst() {
      let columns: [Substring] = line.split(separator: " ")
      guard columns.count > 3, columns[1].hasSuffix(localSuffix) else { continue }
      found.append(String(columns[1]) + " " + String(columns[3]))
    }
    return found
  }

  @Test func descriptorsAreCloseOnExec() throws {
    let server = try LoopbackServer()
    defer { server.close() }
    #expect(FileDescriptor.isCloseOnExec(try #require(server.listenerFD)))
    let port = server.port
    let client = Background { TestNetwork.exchange(port: port, "GET /done HTTP/1.1\r\nHost: x\r\n\r\n") }
    let handler = RecordingHandler()
    #expect(serve(server, handler: handler) == .finished)
    #expect(server.connectionFDs.count == 1)
    #expect(server.connectionFDs.allSatisfy(FileDescriptor.isCloseOnExec))
    #expect(client.value()?.hasPrefix("HTTP/1.1 200 OK\r\n") == true)
  }

  @Test func twoServersCannotShareAPort() throws {
    let first = try LoopbackServer()
    defer { first.close() }
    #expect(throws: HTTPError.listen(port: first.port, reason: "Address already in use", inUse: true)) {
      try LoopbackServer(port: first.port)
    }
    do {
      _ = try LoopbackServer(port: first.port)
    } catch {
      #expect(error.message.hasPrefix("port \(first.port) on 127.0.0.1 is in use"))
      #expect(error.exitStatus == .failure)
    }
  }

  @Test func answersBadRequestsWithoutTheHandler() throws {
    let server = try LoopbackServer()
    defer { server.close() }
    let port = server.port
    let client = Background { () -> [String] in
      let requests = [
        "GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "POST /done HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\nhi",
        "GET /done HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\nhi",
        "GET /done HTTP/1.1\nHost: 127.0.0.1\n\n",
        "GARBAGE\r\n\r\n",
        "GET /done HTTP/1.1\r\nX: " + String(repeating: "a", count: 9000) + "\r\n\r\n",
        "GET /done?code=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
      ]
      return requests.map { TestNetwork.exchange(port: port, $0) }
    }
    let handler = RecordingHandler()
    #expect(serve(server, handler: handler) == .finished)
    let answers = try #require(client.value())
    #expect(answers[0].hasPrefix("HTTP/1.1 404 Not Found\r\n"))
    #expect(answers[0].hasSuffix("\r\n\r\nnope"))
    #expect(answers[1].hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"))
    #expect(answers[1].contains("\r\nAllow: GET\r\n"))
    #expect(answers[2].hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
    #expect(answers[3].hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
    #expect(answers[4].hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
    #expect(answers[5].hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
    #expect(answers[6].hasPrefix("HTTP/1.1 200 OK\r\n"))
    for answer in answers { #expect(answer.contains("\r\nConnection: close\r\n")) }
    #expect(handler.requests.map(\.target) == ["/favicon.ico", "/done?code=1"])
    #expect(handler.requests.last?.headers["host"] == "127.0.0.1")
  }

  @Test func hundredKiBOfHeadersGets431AndTheServerGoesOn() throws {
    let server = try LoopbackServer()
    defer { server.close() }
    let port = server.port
    let client = Background { () -> [String] in
      let huge =
        "GET /done HTTP/1.1\r\n"
        + String(repeating: "X-Fill: " + String(repeating: "a", count: 1000) + "\r\n", count: 100)
      return [TestNetwork.exchange(port: port, huge), TestNetwork.exchange(port: port, "GET /done HTTP/1.1\r\n\r\n")]
    }
    let handler = RecordingHandler()
    #expect(serve(server, handler: handler) == .finished)
    let answers = try #require(client.value())
    #expect(answers[0].hasPrefix("HTTP/1.1 431 "))
    #expect(answers[1].hasPrefix("HTTP/1.1 200 OK\r\n"))
    #expect(handler.requests.count == 1)
  }

  @Test func stalledAndDrippingConnectionsDoNotDelayARealRequest() throws {
    let server = try LoopbackServer()
    defer { server.close() }
    let port = server.port
    let client = Background { () -> String in
      let stalled = (0..<50).map { _ in TestNetwork.connect(port: port) }
      let dripping = TestNetwork.connect(port: port)
      TestNetwork.send(dripping, "G")
      for _ in 0..<1000 {
        let junk = TestNetwork.connect(port: port)
        TestNetwork.send(junk, "\u{16}\u{3}\u{1}junk\r\n\r\n")
        close(junk)
      }
      TestNetwork.send(dripping, "E")
      let answer = TestNetwork.exchange(port: port, "GET /done HTTP/1.1\r\n\r\n")
      for fd in stalled + [dripping] { close(fd) }
      return answer
    }
    let handler = RecordingHandler()
    #expect(serve(server, seconds: 8, handler: handler) == .finished)
    #expect(client.value()?.hasPrefix("HTTP/1.1 200 OK\r\n") == true)
    #expect(handler.requests.map(\.target) == ["/done"])
  }

  @Test func idleConnectionsAreClosedAfterTheReadTimeout() throws {
    let server = try LoopbackServer(readTimeout: 10)
    defer { server.close() }
    let port = server.port
    let clock = ManualClock()
    let client = Background { () -> (idleClosed: Bool, done: String) in
      let idle = TestNetwork.connect(port: port)
      TestNetwork.send(idle, "GET /slow")
      let first = TestNetwork.exchange(port: port, "GET /favicon.ico HTTP/1.1\r\n\r\n")
      guard first.hasPrefix("HTTP/1.1 404") else { return (false, "unexpected: " + first) }
      clock.advance(by: 11)
      let done = TestNetwork.exchange(port: port, "GET /done HTTP/1.1\r\n\r\n")
      let closed = TestNetwork.seesEndOfFile(idle)
      close(idle)
      return (closed, done)
    }
    let handler = RecordingHandler()
    #expect(server.serve(deadline: clock.monotonic() + 60, clock: clock) { handler.handle($0) } == .finished)
    let result = try #require(client.value())
    #expect(result.done.hasPrefix("HTTP/1.1 200 OK"))
    #expect(result.idleClosed, "the idle connection is closed without an answer")
    #expect(handler.requests.map(\.target) == ["/favicon.ico", "/done"])
  }

  @Test func theOldestConnectionMakesRoomForNewOnes() throws {
    let server = try LoopbackServer(maxConnections: 2)
    defer { server.close() }
    let port = server.port
    let client = Background { () -> (evicted: [Bool], done: String) in
      let stalled = (0..<3).map { _ in TestNetwork.connect(port: port) }
      let done = TestNetwork.exchange(port: port, "GET /done HTTP/1.1\r\n\r\n")
      // The first two were dropped to admit the third and the real request; their reads end at once.
      let evicted = stalled.prefix(2).map(TestNetwork.seesEndOfFile)
      for fd in stalled { close(fd) }
      return (evicted, done)
    }
    let handler = RecordingHandler()
    #expect(serve(server, handler: handler) == .finished)
    let result = try #require(client.value())
    #expect(result.evicted == [true, true])
    #expect(result.done.hasPrefix("HTTP/1.1 200 OK"))
  }

  @Test func deadlineGivesTimedOut() throws {
    let server = try LoopbackServer()
    defer { server.close() }
    let clock = ManualClock()
    let handler = RecordingHandler()
    #expect(server.serve(deadline: clock.monotonic(), clock: clock) { handler.handle($0) } == .timedOut)
    #expect(server.serve(deadline: clock.monotonic() - 1, clock: clock) { handler.handle($0) } == .timedOut)
  }

  @Test func stopDescriptorGivesInterrupted() throws {
    let server = try LoopbackServer()
    defer { server.close() }
    let pipe = try FileDescriptor.pipe()
    #expect(try pipe.write.write([1][...]) == .bytes(1))
    let clock = SystemClock()
    let handler = RecordingHandler()
    let outcome = server.serve(deadline: clock.monotonic() + 20, clock: clock, stopFD: pipe.read.rawValue) {
      handler.handle($0)
    }
    #expect(outcome == .interrupted)
  }

  /// A watched descriptor ends `serve` with `.readable` and is not read: the caller reads it;
  /// serving resumes on the next call.
  @Test func aWatchedDescriptorIsPolledNotRead() throws {
    let server = try LoopbackServer()
    defer { server.close() }
    let pipe = try FileDescriptor.pipe()
    let clock = SystemClock()
    let handler = RecordingHandler()
    func serveOnce(_ seconds: Double) -> LoopbackOutcome {
      server.serve(deadline: clock.monotonic() + seconds, clock: clock, watching: pipe.read.rawValue) {
        handler.handle($0)
      }
    }
    #expect(serveOnce(0.2) == .timedOut)
    #expect(try pipe.write.write(Array("x\n".utf8)[...]) == .bytes(2))
    #expect(serveOnce(20) == .readable)
    #expect(serveOnce(20) == .readable, "the byte is still there: serve never reads it")
    var byte: [UInt8] = []
    _ = try FileDescriptor.read(pipe.read.rawValue, appendingTo: &byte, count: 16)
    #expect(byte == Array("x\n".utf8))
    #expect(serveOnce(0.2) == .timedOut)
  }

  @Test func rejectionsAreWellFormed() throws {
    for status in [400, 405, 431] {
      let response = try parseResponse(LoopbackServer.rejection(status)).get()
      #expect(response.status == status)
      #expect(response.headers["Connection"] == "close")
      #expect(response.headers["Cache-Control"] == "no-store")
    }
  }

  @Test func portOutOfRangeIsRefused() {
    #expect(throws: HTTPError.listen(port: 70000, reason: "not a port number", inUse: false)) {
      try LoopbackServer(port: 70000)
    }
  }
}
