import GHLoginCore

/// The agent itself (`ghlogin agent --foreground`, issue 35 §1): listens on the main socket,
/// answers one request per connection from the local store through the same ``Workspace`` paths
/// `token` and the helpers use. Requests arrive side by side (each connection with its own
/// buffer and deadline); answers are computed one after another. Logs every answer on stderr, with a
/// fingerprint of the token given (never the token).
struct AgentServer {
  var paths: AgentPaths
  var environment: Environment
  /// The forwards, and this agent's identity (shared by the copies of this value).
  let state = AgentState()

  /// How long a peer may take to send its request.
  static let readTimeout = 5.0
  /// What a peer outside the agent's user or namespaces is told (and nothing else).
  static let useAForward = "use a forward: ghlogin container-args"
  /// How many connections wait to be accepted on each socket: 200 clients at once are answered.
  static let backlog: Int32 = 1024
  /// How many connections, on all sockets together, may be sending their request at once (each
  /// holds a descriptor and up to 64 KiB). A new one beyond that refuses the oldest still
  /// arriving ("the agent is reading too many requests at once"), so peers that connect and send
  /// nothing cannot keep out one that sends its request at once.
  static let maximumArriving = 256

  /// Runs until SIGINT or SIGTERM; ends every forward and removes the socket on the way out.
  func run() throws -> ExitStatus {
    CoreDumps.disable()  // R115: no core dump, no ptrace by the user's other processes
    SessionProcess.ignoreBrokenPipes()
    try paths.prepare()
    if (try? SafeDirectory.exists(paths.socket)) == true {
      if let pid = AgentClient.ping(paths.socket, clock: environment.clock) {
        throw AgentCommand.AgentFailure(message: "an agent (pid \(pid)) already answers at \(paths.socket)")
      }
      FileSystem.remove(paths.socket)  // a stale socket of an agent that ended
    }
    let listener = try UnixSocket.listen(at: paths.socket, backlog: Self.backlog)
    defer {
      listener.close()
      FileSystem.remove(paths.socket)
    }
    let stop = Interrupt.install()
    let own = (
      uid: ProcessState.userID, mount: UnixSocket.namespace("mnt", of: nil), user: UnixSocket.namespace("user", of: nil)
    )
    log("listening at \(paths.socket) (pid \(SessionProcess.currentID), agent \(state.agentID))")
    // After an unclean end (kill -9), what the dead agent minted is revoked now (R117).
    if let workspace = try? workspace() {
      let swept = workspace.sweepDeadForwards()
      if swept > 0 { log("revoked \(swept) token(s) minted through forwards of an agent that ended") }
    }
    environment.stdout.write("ready \(paths.socket)\n")
    // Connections whose request is still arriving, oldest first, each with its own buffer and
    // deadline: a peer that sends nothing delays nobody else (issue 35 §1).
    var arriving: [AgentConnection] = []
    defer { for connection in arriving { connection.socket.close() } }
    loop: while true {
      let forwards = state.forwards
      var deadline = forwards.compactMap(\.deadline).min() ?? .infinity
      // A watched process without a pidfd is looked for in /proc every second.
      if forwards.contains(where: { $0.watchPID != nil && $0.watchFD == nil }) {
        deadline = min(deadline, environment.clock.monotonic() + 1)
      }
      deadline = min(deadline, arriving.first?.deadline ?? .infinity)
      let watched = forwards.compactMap { $0.watchFD?.rawValue }
      let reading = arriving
      let ready: [Bool]
      do {
        ready = try Poll.readable(
          [stop, listener.fd] + forwards.map(\.socket.fd) + watched + reading.map(\.socket.fd), deadline: deadline,
          clock: environment.clock)
      } catch { break loop }
      if ready[0] { break loop }
      // Requests that arrived (or whose peer hung up) are answered first, which frees places.
      let first = 2 + forwards.count + watched.count
      for (index, connection) in reading.enumerated() where ready[first + index] {
        if receive(connection) { arriving.removeAll { $0 === connection } }
      }
      if ready[1] {
        try accept(from: listener, through: nil, own: own, into: &arriving)
      }
      for (index, forward) in forwards.enumerated() where ready[index + 2] {
        guard state.forwards.contains(where: { $0 === forward }) else { continue }
        try? accept(from: forward.socket, through: forward, own: own, into: &arriving)
      }
      // A request not arrived in time is refused; so is one through a forward that ended.
      let now = environment.clock.monotonic()
      arriving.removeAll { connection in
        if let forward = connection.forward, !state.forwards.contains(where: { $0 === forward }) {
          reply(
            connection, .refusal("the forward \(forward.id) has ended", exit: .failure), "refused: the forward ended")
        } else if now >= connection.deadline {
          reply(
            connection, .refusal("the request did not arrive within \(Int(Self.readTimeout)) seconds", exit: .usage),
            "refused: no request within \(Int(Self.readTimeout)) s")
        } else {
          return false
        }
        connection.socket.close()
        return true
      }
      for forward in state.forwards {
        if let limit = forward.deadline, now >= limit {
          end(forward, why: "its time to live ended")
        } else if let pid = forward.watchPID, !forward.isWatchedAlive() {
          end(forward, why: "the process \(pid) it watched ended")
        }
      }
    }
    log("stopping")
    for forward in state.forwards { end(forward, why: "the agent stops") }
    return .success
  }

