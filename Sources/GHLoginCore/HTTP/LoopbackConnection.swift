/// A request the loopback listener accepted: a `GET` with no body.
///
/// The handler checks `Host` (it knows the port, R10) and the path (R7).
struct LoopbackRequest: Sendable {
  package var method: String
  /// The request target as sent, e.g. `/callback?code=...&state=...`.
  package var target: String
  package var headers: HTTPHeaders

  package init(method: String, target: String, headers: HTTPHeaders) {
    self.method = method
    self.target = target
    self.headers = headers
  }
}

/// The handler's answer; `finish` ends ``LoopbackServer/serve(deadline:clock:stopFD:watching:handler:)`` once it is sent.
package struct LoopbackReply: Sendable {
  package var status: Int
  /// Fields to send; the server adds `Content-Length` and `Connection: close`.
  package var headers: HTTPHeaders
  package var body: [UInt8]
  package var finish: Bool

  package init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], finish: Bool = false) {
    self.status = status
    self.headers = headers
    self.body = body
    self.finish = finish
  }
}

/// One accepted connection: read a head, answer once, then drain and close.
///
/// States: reading (until the head is complete or its deadline passes),
/// writing (the answer, non-blocking), draining (after `shutdown(SHUT_WR)`,
/// reading and discarding briefly so unread input does not turn the close
/// into a reset that destroys the answer in flight).
final class LoopbackConnection {
  package enum State: Equatable {
    case reading
    case writing(finishesServing: Bool)
    case draining
  }

  /// How long to keep draining after the answer, at most.
  static let drainSeconds = 2.0
  /// The most bytes discarded while draining before giving up.
  static let drainLimit = 1 << 20

  package let socket: Socket
  package private(set) var state = State.reading
  /// When the connection is closed whatever its state (monotonic seconds).
  package private(set) var deadline: Double
  private var parser = HTTPRequestParser()
  private var output: [UInt8] = []
  private var written = 0
  private var drained = 0

  package init(socket: Socket, deadline: Double) {
    self.socket = socket
    self.deadline = deadline
  }

  /// The poll events this connection waits for.
  package var events: Int16 {
    if case .writing = state { return Poll.writable }
    return Poll.readable
  }

  /// What a step of the connection produced.
  package enum Step {
    /// Keep it open and poll again.
    case open
    /// A complete, acceptable request: hand it to the handler, then call ``answer(_:finishesServing:now:)``.
    case request(LoopbackRequest)
    /// A request the server answers itself with this status (400, 405, 431), without the handler.
    case reject(Int)
    /// Close it now.
    case close
    /// The finishing answer has been sent in full.
    case finished
  }

  /// Reads what is there and advances the state; called when poll reports the socket ready.
  package func step(now: Double) -> Step {
    switch state {
    case .reading: return read()
    case .writing(let finishesServing): return flush(now: now, finishesServing: finishesServing)
    case .draining: return drain()
    }
  }

  /// Queues `bytes` as the answer and tries to send it at once.
  package func answer(_ bytes: [UInt8], finishesServing: Bool, now: Double) -> Step {
    output = bytes
    written = 0
    state = .writing(finishesServing: finishesServing)
    return flush(now: now, finishesServing: finishesServing)
  }

  private func read() -> Step {
    var bytes: [UInt8] = []
    let progress: FileDescriptor.Progress
    do {
      progress = try socket.receive(appendingTo: &bytes, count: 4096)
    } catch {
      return .close
    }
    switch progress {
    case .wouldBlock: return .open
    case .endOfFile: return .close
    case .bytes: break
    }
    let result: HTTPParseResult<HTTPRequestHead>
    do {
      result = try parser.feed(bytes)
    } catch {
      switch error {
      case .headersTooLarge, .tooManyHeaders: return .reject(431)
      default: return .reject(400)
      }
    }
    guard case .complete(let head) = result else { return .open }
    if head.method != "GET" { return .reject(405) }
    if head.hasBody { return .reject(400) }
    return .request(LoopbackRequest(method: head.method, target: head.target, headers: head.headers))
  }

  private func flush(now: Double, finishesServing: Bool) -> Step {
    while written < output.count {
      let progress: FileDescriptor.Progress
      do {
        progress = try socket.send(output[written...])
      } catch {
        return finishesServing ? .finished : .close
      }
      switch progress {
      case .bytes(let count): written += count
      case .wouldBlock: return .open
      case .endOfFile: return finishesServing ? .finished : .close
      }
    }
    socket.shutdownWrite()
    state = .draining
    deadline = now + Self.drainSeconds
    if finishesServing { return .finished }
    // Most clients have already sent everything (often closed, too): find out now, not a round later.
    return drain()
  }

  private func drain() -> Step {
    var bytes: [UInt8] = []
    do {
      switch try socket.receive(appendingTo: &bytes, count: 16 * 1024) {
      case .wouldBlock: return .open
      case .endOfFile: return .close
      case .bytes(let count):
        drained += count
        return drained > Self.drainLimit ? .close : .open
      }
    } catch {
      return .close
    }
  }

  package func close() { socket.close() }
}
