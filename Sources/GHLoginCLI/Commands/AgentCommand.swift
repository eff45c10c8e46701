import GHLoginCore

/// `ghlogin agent start|stop|status|list` and `agent --foreground` (issue 35 §1): the agent that
/// answers for the login over a Unix socket, so that programs with `GHLOGIN_AGENT_SOCK` set need
/// no store of their own (doc/agent.md).
struct AgentCommand: Command {
  static let configuration = CommandConfiguration(
    name: "agent", abstract: "answer for your login over a socket (GHLOGIN_AGENT_SOCK)",
    discussion: """
      start      starts the agent in a session of its own (or finds the one already answering at
                 the standard path) and prints the line that sets GHLOGIN_AGENT_SOCK:
                   eval "$(ghlogin agent start)"
                   ghlogin agent start --shell fish | source
      stop       ends the agent
      status     says whether the agent answers (exit 0) or not (exit 1), and its process id
      list       lists the agent's forwards: policy, tokens minted, last peer, how each ends
      forward    makes a forward: a socket of its own whose tokens are narrowed to --repo and
                 --permission, revoked when it ends; prints its path
      revoke FORWARD  ends a forward (its id or name): its socket is removed, its tokens revoked
      --foreground  runs the agent in this terminal, logging every answer on stderr

      The socket is $XDG_RUNTIME_DIR/ghlogin/agent.sock (or /tmp/ghlogin-UID/agent.sock, or
      $GHLOGIN_AGENT_DIR/agent.sock), in a directory of mode 0700. It answers only your own
      processes in the agent's mount and user namespaces; any other peer is told to use a
      forward and gets no token. With GHLOGIN_AGENT_SOCK set, token, env, git-credential,
      docker-credential-ghlogin and goauth ask the agent and read no local store; auth, logout,
      refresh, migrate and switch refuse (exit 2): the login lives where the agent runs.
      stop, status and list use GHLOGIN_AGENT_SOCK when it is set. See doc/agent.md.
      """,
    options: [
      .flag("foreground", help: "Run the agent in this terminal instead of starting it"),
      .option(
        "shell", value: "SHELL", help: "The shell start writes for (default: sh)",
        choices: ShellQuoting.Shell.allCases.map(\.rawValue)),
      .option("log", value: "FILE", help: "start: append the agent's log to FILE (default: none)"),
    ] + ForwardOptions.specs,
    arguments: [
      ArgumentSpec(
        "action", help: "start, stop, status, list, forward or revoke", isOptional: true,
        choices: ["start", "stop", "status", "list", "forward", "revoke"]),
      ArgumentSpec("forward", help: "revoke: the forward's id or name", isOptional: true),
    ])

  enum Action: String { case start, stop, status, list, forward, revoke, foreground }

