import GHLoginCore

/// The agent's forwards (issue 35 §2, §3; R116, R117): each a socket of its own with a policy
/// fixed at creation, whose tokens are narrowed to the whole policy, minted for it alone, reused
/// until five minutes before they expire, and revoked when it ends.
final class AgentState {
  /// This agent's identity in the consumer ids of what it mints (``AgentIdentity``).
  let agentID = AgentIdentity.current()
  var forwards: [AgentForward] = []
}

/// One forward and what it has handed out.
final class AgentForward {
  /// 16 lowercase hex digits.
  let id: String
  let consumerID: String
  let path: String
  let socket: Socket
  let policy: ForwardPolicy
  let narrowing: Narrowing
  let host: GitHubHost
  let login: String
  /// When it ends (monotonic seconds), and the same as wall-clock time for `agent list`.
  let deadline: Double?
  let endsAt: Double?
  let watchPID: Int32?
  /// The watched process's start time, so that a reused pid is not taken for it.
  let watchStart: String?
  /// A pidfd of the watched process, readable once it ends (nil where `pidfd_open` is missing:
  /// the loop then checks `/proc` every second).
  let watchFD: FileDescriptor?
  var minted = 0
  var lastMint: Double?
  var lastPeer: String?
  /// The token handed out now, and when it expires (Unix seconds).
  var current: (token: String, expiresAt: Double?)?

  init(
    id: String, consumerID: String, path: String, socket: Socket, policy: ForwardPolicy, narrowing: Narrowing,
    account: (host: GitHubHost, login: String), clock: any TimeSource, watchPID: Int32?
  ) {
    self.id = id
    self.consumerID = consumerID
    self.path = path
    self.socket = socket
    self.policy = policy
    self.narrowing = narrowing
    (host, login) = account
    deadline = policy.ttl.map { clock.monotonic() + Double($0) }
    endsAt = policy.ttl.map { clock.now() + Double($0) }
    self.watchPID = watchPID
    watchStart = watchPID.flatMap { AgentIdentity.startTime(of: $0) }
    watchFD = watchPID.flatMap { ProcessWatch.open($0) }
  }

  /// Whether the watched process still runs (not ended, not a zombie, not a reused pid).
  func isWatchedAlive() -> Bool {
    guard let watchPID else { return true }
    guard let stat = FileSystem.readSmallFile("/proc/\(watchPID)/stat", limit: 4096),
      let close = stat.lastIndex(of: UInt8(ascii: ")")), close + 2 < stat.count, stat[close + 2] != UInt8(ascii: "Z")
    else { return false }
    return AgentIdentity.startTime(of: watchPID) == watchStart
  }

  /// How the forward ends, in words.
  var ending: String {
    var ways: [String] = []
    if let endsAt { ways.append("at \(AgentServer.timestamp(endsAt)) (--ttl)") }
    if let watchPID { ways.append("when the process \(watchPID) ends") }
    ways.append("on 'ghlogin agent revoke \(policy.name ?? id)' or 'ghlogin agent stop'")
    return ways.joined(separator: ", or ")
  }

  /// Its line in `agent list`.
  func listing(now: Double, monotonic: Double) -> String {
    var line = "\(id)\(policy.name.map { " (\($0))" } ?? "") \(path): \(login) on \(host); \(policy.summary); "
    line += "tokens minted: \(minted)"
    if let lastMint { line += ", the last at \(AgentServer.timestamp(lastMint))" }
    line += "; last peer: \(lastPeer ?? "none"); ends \(ending)"
    return Sanitize.terminal(line, maxCharacters: 2000)
  }
}

