import GHLoginCore

/// The commands with `GHLOGIN_AGENT_SOCK` set (issue 35 §1, doc/agent.md): the ones that use a
/// login ask the agent and never read or write a local store; the ones that change a login
/// refuse (exit 2); the rest run as without the agent. Reached only when the variable is set:
/// `GHLogin` looks it up once, and nothing here is on the `token` path otherwise.
enum AgentClientRoute {
  /// A command that changes the login, refused with the agent: the login lives where it runs.
  struct LoginIsElsewhere: ReportableError, Equatable {
    var command: String
    var message: String {
      "\(command) works on the stored login, and with \(AgentPaths.socketVariable) set the login lives where the "
        + "ghlogin agent runs: run 'ghlogin \(command)' there, or unset \(AgentPaths.socketVariable) to use "
        + "the logins stored here"
    }
    var exitStatus: ExitStatus { .usage }
    var errorKind: ErrorKind { .configuration }
  }

  /// The agent answered with a refusal: its message, its exit status.
  struct Refused: ReportableError, Equatable {
    var message: String
    var exitStatus: ExitStatus
    var errorKind: ErrorKind { exitStatus == .notLoggedIn ? .notLoggedIn : .configuration }
  }

  /// Runs `type` through the agent at `socket`; nil when the command runs as without the agent.
  static func run(
    _ type: any Command.Type, _ arguments: ParsedArguments, socket: String, in environment: Environment
  ) throws -> ExitStatus? {
    switch type {
    case is AuthCommand.Type, is LogoutCommand.Type, is RefreshCommand.Type, is MigrateCommand.Type,
      is SwitchCommand.Type, is RunCommand.Type, is AppCommand.Type:
      throw LoginIsElsewhere(command: type.configuration.name)
    case is TokenCommand.Type:
      let command = try TokenCommand(arguments)
      let answer = try token(command.selection, command.narrowing, socket: socket, in: environment)
      environment.stdout.write((command.header ? "Authorization: Bearer " : "") + answer.secret + "\n")
      return .success
    case is EnvCommand.Type:
      let command = try EnvCommand(arguments)
      if environment.stdout.isTerminal && !command.force { throw EnvCommand.TerminalRefused() }
      let answer = try token(command.selection, command.narrowing, socket: socket, in: environment)
      let host = try GitHubHost(validating: answer.host)
      environment.stdout.write(EnvCommand.lines(token: answer.secret, host: host, shell: command.shell))
      return .success
    case is WhoamiCommand.Type, is StatusCommand.Type:
      var request = AgentRequest(.info)
      (request.host, request.user) = choice(
        AccountSelection(host: arguments.value("host"), user: arguments.value("user")), in: environment)
      let answer = try AgentClient.exchange(request, socket: socket, clock: environment.clock)
      guard answer.status == .ok, let host = answer.host, let login = answer.login else { throw refused(answer) }
      warnIfUnscoped(answer, in: environment)
      let through = answer.forward.map { "the forward \(Sanitize.terminal($0, maxCharacters: 64)) of " } ?? ""
      environment.stdout.write(
        "\(Sanitize.terminal(login)) on \(Sanitize.terminal(host)), through \(through)the ghlogin agent at "
          + "\(Sanitize.terminal(socket, maxCharacters: 200))\n")
      if let policy = answer.policy {
        environment.stdout.write("  policy: \(Sanitize.terminal(policy, maxCharacters: 2000))\n")
      }
      return .success
    case is GitCredentialCommand.Type:
      return try git(arguments.positionals.first ?? "", socket: socket, in: environment)
    case is DockerCredentialCommand.Type:
      return docker(arguments.positionals.first ?? "", socket: socket, in: environment)
    case is GoAuthCommand.Type:
      guard let url = arguments.positionals.first else { return .success }
      if !environment.stdin.isTerminal { _ = environment.stdin.readAll(limit: RegistryAddress.maximumInputSize) }
      var request = AgentRequest(.get, for: .goauth)
      request.url = url
      do {
        let answer = try AgentClient.exchange(request, socket: socket, clock: environment.clock)
        guard answer.status == .ok, let host = answer.host, let login = answer.login, let secret = answer.secret else {
          if answer.status == .error { environment.stderr.write("ghlogin: goauth: \(refused(answer).message)\n") }
          return .success
        }
        warnIfUnscoped(answer, in: environment)
        if let text = GoAuthMatch.answer(host: host, login: login, token: secret) { environment.stdout.write(text) }
      } catch {
        environment.stderr.write("ghlogin: goauth: \(error.message)\n")
      }
      return .success
    default:
      return nil
    }
  }

  /// An unscoped forward's answer says so on stderr, in words (R116).
  static func warnIfUnscoped(_ answer: AgentAnswer, in environment: Environment) {
    if answer.unscoped { environment.stderr.write("ghlogin: warning: \(ForwardPolicy.unscopedWarning)\n") }
  }

  /// The refusal in `answer` as an error.
  static func refused(_ answer: AgentAnswer) -> Refused {
    Refused(
      message: "the ghlogin agent: " + Sanitize.terminal(answer.message ?? "no answer", maxCharacters: 2000),
      exitStatus: answer.exit.map(ExitStatus.init(rawValue:)) ?? .failure)
  }

