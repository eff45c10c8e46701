/// How ``LoopbackServer/serve(deadline:clock:stopFD:watching:handler:)`` ended.
enum LoopbackOutcome: Sendable, Equatable {
  /// The handler returned a reply with `finish == true`, and it was sent.
  case finished
  /// The overall deadline passed.
  case timedOut
  /// `stopFD` became readable (Ctrl-C through ``Interrupt``).
  case interrupted
  /// The `watching` descriptor is readable: the caller reads it; calling `serve` again resumes.
  case readable
}

/// The RFC 8252 redirect listener: HTTP/1.1 on `127.0.0.1`, served from one `poll` loop.
///
/// Binds only `127.0.0.1` (R1), without `SO_REUSEADDR`/`SO_REUSEPORT` (R5), close-on-exec (R6).
/// Every connection is non-blocking with its own deadline (`readTimeout`) and head limit, and is
/// answered once and closed, so idle or dripping connections never delay the real callback
/// (R11); above `maxConnections` the oldest is dropped. Malformed requests get 400, 431 or 405
/// without reaching the handler. Not `Sendable`: one thread uses it.
final class LoopbackServer {
  /// The port actually bound, from `getsockname`.
  package let port: Int
  /// The per-connection deadline in seconds, from accept.
  let readTimeout: Double
  /// The most connections kept open at once.
  let maxConnections: Int

  private var listener: Socket?
  private var connections: [LoopbackConnection] = []
  /// The listen backlog (the kernel caps it at `net.core.somaxconn`).
  ///
  /// Larger than the usual 128: when the accept queue is full the kernel drops
  /// a SYN and the browser retries only after a second, so a local flood of
  /// junk connections would delay the real callback.
  static let backlog: Int32 = 1024
  /// The most connections accepted in one round of the loop, so a flood cannot starve the open ones.
  static let acceptBatch = 256

  /// Binds `127.0.0.1:port` (0 picks an ephemeral port) and listens.
  ///
  /// Throws ``HTTPError/listen(port:reason:inUse:)``, e.g. "port 8080 on 127.0.0.1 is in use".
  package init(port: Int = 0, readTimeout: Double = 10, maxConnections: Int = 1024) throws(HTTPError) {
    guard (0...65535).contains(port) else { throw .listen(port: port, reason: "not a port number", inUse: false) }
    do {
      let socket = try Socket.listenOnLoopback(port: port, backlog: Self.backlog)
      self.port = try socket.localAddress().port
      listener = socket
    } catch {
      throw .listen(
        port: port, reason: error.reason, inUse: error == SystemError(call: "bind", errno: Socket.addressInUse))
    }
    self.readTimeout = readTimeout
    self.maxConnections = max(1, maxConnections)
  }

  deinit { close() }

  /// Closes the listener and every open connection. Idempotent.
  package func close() {
    listener?.close()
    listener = nil
    for connection in connections { connection.close() }
    connections.removeAll()
  }

  /// The listening descriptor (for tests: close-on-exec, bound address).
  var listenerFD: Int32? { listener?.fd }
  /// The open connections' descriptors (for tests: close-on-exec).
  var connectionFDs: [Int32] { connections.map { $0.socket.fd } }