  /// Accepts what waits on `socket` (at most ``maximumArriving`` a round, so that the other
  /// sockets get their turn): checks each peer and reads what it already sent. Beyond
  /// ``maximumArriving`` connections still arriving, the oldest is refused.
  private func accept(
    from socket: Socket, through forward: AgentForward?, own: (uid: UInt32, mount: String?, user: String?),
    into arriving: inout [AgentConnection]
  ) throws {
    for _ in 0..<Self.maximumArriving {
      guard let accepted = try socket.accept() else { return }
      guard let connection = admit(accepted, own: own, through: forward) else {
        accepted.close()
        continue
      }
      if receive(connection) { continue }
      if arriving.count >= Self.maximumArriving {
        let oldest = arriving.removeFirst()
        if !receive(oldest) {
          reply(
            oldest, .refusal("the agent is reading too many requests at once; try again", exit: .failure),
            "refused: too many requests arriving at once (\(Self.maximumArriving))")
          oldest.socket.close()
        }
      }
      arriving.append(connection)
    }
  }

  /// The peer check (main socket: the user's uid and the agent's namespaces, read while the peer
  /// is connected) or tag (forward) of a connection just accepted; nil when it was refused (and
  /// answered) or its peer cannot be read.
  private func admit(
    _ socket: Socket, own: (uid: UInt32, mount: String?, user: String?), through forward: AgentForward?
  ) -> AgentConnection? {
    let deadline = environment.clock.monotonic() + Self.readTimeout
    guard let peer = try? UnixSocket.peer(of: socket) else { return nil }
    let tag = forward == nil ? "pid:\(peer.pid),uid:\(peer.uid)" : Self.peerTag(peer, ownMount: own.mount)
    let connection = AgentConnection(socket: socket, forward: forward, tag: tag, deadline: deadline)
    if forward == nil {
      // The peer's namespaces are read while it is connected; one that cannot be read (another
      // user's process, or one gone) is not the agent's.
      let sameNamespaces =
        own.mount != nil && own.user != nil && UnixSocket.namespace("mnt", of: peer.pid) == own.mount
        && UnixSocket.namespace("user", of: peer.pid) == own.user
      guard peer.uid == own.uid, sameNamespaces else {
        let why = peer.uid != own.uid ? "another user" : "another mount or user namespace"
        reply(connection, .refusal(Self.useAForward, exit: .usage), "refused: \(why); no token")
        return nil
      }
    }
    // A forward checks no uid (a container's may be mapped): the 0700 directory is its fence,
    // and the tag above only says who asked (R116).
    forward?.lastPeer = tag
    return connection
  }

  /// Reads what `connection` has sent without waiting; once its request is complete (its empty
  /// line, more than the size limit, or the peer's end), answers it and closes it. Whether it
  /// is done (answered, refused or failed, and closed).
  private func receive(_ connection: AgentConnection) -> Bool {
    let done: Bool
    do {
      done = try UnixSocket.readAvailable(
        connection.socket, into: &connection.buffer, limit: AgentMessage.maximumSize,
        until: { AgentMessage.end(in: $0, from: $1) != nil })
    } catch {
      log("\(connection.prefix)peer=\(connection.tag) read failed: \(error)")
      connection.socket.close()
      return true
    }
    guard done else { return false }
    serve(connection.buffer, on: connection)
    connection.socket.close()
    return true
  }