  /// The host and account the client names: `--host`, else its `GH_HOST`; `--user`, else its
  /// `GHLOGIN_USER` (the agent applies its own config, rules and defaults to the rest).
  private static func choice(
    _ selection: AccountSelection, in environment: Environment
  ) -> (host: String?, user: String?) {
    func variable(_ name: String) -> String? { environment.variables[name].flatMap { $0.isEmpty ? nil : $0 } }
    return (selection.host ?? variable("GH_HOST"), selection.user ?? variable("GHLOGIN_USER"))
  }

  /// The token for `token`/`env`, narrowed when asked.
  private static func token(
    _ selection: AccountSelection, _ narrowing: Narrowing?, socket: String, in environment: Environment
  ) throws -> (host: String, secret: String) {
    var request = AgentRequest(.get)
    (request.host, request.user) = choice(selection, in: environment)
    if let narrowing {
      request.repositories = narrowing.repositories.map { "\(narrowing.owner)/\($0)" }
      request.permissions = narrowing.permissions.keys.sorted().map { "\($0):\(narrowing.permissions[$0]!)" }
    }
    let answer = try AgentClient.exchange(request, socket: socket, clock: environment.clock)
    guard answer.status == .ok, let host = answer.host, let secret = answer.secret else { throw refused(answer) }
    warnIfUnscoped(answer, in: environment)
    return (host, secret)
  }

  /// git's helper through the agent: `get` answers as the helper does, and nothing when the agent
  /// has no login or does not answer (git then asks its next helper); `store` and `erase` change nothing.
  private static func git(_ operation: String, socket: String, in environment: Environment) throws -> ExitStatus {
    switch operation {
    case "capability":
      environment.stdout.write("version 0\n")
      return .success
    case "get", "store", "erase":
      break
    default:
      return .success
    }
    guard let bytes = environment.stdin.readUntilEmptyLine(limit: CredentialRequest.maximumInputSize) else {
      throw CredentialInputError.tooLarge
    }
    let input = try CredentialRequest.parse(bytes)
    guard operation != "store", input.protocol == "https", let host = input.host, !host.isEmpty else {
      return .success
    }
    // erase: through a forward, the agent checks the forward's token with GitHub and drops it
    // only when GitHub rejects it; the request carries no token.
    var request = AgentRequest(operation == "erase" ? .erase : .get, for: .git)
    request.host = host
    request.user = input.username.flatMap { $0.isEmpty ? nil : $0 }
    request.path = input.path.flatMap { $0.isEmpty ? nil : $0 }
    do {
      let answer = try AgentClient.exchange(request, socket: socket, clock: environment.clock)
      if request.command == .erase {
        if answer.status == .ok, let message = answer.message {
          environment.stderr.write("ghlogin: \(Sanitize.terminal(message, maxCharacters: 2000))\n")
        }
        return .success
      }
      guard answer.status == .ok, let login = answer.login, let secret = answer.secret else {
        if answer.status == .error { environment.stderr.write("ghlogin: \(refused(answer).message)\n") }
        return .success
      }
      warnIfUnscoped(answer, in: environment)
      let response = CredentialResponse(username: login, password: secret, passwordExpiryUTC: answer.expiresAt)
      environment.stdout.write(String(decoding: try response.encoded(), as: UTF8.self))
    } catch let error as AgentClient.Unreachable {
      environment.stderr.write("ghlogin: \(error.message)\n")
    }
    return .success
  }

  /// docker's helper through the agent: `get` answers as the helper does, else exactly
  /// "credentials not found in native keychain" (exit 1); `store`/`erase` change nothing.
  private static func docker(_ action: String, socket: String, in environment: Environment) -> ExitStatus {
    func notFound(_ reason: String) -> ExitStatus {
      environment.stdout.write(DockerCredentialAnswer.notFound)
      environment.stderr.write("ghlogin: \(DockerCredentialCommand.linkName): \(reason)\n")
      return .failure
    }
    switch action {
    case "get": break
    case "store", "erase":
      if !environment.stdin.isTerminal { _ = environment.stdin.readAll(limit: RegistryAddress.maximumInputSize) }
      environment.stderr.write(
        "ghlogin: \(DockerCredentialCommand.linkName) \(action): nothing was changed; the login lives where the "
          + "ghlogin agent runs\n")
      return .success
    case "list":
      environment.stdout.write("{}\n")
      return .success
    case "version":
      environment.stdout.write("\(DockerCredentialCommand.linkName) (ghlogin) \(Release.version)\n")
      return .success
    default:
      environment.stdout.write("unknown credential action; use get, store, erase, list or version\n")
      return .failure
    }
    guard !environment.stdin.isTerminal,
      let input = environment.stdin.readAll(limit: RegistryAddress.maximumInputSize),
      let registry = RegistryAddress.normalize(input)
    else { return notFound("the input is not a registry host name") }
    var request = AgentRequest(.get, for: .docker)
    request.registry = registry
    do {
      let answer = try AgentClient.exchange(request, socket: socket, clock: environment.clock)
      guard answer.status == .ok, let login = answer.login, let secret = answer.secret else {
        return notFound(refused(answer).message)
      }
      warnIfUnscoped(answer, in: environment)
      let serverURL = String(decoding: RegistryAddress.trimmed(input), as: UTF8.self)
      guard let text = DockerCredentialAnswer.credentials(serverURL: serverURL, username: login, secret: secret) else {
        return notFound("the agent's login cannot be given to a registry")
      }
      environment.stdout.write(text)
      return .success
    } catch {
      return notFound(error.message)
    }
  }
}
