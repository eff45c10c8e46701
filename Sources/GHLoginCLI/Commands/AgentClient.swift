import GHLoginCore

/// One exchange with the agent at a socket path (doc/agent.md, "The protocol"): connect, send the
/// request, read the answer, within 5 seconds in all. A socket nothing listens on (ENOENT,
/// ECONNREFUSED: an agent that ended, a stale socket) fails at once.
enum AgentClient {
  /// How long one exchange may take.
  static let timeout = 5.0

  /// The agent is not there, or did not answer in the protocol.
  struct Unreachable: ReportableError, Equatable {
    var socket: String
    var reason: String
    var message: String {
      "the ghlogin agent is not reachable at \(Sanitize.terminal(socket, maxCharacters: 200)) (\(reason)); "
        + "start it with 'eval \"$(ghlogin agent start)\"', or unset \(AgentPaths.socketVariable) to use "
        + "the logins stored here"
    }
    var exitStatus: ExitStatus { .failure }
    var errorKind: ErrorKind { .network }
  }

  /// The agent's answer to `request`.
  static func exchange(_ request: AgentRequest, socket path: String, clock: any TimeSource) throws(Unreachable)
    -> AgentAnswer
  {
    let deadline = clock.monotonic() + timeout
    let bytes: [UInt8]
    do { bytes = try request.fields.encoded() } catch {
      throw Unreachable(socket: path, reason: "the request cannot be sent: \(error.reason)")
    }
    let socket: Socket
    do { socket = try UnixSocket.connect(to: path, deadline: deadline, clock: clock) } catch {
      let reason = UnixSocket.isUnreachable(error) ? "nothing answers there" : "\(error)"
      throw Unreachable(socket: path, reason: reason)
    }
    defer { socket.close() }
    // A peer the agent refuses is answered without its request being read: a failed write
    // (EPIPE) still leaves that answer to read.
    let sent = (try? UnixSocket.write(bytes, to: socket, deadline: deadline, clock: clock)) ?? true
    guard sent else {
      throw Unreachable(socket: path, reason: "it did not take the request within \(Int(timeout)) seconds")
    }
    let answer: [UInt8]?
    do {
      answer = try UnixSocket.read(
        socket, limit: AgentMessage.maximumSize, deadline: deadline, clock: clock,
        until: { AgentMessage.end(in: $0) != nil })
    } catch {
      throw Unreachable(socket: path, reason: "\(error)")
    }
    guard let answer else { throw Unreachable(socket: path, reason: "no answer within \(Int(timeout)) seconds") }
    do { return try AgentAnswer.parse(answer) } catch {
      throw Unreachable(socket: path, reason: "its answer is not in the agent's protocol: \(error.reason)")
    }
  }

  /// The agent's pid when an agent answers at `path`, else nil.
  static func ping(_ path: String, clock: any TimeSource) -> Int32? {
    guard let answer = try? exchange(AgentRequest(.ping), socket: path, clock: clock), answer.status == .ok else {
      return nil
    }
    return answer.pid ?? 0
  }
}

extension AgentClient {
  /// The agent refused a forward request: its message and exit status.
  typealias Refused = AgentClientRoute.Refused

  /// The main socket to ask for forwards: `GHLOGIN_AGENT_SOCK` when set, else the standard one.
  static func mainSocket(in environment: Environment) -> String {
    environment.variables[AgentPaths.socketVariable].flatMap { $0.isEmpty ? nil : $0 }
      ?? AgentPaths.standard(environment.variables).socket
  }

  /// Asks the agent for a forward with `policy`, ended when the process `pid` ends (nil: only by
  /// its TTL, `agent revoke` or `agent stop`). Returns the forward's id and socket path; throws
  /// ``Unreachable`` or ``Refused`` (the agent's message and exit status).
  static func createForward(
    _ policy: ForwardPolicy, watching pid: Int32?, in environment: Environment
  ) throws -> (id: String, path: String) {
    let answer = try exchange(
      AgentRequest(forward: policy, watching: pid), socket: mainSocket(in: environment), clock: environment.clock)
    guard answer.status == .ok, let id = answer.forward, let path = answer.path else {
      throw AgentClientRoute.refused(answer)
    }
    return (id, path)
  }

  /// Ends the forward `id` (its id or name): its socket is removed and its tokens revoked.
  static func endForward(id: String, in environment: Environment) throws {
    var request = AgentRequest(.end)
    request.forward = id
    let answer = try exchange(request, socket: mainSocket(in: environment), clock: environment.clock)
    guard answer.status == .ok else { throw AgentClientRoute.refused(answer) }
  }

  /// The agent's forwards, one line each.
  static func listForwards(in environment: Environment) throws -> [String] {
    let answer = try exchange(AgentRequest(.list), socket: mainSocket(in: environment), clock: environment.clock)
    guard answer.status == .ok else { throw AgentClientRoute.refused(answer) }
    return answer.listing.map { Sanitize.terminal($0, maxCharacters: 2000) }
  }
}