  /// Writes `answer` to the connection (for at most ``readTimeout``) and logs `what`.
  private func reply(_ connection: AgentConnection, _ answer: AgentAnswer, _ what: String) {
    let clock = environment.clock
    let bytes = (try? answer.fields.encoded()) ?? []
    _ = try? UnixSocket.write(
      bytes, to: connection.socket, deadline: clock.monotonic() + Self.readTimeout, clock: clock)
    log("\(connection.prefix)peer=\(connection.tag) \(what)")
  }

  /// Answers the request `bytes` that arrived on `connection` (the answer itself, minting and
  /// `--confirm` included, is computed here, one request after another).
  private func serve(_ bytes: [UInt8], on connection: AgentConnection) {
    let clock = environment.clock
    func reply(_ answer: AgentAnswer, _ what: String) { self.reply(connection, answer, what) }
    let request: AgentRequest
    do throws(AgentProtocolError) {
      guard bytes.count <= AgentMessage.maximumSize else { throw AgentProtocolError.tooLarge }
      request = try AgentRequest.parse(bytes)
    } catch {
      reply(.refusal(error.message, exit: .usage), "refused: \(error.reason)")
      return
    }
    if let forward = connection.forward {
      guard state.forwards.contains(where: { $0 === forward }) else {
        reply(.refusal("the forward \(forward.id) has ended", exit: .failure), "refused: the forward ended")
        return
      }
      let (answer, line) = self.answer(request, through: forward, peer: connection.tag)
      reply(answer, line)
      return
    }
    switch request.command {
    case .forward:
      let (answer, line) = makeForward(request)
      reply(answer, line)
      return
    case .end:
      let (answer, line) = endForward(named: request.forward ?? "")
      reply(answer, line)
      return
    case .list:
      var answer = AgentAnswer(.ok)
      answer.listing = state.forwards.map { $0.listing(now: clock.now(), monotonic: clock.monotonic()) }
      reply(answer, "list: \(answer.listing.count) forward(s)")
      return
    case .erase:
      reply(AgentAnswer(.ok), "erase for=\(request.client.rawValue): nothing changed (not a forward)")
      return
    case .get, .info, .ping:
      break
    }
    let (answer, narrowing) = self.answer(request)
    reply(answer, Self.line(request, answer, narrowing: narrowing))
  }

  /// The log line of an answer to `request`.
  static func line(_ request: AgentRequest, _ answer: AgentAnswer, narrowing: String?) -> String {
    var line = "\(request.command.rawValue) for=\(request.client.rawValue) "
    if request.command != .ping {
      line += "host=\(answer.host ?? "-") account=\(answer.login.map { Sanitize.terminal($0) } ?? "-") "
      line += "narrowing=\(narrowing ?? "none") "
    }
    switch answer.status {
    case .ok: line += answer.secret.map { "token=\(Self.fingerprint($0))" } ?? "ok"
    case .notFound: line += "not found"
    case .error: line += "error (exit \(answer.exit ?? 1))"
    }
    return line
  }

  /// A workspace on the agent's store that prints nothing (clean-up failures go to the log).
  func workspace() throws -> Workspace {
    var quiet = environment
    quiet.stderr = DiscardOutput()
    // Its requests do not watch the SIGTERM pipe: after `agent stop`, the forwards' tokens are
    // still revoked on the way out (each request has its own timeout).
    quiet.installedInterruptDescriptor = { nil }
    var workspace = try Workspace(quiet, quiet: true, unknownConfigKeys: .lenient)
    let stderr = environment.stderr
    let clock = environment.clock
    workspace.cleanupWarning = { message, _ in
      stderr.write("ghlogin agent: \(AgentServer.timestamp(clock.now())) warning: \(message)\n")
    }
    return workspace
  }

  /// The first 8 hex digits of the token's SHA-256: enough to match log lines, useless as a token.
  static func fingerprint(_ token: String) -> String {
    Crypto.sha256(Array(token.utf8)).prefix(4).map { byte in
      let digits = Array("0123456789abcdef".utf8)
      return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
    }.joined()
  }