extension AgentServer {
  /// `command=forward` on the main socket: checks the policy, fixes the account, opens the socket.
  func makeForward(_ request: AgentRequest) -> (AgentAnswer, String) {
    let policy = request.policy
    func refused(_ message: String, exit: ExitStatus) -> (AgentAnswer, String) {
      (.refusal(message, exit: exit), "forward refused: \(message)")
    }
    if let problem = policy.problem { return refused(problem, exit: .usage) }
    let narrowing: Narrowing
    do { narrowing = try policy.narrowing() } catch { return refused(error.message, exit: .usage) }
    if let pid = request.watchPID, !SessionProcess.exists(pid) {
      return refused("the process \(pid) the forward would watch does not exist", exit: .usage)
    }
    let id = NarrowedRecord.newID()
    let path = paths.directory + "/" + (policy.name ?? "forward-" + id) + ".sock"
    if let name = policy.name,
      state.forwards.contains(where: { $0.policy.name == name })
        || (try? SafeDirectory.exists(path)) == true
    {
      return refused("the forward name \(name) is already in use (\(path) exists)", exit: .usage)
    }
    let account: (host: GitHubHost, login: String)
    do {
      account = try workspace().forwardAccount(
        AccountSelection(host: policy.host, user: policy.user), unscoped: policy.unscoped)
    } catch let error as NarrowingRefused {
      return refused(
        error.message + "; a forward hands out a login that cannot be narrowed only when made with --unscoped "
          + "(and --ttl)", exit: .usage)
    } catch let error as any ReportableError {
      return refused(error.cliMessage, exit: error.exitStatus)
    } catch {
      return refused("\(error)", exit: .failure)
    }
    let socket: Socket
    do { socket = try UnixSocket.listen(at: path, backlog: Self.backlog) } catch {
      return refused("cannot listen at \(path): \(error)", exit: .failure)
    }
    // Any uid may connect (a container's may be mapped); the 0700 directory is the fence.
    FileSystem.setMode(path, 0o666)
    let forward = AgentForward(
      id: id, consumerID: AgentIdentity.consumerID(agent: state.agentID, forward: id), path: path, socket: socket,
      policy: policy, narrowing: narrowing, account: account, clock: environment.clock, watchPID: request.watchPID)
    state.forwards.append(forward)
    var answer = AgentAnswer(.ok, host: account.host.name, login: account.login)
    answer.forward = id
    answer.path = path
    answer.unscoped = policy.unscoped
    answer.policy = policy.summary
    return (
      answer,
      "forward \(id) made at \(path): \(Sanitize.terminal(account.login)) on \(account.host); \(policy.summary); "
        + "ends \(forward.ending)"
    )
  }

  /// `command=end`: ends the forward with that id or name.
  func endForward(named name: String) -> (AgentAnswer, String) {
    guard let forward = state.forwards.first(where: { $0.id == name || $0.policy.name == name }) else {
      let message = "no forward \(Sanitize.terminal(name, maxCharacters: 64)) (see 'ghlogin agent list')"
      return (.refusal(message, exit: .usage), "end refused: no such forward")
    }
    end(forward, why: "agent revoke")
    var answer = AgentAnswer(.ok)
    answer.forward = forward.id
    return (answer, "end \(forward.id): ended")
  }

  /// Ends `forward`: closes and removes its socket, revokes every token minted through it and
  /// drops their records (an unscoped forward's token is the login's own: not revoked).
  func end(_ forward: AgentForward, why: String) {
    state.forwards.removeAll { $0 === forward }
    forward.socket.close()
    forward.watchFD?.close()
    FileSystem.remove(forward.path)
    forward.current = nil
    var revoked = 0
    if !forward.policy.unscoped, let workspace = try? workspace() {
      revoked = workspace.endForward(consumerID: forward.consumerID)
    }
    log("forward \(forward.id) ended (\(why)): socket removed, \(revoked) token(s) revoked")
  }