  /// Serves every connection until a finishing reply is sent, `deadline` passes, `stopFD` is
  /// readable, or `watching` is.
  ///
  /// `deadline` is on `clock`'s monotonic scale. `watching` (say, standard input for a pasted
  /// redirect URL, see ``PasteBack/Input``) is only polled, never read: the caller reads it after
  /// `.readable` and stops passing it at its end of file. Connections survive between calls.
  /// After ``close()`` it returns `.timedOut` at once.
  package func serve(
    deadline: Double, clock: any TimeSource, stopFD: Int32? = nil, watching: Int32? = nil,
    handler: (LoopbackRequest) -> LoopbackReply
  ) -> LoopbackOutcome {
    guard let listener else { return .timedOut }
    var set = PollSet()
    while true {
      let now = clock.monotonic()
      if now >= deadline { return .timedOut }
      expireConnections(now: now)

      set.removeAll()
      let listenerIndex = set.add(listener.fd, events: Poll.readable)
      let stopIndex = stopFD.map { set.add($0, events: Poll.readable) }
      let watchedIndex = watching.map { set.add($0, events: Poll.readable) }
      let firstConnection = set.count
      for connection in connections { set.add(connection.socket.fd, events: connection.events) }
      let wake = connections.reduce(deadline) { min($0, $1.deadline) }
      do {
        if try set.wait(deadline: wake, clock: clock) == 0 { continue }
      } catch {
        // poll itself failed (ENOMEM); nothing can be served, so stop as if interrupted.
        return .interrupted
      }

      if let stopIndex, set.isReady(stopIndex) { return .interrupted }
      let watchedReady = watchedIndex.map { set.isReady($0) } ?? false
      let accepting = set.isReady(listenerIndex)
      let ready = connections.indices.filter { set.isReady(firstConnection + $0) }
      var closing: [ObjectIdentifier] = []
      for index in ready {
        let connection = connections[index]
        switch advance(connection, step: connection.step(now: clock.monotonic()), clock: clock, handler: handler) {
        case .open, .request, .reject: break
        case .close: closing.append(ObjectIdentifier(connection))
        case .finished:
          remove(closing)
          return .finished
        }
      }
      remove(closing)
      if accepting { acceptPending(on: listener, now: clock.monotonic()) }
      if watchedReady { return .readable }
    }
  }

  /// Follows a connection's step through the handler or a rejection to the step after answering.
  private func advance(
    _ connection: LoopbackConnection, step: LoopbackConnection.Step, clock: any TimeSource,
    handler: (LoopbackRequest) -> LoopbackReply
  ) -> LoopbackConnection.Step {
    switch step {
    case .open, .close, .finished: return step
    case .reject(let status):
      return connection.answer(Self.rejection(status), finishesServing: false, now: clock.monotonic())
    case .request(let request):
      let reply = handler(request)
      let bytes =
        (try? HTTPWriter.response(status: reply.status, headers: reply.headers, body: reply.body))
        ?? Self.rejection(500)
      return connection.answer(bytes, finishesServing: reply.finish, now: clock.monotonic())
    }
  }

  /// The server's own plain-text answer for `status`.
  package static func rejection(_ status: Int) -> [UInt8] {
    var headers = HTTPHeaders([("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")])
    if status == 405 { headers.add("Allow", "GET") }
    let body = Array((HTTPWriter.reasonPhrase(status) + "\n").utf8)
    return (try? HTTPWriter.response(status: status, headers: headers, body: body)) ?? []
  }

  /// Accepts what is queued (a bounded batch per round, so a flood cannot starve the others).
  private func acceptPending(on listener: Socket, now: Double) {
    for _ in 0..<Self.acceptBatch {
      let accepted: Socket?
      do {
        accepted = try listener.accept()
      } catch {
        // Out of descriptors (EMFILE/ENFILE) or similar: make room and try next round.
        dropOldest()
        return
      }
      guard let socket = accepted else { return }
      if connections.count >= maxConnections { dropOldest() }
      connections.append(LoopbackConnection(socket: socket, deadline: now + readTimeout))
    }
  }

  private func dropOldest() {
    guard let oldest = connections.indices.min(by: { connections[$0].deadline < connections[$1].deadline }) else {
      return
    }
    connections[oldest].close()
    connections.remove(at: oldest)
  }

  private func expireConnections(now: Double) {
    connections.removeAll { connection in
      guard connection.deadline <= now else { return false }
      connection.close()
      return true
    }
  }

  private func remove(_ identifiers: [ObjectIdentifier]) {
    guard !identifiers.isEmpty else { return }
    let doomed = Set(identifiers)
    connections.removeAll { connection in
      guard doomed.contains(ObjectIdentifier(connection)) else { return false }
      connection.close()
      return true
    }
  }
}