  /// The answer to `request`, and the narrowing asked for (for the log).
  private func answer(_ request: AgentRequest) -> (AgentAnswer, String?) {
    if request.command == .ping { return (AgentAnswer(.ok, pid: SessionProcess.currentID), nil) }
    var narrowingText: String?
    do {
      var workspace = try workspace()
      let found: (host: String, credential: Credential)?
      switch request.client {
      case .token:
        let selection = AccountSelection(host: request.host, user: request.user)
        if !request.repositories.isEmpty && request.command == .get {
          let narrowing = try Narrowing(repositories: request.repositories, permissions: request.permissions)
          narrowingText = request.repositories.joined(separator: ",") + " " + narrowing.permissionsDescription
          let (narrowed, _) = try workspace.narrowedToken(selection, narrowing)
          return (
            AgentAnswer(.ok, host: narrowed.host.name, login: narrowed.login, secret: narrowed.token), narrowingText
          )
        }
        let usable = try workspace.usableCredentialReport(selection)
        found = (usable.host.name, usable.credential)
      case .git:
        guard let host = request.host else { throw AgentProtocolError.badValue(key: "host") }
        workspace.accountRequest = AccountRequest(caller: .git, path: request.path)
        let credentials = try workspace.store.loadFile(choosingHost: { names in
          CredentialHostMatch.storedHost(for: host, among: names.sorted())
        })
        if let stored = CredentialHostMatch.storedHost(for: host, among: credentials.hosts.keys.sorted()) {
          let usable = try workspace.usableCredentialReport(
            AccountSelection(host: stored, user: request.user), in: credentials)
          found = (usable.host.name, usable.credential)
        } else {
          found = nil
        }
      case .docker:
        guard let registry = request.registry.flatMap({ RegistryAddress.normalize(Array($0.utf8)) }) else {
          throw AgentProtocolError.badValue(key: "registry")
        }
        do {
          found = try DockerCredentialCommand.account(for: registry, in: workspace, refreshing: request.command == .get)
        } catch {
          return (.refusal(error.line, exit: .failure, notFound: true), nil)
        }
      case .goauth:
        guard let url = request.url else { throw AgentProtocolError.badValue(key: "url") }
        let credentials = try workspace.store.loadFile(choosingHost: {
          GoAuthMatch.host(forURL: url, among: $0.sorted())
        })
        if let host = GoAuthMatch.host(forURL: url, among: credentials.hosts.keys.sorted()) {
          found = (host, try workspace.usableCredentialReport(AccountSelection(host: host), in: credentials).credential)
        } else {
          found = nil
        }
      }
      guard let found else {
        return (.refusal("no login answers this request", exit: .notLoggedIn, notFound: true), narrowingText)
      }
      let credential = found.credential
      return (
        AgentAnswer(
          .ok, host: found.host, login: credential.login, secret: request.command == .get ? credential.token : nil,
          expiresAt: credential.expiresAt.flatMap { Int64(exactly: $0.rounded(.down)) }), narrowingText
      )
    } catch let error as NotLoggedIn {
      return (.refusal(error.cliMessage, exit: error.exitStatus, notFound: true), narrowingText)
    } catch let error as any ReportableError {
      return (.refusal(error.cliMessage, exit: error.exitStatus), narrowingText)
    } catch {
      return (.refusal("\(error)", exit: .failure), narrowingText)
    }
  }

  /// One line on stderr: `ghlogin agent: TIME MESSAGE`.
  func log(_ message: String) {
    environment.stderr.write("ghlogin agent: \(Self.timestamp(environment.clock.now())) \(message)\n")
  }

  /// `seconds` since the epoch as `YYYY-MM-DDTHH:MM:SSZ` (UTC).
  static func timestamp(_ seconds: Double) -> String {
    let whole = Int64(seconds.rounded(.down))
    let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
    let rest = whole - days * 86_400
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(year)-\(two(month))-\(two(day))T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))Z"
  }
}

/// A connection whose request is still arriving: what it sent so far, and until when it may.
final class AgentConnection {
  let socket: Socket
  /// The forward it came through; nil for the main socket.
  let forward: AgentForward?
  /// Who asked, for the log.
  let tag: String
  /// When its request must have arrived (monotonic seconds).
  let deadline: Double
  var buffer: [UInt8] = []

  init(socket: Socket, forward: AgentForward?, tag: String, deadline: Double) {
    self.socket = socket
    self.forward = forward
    self.tag = tag
    self.deadline = deadline
  }

  /// The start of its log lines.
  var prefix: String { forward.map { "forward=\($0.id) " } ?? "" }
}

/// Output that goes nowhere: the agent answers, it does not print a command's warnings.
struct DiscardOutput: TextOutput {
  var isTerminal: Bool { false }
  func write(_ text: String) {}
}

extension DockerCredentialCommand.Failure {
  /// The reason and the fix, on one line.
  var line: String { ([reason] + (fix.map { [$0] } ?? [])).joined(separator: "; ") }
}