  /// The tag of a forward's peer, for the log and `agent list` only (it grants nothing): its
  /// pid and uid, its mount namespace (`same` as the agent's or `other`), its `comm`, sanitized.
  static func peerTag(_ peer: UnixSocket.Peer, ownMount: String?) -> String {
    let mount = UnixSocket.namespace("mnt", of: peer.pid)
    let mountID = mount.map { String($0.filter(\.isNumber).prefix(20)) } ?? "?"
    let which = mount == nil ? "unknown" : mount == ownMount ? "same" : "other"
    let comm =
      FileSystem.readSmallFile("/proc/\(peer.pid)/comm", limit: 64).map { bytes in
        String(
          decoding: bytes.prefix(16).compactMap { byte -> UInt8? in
            let safe =
              (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
              || byte == 0x2D || byte == 0x5F || byte == 0x2E
            return byte == 0x0A ? nil : safe ? byte : UInt8(ascii: "?")
          }, as: UTF8.self)
      } ?? "?"
    return "pid:\(peer.pid),uid:\(peer.uid),mnt:\(mountID)(\(which)),comm:\(comm)"
  }

  /// An answer through `forward` (R116): only its host and account, only paths and narrowings
  /// inside its policy, only its own token (narrowed to its whole policy; the login's own when
  /// unscoped).
  func answer(_ request: AgentRequest, through forward: AgentForward, peer: String) -> (AgentAnswer, String) {
    let what = "\(request.command.rawValue) for=\(request.client.rawValue)"
    func refused(_ message: String, exit: ExitStatus = .usage) -> (AgentAnswer, String) {
      (.refusal("the forward \(forward.id): " + message, exit: exit), "\(what) refused: \(message)")
    }
    switch request.command {
    case .ping: return (AgentAnswer(.ok, pid: SessionProcess.currentID), "ping")
    case .forward, .end, .list:
      return refused("a forward cannot make, end or list forwards; ask the agent's own socket where it runs")
    case .get, .info, .erase: break
    }
    if let problem = outside(request, forward) { return refused(problem) }
    var answer = AgentAnswer(.ok, host: forward.host.name, login: forward.login)
    answer.forward = forward.id
    answer.unscoped = forward.policy.unscoped
    switch request.command {
    case .info:
      answer.policy = forward.policy.summary
      return (answer, "\(what) ok")
    case .erase:
      return erase(through: forward, what: what)
    default: break
    }
    do {
      let workspace = try workspace()
      if forward.policy.unscoped {
        let (_, credential, _) = try workspace.usableCredentialReport(
          AccountSelection(host: forward.host.name, user: forward.login))
        answer.secret = credential.token
        answer.expiresAt = credential.expiresAt.flatMap { Int64(exactly: $0.rounded(.down)) }
        return (answer, "\(what) UNSCOPED: the login's own token=\(Self.fingerprint(credential.token))")
      }
      let now = environment.clock.now()
      // A logout revoked and dropped the forward's tokens with the login: never hand one out again.
      if forward.current != nil
        && !workspace.keepsForwardTokens(consumerID: forward.consumerID, on: forward.host.name)
      {
        forward.current = nil
      }
      if let current = forward.current, let expiresAt = current.expiresAt, expiresAt - now > NarrowedRecord.reuseMargin
      {
        answer.secret = current.token
        answer.expiresAt = Int64(exactly: expiresAt.rounded(.down))
        return (answer, "\(what) token=\(Self.fingerprint(current.token)) (reused)")
      }
      if let budget = forward.policy.maxTokens, forward.minted >= budget {
        return refused("its budget of \(budget) token(s) (--max-tokens) is spent", exit: .failure)
      }
      if forward.policy.confirm, let denial = confirm(forward, peer: peer) {
        return refused(denial, exit: .failure)
      }
      let (minted, _) = try workspace.mintRecorded(
        AccountSelection(host: forward.host.name, user: forward.login), forward.narrowing, consumer: .forward,
        id: forward.consumerID)
      let expiresAt = NarrowedRecord.parseExpiry(minted.expiresAt)
      forward.current = (minted.token, expiresAt)
      forward.minted += 1
      forward.lastMint = now
      answer.secret = minted.token
      answer.expiresAt = expiresAt.flatMap { Int64(exactly: $0.rounded(.down)) }
      return (
        answer,
        "\(what) minted: repositories=\(forward.policy.repositories.joined(separator: ",")) "
          + "permissions=\(forward.narrowing.permissionsDescription) token=\(Self.fingerprint(minted.token))"
      )
    } catch let error as NotLoggedIn {
      // The forward's login was logged out: `logout` ends the login's forwards (issue 34 §1).
      end(forward, why: "its login was logged out")
      return (
        .refusal(
          "the forward \(forward.id) has ended: \(error.cliMessage)", exit: error.exitStatus, notFound: true),
        "\(what) not found; the forward ended"
      )
    } catch let error as any ReportableError {
      return refused(error.cliMessage, exit: error.exitStatus)
    } catch {
      return refused("\(error)", exit: .failure)
    }
  }

  /// Why `request` is outside the forward's policy (another host, account, repository,
  /// permission), or nil. The path is advice; GitHub's narrowing is the fence.
  private func outside(_ request: AgentRequest, _ forward: AgentForward) -> String? {
    let host = forward.host.name
    let only = "it answers for \(Sanitize.terminal(forward.login)) on \(host) only"
    switch request.client {
    case .token:
      if let asked = request.host, asked.lowercased() != host { return "another host was asked for; \(only)" }
    case .git:
      guard let asked = request.host, CredentialHostMatch.storedHost(for: asked, among: [host]) != nil else {
        return "another host was asked for; \(only)"
      }
    case .docker:
      guard let registry = request.registry.flatMap({ RegistryAddress.normalize(Array($0.utf8)) }),
        let workspace = try? workspace(),
        RegistryMap(config: workspace.config, loggedIn: [host]).lookup(registry) == .host(host)
      else { return "that registry is not one of \(host); \(only)" }
    case .goauth:
      guard let url = request.url, GoAuthMatch.host(forURL: url, among: [host]) != nil else {
        return "another host was asked for; \(only)"
      }
    }
    if let user = request.user, user.lowercased() != forward.login.lowercased() {
      return "another account was asked for; \(only)"
    }
    let allowed = Set(forward.narrowing.repositories.map { (forward.narrowing.owner + "/" + $0).lowercased() })
    let inPolicy = "its repositories are \(forward.policy.repositories.joined(separator: ","))"
    if let path = request.path {
      var parts = path.split(separator: "/", omittingEmptySubsequences: true).prefix(2).map(String.init)
      if parts.count == 2, parts[1].hasSuffix(".git") { parts[1].removeLast(4) }
      guard parts.count == 2, allowed.contains(parts.joined(separator: "/").lowercased()) else {
        return "the repository path asked for is outside its policy; \(inPolicy)"
      }
    }
    for repository in request.repositories where !allowed.contains(repository.lowercased()) {
      return "a repository asked for is outside its policy; \(inPolicy)"
    }
    if !request.permissions.isEmpty {
      guard let asked = try? Narrowing.levels(request.permissions) else {
        return "the permissions asked for are not valid"
      }
      let granted = forward.narrowing.permissions
      for (name, level) in asked where !granted.isEmpty {
        guard let have = granted[name], have == level || (have == "write" && level == "read") else {
          return "a permission asked for is outside its policy; its permissions are "
            + forward.narrowing.permissionsDescription
        }
      }
    }
    return nil
  }

  /// git's `erase` through `forward`: its current token is checked with GitHub (R102); a token
  /// GitHub rejects is dropped (the next `get` mints), one it accepts is kept.
  private func erase(through forward: AgentForward, what: String) -> (AgentAnswer, String) {
    var answer = AgentAnswer(.ok, host: forward.host.name, login: forward.login)
    answer.forward = forward.id
    guard let current = forward.current, !forward.policy.unscoped, let workspace = try? workspace() else {
      return (answer, "\(what): no token of the forward to drop")
    }
    let (rejected, reason) = workspace.isRejected(current.token, on: forward.host)
    switch rejected {
    case true?:
      forward.current = nil
      workspace.dropNarrowed(what: "a rejected token of a forward") {
        $0.consumer == .forward && $0.consumerID == forward.consumerID
          && CredentialHostMatch.constantTimeEqual($0.token, current.token)
      }
      answer.message =
        "git reported the token of the forward \(forward.id) as rejected, and \(forward.host) rejects it; "
        + "dropped it."
    case false?:
      answer.message =
        "git reported the token of the forward \(forward.id) as rejected, but \(forward.host) still accepts it; "
        + "kept it."
    case nil:
      answer.message =
        "git reported the token of the forward \(forward.id) as rejected, but it could not be checked "
        + "(\(reason ?? "no reason")); kept it."
    }
    return (answer, "\(what): \(answer.message ?? "")")
  }

  /// `--confirm`: asks `GHLOGIN_ASKPASS`, else `SSH_ASKPASS`, with `SSH_ASKPASS_PROMPT=confirm`
  /// and one sanitized line as its argument (never through a shell). Nil when it exits 0;
  /// else why the grant is denied.
  private func confirm(_ forward: AgentForward, peer: String) -> String? {
    let variables = environment.variables
    guard
      let program = [variables["GHLOGIN_ASKPASS"], variables["SSH_ASKPASS"]].compactMap({ $0 }).first(where: {
        !$0.isEmpty
      })
    else { return "--confirm: no GHLOGIN_ASKPASS or SSH_ASKPASS program to ask; denied" }
    let question = Sanitize.terminal(
      "ghlogin agent: allow a new token for the forward \(forward.id)"
        + "\(forward.policy.name.map { " (\($0))" } ?? ""): repositories \(forward.policy.repositories.joined(separator: ",")), "
        + "permissions \(forward.narrowing.permissionsDescription), asked by \(peer)?", maxCharacters: 500)
    var childEnvironment = variables.all
    childEnvironment["SSH_ASKPASS_PROMPT"] = "confirm"
    let executable =
      program.hasPrefix("/") ? program : Subprocess.find(program, path: variables["PATH"]) ?? program
    guard let result = try? Subprocess.run(executable, [question], environment: childEnvironment) else {
      return "--confirm: the askpass program could not be run; denied"
    }
    return result.status == 0 ? nil : "--confirm: the askpass program said no (exit \(result.status)); denied"
  }
}