  var action: Action
  var shell: ShellQuoting.Shell
  var log: String?
  /// `forward`: the policy.
  var policy: ForwardPolicy?
  /// `revoke`: the forward.
  var forward: String?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    let word = arguments.positionals.first
    if arguments.flag("foreground") {
      guard word == nil else { throw UsageError("--foreground runs the agent; give no action with it") }
      action = .foreground
    } else {
      guard let word else { throw UsageError("give an action: start, stop, status, list, forward or revoke") }
      guard let action = Action(rawValue: word), action != .foreground else {
        throw UsageError(
          "unknown action '\(Sanitize.terminal(word, maxCharacters: 40))': use start, stop, status, list, "
            + "forward or revoke")
      }
      self.action = action
    }
    if action == .revoke {
      guard arguments.positionals.count == 2 else { throw UsageError("revoke needs the forward's id or name") }
      forward = arguments.positionals[1]
    } else {
      guard arguments.positionals.count <= 1 else { throw UsageError("give one action") }
    }
    if action == .forward {
      policy = try ForwardOptions.parse(arguments)
    } else if ForwardOptions.given(arguments) {
      throw UsageError("--repo, --permission, --ttl and the other forward options go with forward")
    }
    shell = arguments.value("shell").flatMap(ShellQuoting.Shell.init(rawValue:)) ?? .sh
    log = arguments.value("log")
    if log != nil && action != .start { throw UsageError("--log goes with start") }
  }

  /// The agent could not be started, or does not answer.
  struct AgentFailure: ReportableError, Equatable {
    var message: String
    var exitStatus: ExitStatus { .failure }
    var errorKind: ErrorKind { .system }
  }

  func run(in environment: Environment) throws -> ExitStatus {
    let standard = AgentPaths.standard(environment.variables)
    let given = environment.variables[AgentPaths.socketVariable].flatMap { $0.isEmpty ? nil : $0 }
    let socket = given ?? standard.socket
    switch action {
    case .foreground:
      return try AgentServer(paths: standard, environment: environment).run()
    case .start:
      return try start(standard, in: environment)
    case .status:
      guard let pid = AgentClient.ping(socket, clock: environment.clock) else {
        environment.stderr.write("ghlogin: no agent answers at \(socket)\n")
        return .failure
      }
      environment.stdout.write("the ghlogin agent answers at \(socket) (pid \(pid))\n")
      return .success
    case .list:
      let lines = try AgentClient.listForwards(in: environment)
      environment.stdout.write(lines.isEmpty ? "no forwards\n" : lines.map { $0 + "\n" }.joined())
      return .success
    case .forward:
      guard let policy else { return .usage }
      let (_, path) = try AgentClient.createForward(policy, watching: nil, in: environment)
      if policy.unscoped { environment.stderr.write("ghlogin: warning: \(ForwardPolicy.unscopedWarning)\n") }
      environment.stdout.write(path + "\n")
      return .success
    case .revoke:
      guard let forward else { return .usage }
      try AgentClient.endForward(id: forward, in: environment)
      environment.stderr.write("ghlogin: ended the forward \(Sanitize.terminal(forward, maxCharacters: 64))\n")
      return .success
    case .stop:
      guard let pid = AgentClient.ping(socket, clock: environment.clock) else {
        environment.stderr.write("ghlogin: no agent answers at \(socket)\n")
        return .failure
      }
      SessionProcess.terminate(pid)
      let deadline = environment.clock.monotonic() + 5
      while AgentClient.ping(socket, clock: environment.clock) != nil {
        guard environment.clock.monotonic() < deadline else {
          throw AgentFailure(message: "the agent (pid \(pid)) did not end within 5 seconds")
        }
        environment.clock.sleep(seconds: 0.05)
      }
      // It then ends its forwards (revoking their tokens at GitHub) before it exits.
      let exitDeadline = environment.clock.monotonic() + 30
      while SessionProcess.exists(pid) && !SessionProcess.isZombie(pid)
        && environment.clock.monotonic() < exitDeadline
      {
        environment.clock.sleep(seconds: 0.05)
      }
      environment.stderr.write("ghlogin: stopped the agent (pid \(pid))\n")
      return .success
    }
  }

  /// `start`: reuses an agent answering at the standard path, else spawns `agent --foreground`
  /// in a new session and waits (10 s at most) for its ready line.
  private func start(_ paths: AgentPaths, in environment: Environment) throws -> ExitStatus {
    if AgentClient.ping(paths.socket, clock: environment.clock) == nil {
      try paths.prepare()
      let ready = try FileDescriptor.pipe()
      let reader = Socket(owning: ready.read)
      defer { reader.close() }
      var logFD: FileDescriptor?
      if let log {
        logFD = try FileDescriptor.open(log, .writeOnly, [.create, .append], mode: 0o600)
      }
      defer { logFD?.close() }
      var variables = environment.variables.all
      variables[AgentPaths.socketVariable] = nil
      let pid = try SessionProcess.spawn(
        environment.executablePath, ["agent", "--foreground"], environment: variables, ready: ready.write,
        stderr: logFD?.rawValue)
      ready.write.close()
      let deadline = environment.clock.monotonic() + 10
      let line = try UnixSocket.read(
        reader, limit: 4096, deadline: deadline, clock: environment.clock,
        until: { $0.contains(0x0A) })
      guard let line, line.starts(with: Array("ready ".utf8)) else {
        SessionProcess.reapIfEnded(pid)
        throw AgentFailure(
          message: "the agent did not start (no ready line within 10 seconds)"
            + (log.map { "; see \($0)" } ?? "; run 'ghlogin agent --foreground' to see why"))
      }
    }
    environment.stdout.write(ShellQuoting.export(AgentPaths.socketVariable, paths.socket, for: shell) + "\n")
    return .success
  }
}
