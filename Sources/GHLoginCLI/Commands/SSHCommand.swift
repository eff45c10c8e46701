import GHLoginCore

/// `ghlogin ssh [forward options] -- [ssh options] DESTINATION [COMMAND [ARG…]]` (issue 35 §3):
/// an SSH session with a forward of the agent, made for it and ended with it.
struct SSHCommand: Command {
  static let configuration = CommandConfiguration(
    name: "ssh", abstract: "run ssh with a forward of the agent: narrowed tokens on the remote side",
    discussion: """
      Asks the running agent (eval "$(ghlogin agent start)") for a forward with the forward
      options' policy, then runs ssh (found on PATH) with
        -o ControlMaster=no -o ControlPath=none -o ExitOnForwardFailure=yes
        -o ClearAllForwardings=no -R REMOTE:FORWARD [ssh options] -- DESTINATION SCRIPT
      REMOTE is /tmp/ghlogin-RANDOM.sock on the remote side (or in --remote-dir), which sshd
      creates with mode 0600 under Debian's StreamLocalBindMask 0177. SCRIPT runs as one sh
      script whatever the remote login shell: it exports GHLOGIN_AGENT_SOCK=REMOTE, runs
      COMMAND with its arguments exactly (with none, "$SHELL" -l; ghlogin adds -t when stdin
      is a terminal and no -t, -T or RequestTTY was given), then removes REMOTE, also on HUP,
      INT and TERM, and exits with COMMAND's status. On the remote side, ghlogin's token,
      env, git-credential and docker-credential-ghlogin then ask the forward, which hands out
      only tokens narrowed to its policy.

      The forward ends, and every token minted through it is revoked, when ssh exits, when
      ghlogin ssh gets SIGHUP, SIGINT or SIGTERM (passed on to ssh), and when the agent sees
      this process gone. ghlogin exits with ssh's status. The agent's main socket is never
      forwarded; with GHLOGIN_AGENT_SOCK pointing into a forward, ssh is refused (a forward
      makes no forwards). See doc/agent.md.

      ssh options go before DESTINATION (after it, everything is the remote command). Refused
      (exit 2): -N, -f, -W, -O, -M, -S, -s, and -o ControlMaster, ControlPath,
      ClearAllForwardings, SessionType or ForkAfterAuthentication. --host is the GitHub host.
        ghlogin ssh --repo acme/api --permission contents:write -- dev.example.com
        ghlogin ssh --repo acme/api -- -p 2222 me@build -- make release
      """,
    options: ForwardOptions.specs.filter { $0.name != "name" } + [
      .option("remote-dir", value: "DIR", help: "The remote directory for the forward's socket (default: /tmp)")
    ],
    arguments: [
      ArgumentSpec(
        "SSH-ARGUMENTS", help: "After --: [ssh options] DESTINATION [COMMAND [ARG...]]", isVariadic: true)
    ])

  var policy: ForwardPolicy
  var remoteDirectory: String
  var ssh: SSHArguments

  init(_ arguments: ParsedArguments) throws(UsageError) {
    policy = try ForwardOptions.parse(arguments)
    remoteDirectory = arguments.value("remote-dir") ?? "/tmp"
    guard Self.isSafePath(remoteDirectory), remoteDirectory.hasPrefix("/") else {
      throw UsageError(
        "--remote-dir must be an absolute path of letters, digits and . _ - + @ / (ssh reads : % $ and ~ "
          + "in a forward's path), not '\(Sanitize.terminal(remoteDirectory, maxCharacters: 200))'")
    }
    ssh = try SSHArguments.parse(arguments.positionals)
  }

  /// Whether ssh takes `path` in `-R REMOTE:LOCAL` as it is: no `:` (the separator), `%` or
  /// `$` (ssh expands tokens and variables in forward paths), white space or `~`.
  static func isSafePath(_ path: String) -> Bool {
    !path.isEmpty
      && path.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"):
          true
        default: "._-+@/".utf8.contains(byte)
        }
      }
  }

  /// No agent answers: nothing to forward.
  struct NoAgent: ReportableError, Equatable {
    var socket: String
    var message: String {
      "ssh forwards the ghlogin agent, and no agent answers at \(Sanitize.terminal(socket, maxCharacters: 200)): "
        + "start it with 'eval \"$(ghlogin agent start)\"'"
    }
    var exitStatus: ExitStatus { .failure }
    var errorKind: ErrorKind { .configuration }
  }

  /// ssh is not on PATH, or the forward's path cannot be given to ssh.
  struct CannotRun: ReportableError, Equatable {
    var message: String
    var exitStatus: ExitStatus { .failure }
    var errorKind: ErrorKind { .configuration }
  }

  /// The arguments ghlogin gives ssh (after `argv[0]`).
  static func sshArguments(
    _ ssh: SSHArguments, remote: String, forward: String, addTerminal: Bool
  ) -> [String] {
    var arguments = [
      "-o", "ControlMaster=no", "-o", "ControlPath=none", "-o", "ExitOnForwardFailure=yes", "-o",
      "ClearAllForwardings=no",
    ]
    if addTerminal { arguments.append("-t") }
    arguments += ["-R", "\(remote):\(forward)"]
    arguments += ssh.options
    arguments += ["--", ssh.destination, SSHRemoteScript.command(socket: remote, command: ssh.command)]
    return arguments
  }

  func run(in environment: Environment) throws -> ExitStatus {
    let socket = AgentClient.mainSocket(in: environment)
    guard AgentClient.ping(socket, clock: environment.clock) != nil else { throw NoAgent(socket: socket) }
    guard let executable = Subprocess.find("ssh", path: environment.variables["PATH"]) else {
      throw CannotRun(message: "ssh: 'ssh' was not found on PATH; no forward was made")
    }
    let remote = remoteDirectory.hasSuffix("/") ? remoteDirectory : remoteDirectory + "/"
    let remotePath = remote + "ghlogin-" + NarrowedRecord.newID() + ".sock"
    // The forward is the agent's: a forward socket refuses to make another one, so a
    // GHLOGIN_AGENT_SOCK pointing into a forward is refused by the agent there.
    let forward = try AgentClient.createForward(policy, watching: SessionProcess.currentID, in: environment)
    func end() {
      do { try AgentClient.endForward(id: forward.id, in: environment) } catch {
        let reason = (error as? any ReportableError)?.message ?? "\(error)"
        environment.stderr.write("ghlogin: warning: could not end the forward \(forward.id): \(reason)\n")
      }
    }
    guard Self.isSafePath(forward.path) else {
      end()
      throw CannotRun(
        message: "ssh: the forward's socket path cannot be given to ssh -R (it holds : % $ ~ or white space): "
          + Sanitize.terminal(forward.path, maxCharacters: 200))
    }
    let addTerminal = ssh.command.isEmpty && !ssh.choosesTerminal && environment.stdin.isTerminal
    let ending: ChildRun.Ending
    do {
      ending = try ChildRun.run(
        executable,
        ["ssh"] + Self.sshArguments(ssh, remote: remotePath, forward: forward.path, addTerminal: addTerminal),
        environment: environment.variables.all)
    } catch {
      end()
      throw error
    }
    end()
    switch ending {
    case .exited(let status): return ExitStatus(rawValue: status)
    case .signaled(let number):
      ChildRun.die(of: number)
      return ExitStatus(rawValue: 128 + number)
    }
  }
}
