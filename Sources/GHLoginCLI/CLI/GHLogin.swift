import GHLoginCore

/// The entry point `main.swift` calls: finds the command, parses its arguments, runs it,
/// and maps whatever it throws to a message and an exit status in one place.
package enum GHLogin {
  /// Every command's name, in the order `--help` lists them. `GHLoginTests` checks each
  /// against ``command(named:)`` and the command's configuration.
  static let commandNames = [
    "auth", "whoami", "token", "app", "env", "run", "status", "logout", "refresh", "switch", "migrate", "setup-git",
    "git-credential", "setup-docker", "docker-credential", "goauth", "agent", "container-args", "ssh", "config",
    "completion", "version",
    "help", "man-page",
  ]

  /// The command called `name`, or aliased so (gh's `login` for `auth`; `GHLoginTests` checks
  /// the aliases against the configurations' `aliases`).
  ///
  /// A switch, so that finding the command builds neither a command's configuration (help
  /// texts, option tables) nor a table of `(String, Command.Type)` pairs, whose element type's
  /// metadata the runtime made on first use (bench/RESULTS.md, issue 19).
  static func command(named name: String) -> (any Command.Type)? {
    switch name {
    case "auth", "login": AuthCommand.self
    case "whoami": WhoamiCommand.self
    case "token": TokenCommand.self
    case "app": AppCommand.self
    case "env": EnvCommand.self
    case "run": RunCommand.self
    case "status": StatusCommand.self
    case "logout": LogoutCommand.self
    case "refresh": RefreshCommand.self
    case "switch": SwitchCommand.self
    case "migrate": MigrateCommand.self
    case "setup-git": SetupGitCommand.self
    case "git-credential": GitCredentialCommand.self
    case "setup-docker": SetupDockerCommand.self
    case "docker-credential": DockerCredentialCommand.self
    case "goauth": GoAuthCommand.self
    case "agent": AgentCommand.self
    case "container-args": ContainerArgsCommand.self
    case "ssh": SSHCommand.self
    case "config": ConfigCommand.self
    case "completion": CompletionCommand.self
    case "version": VersionCommand.self
    case "help": HelpCommand.self
    case "man-page": ManPageCommand.self
    default: nil
    }
  }

  /// Every command, in the order `--help` lists them.
  static var commands: [any Command.Type] { commandNames.compactMap(command(named:)) }

  /// Runs the command line in `environment` and returns the status to exit with.
  package static func main(environment: Environment) -> ExitStatus {
    let arguments = environment.arguments
    // Issue 29 §5: every keyring call has a deadline; the helpers other programs run, and any
    // command whose stderr is no terminal, never wait on an unlock prompt.
    let helper =
      environment.programName == DockerCredentialCommand.linkName
      || ["git-credential", "docker-credential", "goauth"].contains(arguments.first ?? "")
    SecretServiceStore.setPolicy(mayPrompt: !helper && environment.stderr.isTerminal)
    if environment.programName == DockerCredentialCommand.linkName {
      // docker-credential-helpers' calling convention: the action is argv[1].
      return run(DockerCredentialCommand.self, arguments: arguments, in: environment)
    }
    guard let first = arguments.first else {
      environment.stderr.write(Help.root(commands: commands))
      return .usage
    }
    switch first {
    case "-h", "--help":
      environment.stdout.write(Help.root(commands: commands))
      return .success
    case "--version", "-V":
      return VersionCommand(brief: true).run(in: environment)
    default:
      break
    }
    guard let command = command(named: first) else {
      let names = commands.map { $0.configuration }.filter { !$0.isHidden }.flatMap { [$0.name] + $0.aliases }
      let hint = nearestCandidate(to: first, among: names).map { "; did you mean `\($0)`?" } ?? ""
      let kind = first.hasPrefix("-") ? "option" : "command"
      let prefix = TerminalStyle(environment.stderr, variables: environment.variables).error("ghlogin:")
      environment.stderr.write(
        "\(prefix) unknown \(kind) '\(first)'\(hint)\nUsage: ghlogin <command> [options]\n"
          + "Run 'ghlogin --help' to see the commands.\n")
      return .usage
    }
    let rest = Array(arguments.dropFirst())
    if command == AuthCommand.self, let word = rest.first, !word.hasPrefix("-") {
      return runAuthSubcommand(word, arguments: Array(rest.dropFirst()), in: environment)
    }
    return run(command, arguments: rest, in: environment)
  }

  /// gh's two-word spellings: `auth WORD …` runs the plain command WORD (`auth login` is
  /// `auth`) with the same options and exit statuses; `auth refresh -s LIST` is
  /// `auth --add-scopes LIST`, `auth refresh` alone is `refresh`. The words are
  /// ``AuthCommand/subcommands`` (declared as its argument, so help and completion show them).
  private static func runAuthSubcommand(_ word: String, arguments: [String], in environment: Environment) -> ExitStatus
  {
    guard let target = AuthCommand.subcommands.first(where: { $0.word == word }) else {
      let hint =
        nearestCandidate(to: word, among: AuthCommand.subcommands.map(\.word)).map { "; did you mean `auth \($0)`?" }
        ?? ""
      let configuration = AuthCommand.configuration
      environment.stderr.write(
        "ghlogin auth: unknown subcommand '\(Sanitize.terminal(word, maxCharacters: 60))'\(hint)\n"
          + "\(Help.usage(configuration))\nRun 'ghlogin auth --help' for more.\n")
      return .usage
    }
    if word == "refresh" {
      let (name, rewritten) = AuthCommand.refreshArguments(arguments)
      guard let type = command(named: name) else { return .failure }
      return run(type, arguments: rewritten, in: environment)
    }
    guard let type = command(named: target.command) else { return .failure }
    return run(type, arguments: arguments, in: environment)
  }

  /// `error`'s message; an error naming config keys gets the config file the environment selects,
  /// and the choice of host names the command that was run.
  private static func message(of error: any ReportableError, command: String, in environment: Environment) -> String {
    if var several = error as? SeveralHosts {
      several.command = command
      return several.cliMessage
    }
    if var request = error as? EndpointRequestError {
      // A key is named only when a layer set it; a derived URL's failure is the network's.
      let variables = environment.variables
      let config = try? Config.load(paths: ConfigPaths.resolve(variables), variables: variables, unknownKeys: .lenient)
      request.keyIsSet = config?.setsURL(request.setting.configKey, to: request.url) ?? true
      return request.cliMessage
    }
    guard let keyed = error as? any ConfigSettingError, !keyed.configKeys.isEmpty else { return error.cliMessage }
    return keyed.message(configFile: try? ConfigPaths.resolve(environment.variables).configFile)
  }

  private static func run(_ type: any Command.Type, arguments: [String], in environment: Environment) -> ExitStatus {
    let configuration = type.configuration
    do {
      let parsed = try ArgumentParser.parse(
        arguments, for: configuration, helpOnTerminal: environment.stdout.isTerminal)
      if parsed.flag("help") {
        environment.stdout.write(Help.command(configuration))
        return .success
      }
      // Issue 35: with an agent's socket given, the commands that use a login ask it.
      if let socket = environment.variables[AgentPaths.socketVariable], !socket.isEmpty,
        let status = try AgentClientRoute.run(type, parsed, socket: socket, in: environment)
      {
        return status
      }
      return try type.init(parsed).run(in: environment)
    } catch let error as UsageError {
      environment.stderr.write(
        "ghlogin \(configuration.name): \(error.cliMessage)\n\(Help.usage(configuration))\n"
          + "Run 'ghlogin \(configuration.name) --help' for more.\n")
      return .usage
    } catch let error as any ReportableError {
      let prefix = TerminalStyle(environment.stderr, variables: environment.variables).error("ghlogin:")
      guard error.exitStatus == .interrupted else {
        environment.stderr.write("\(prefix) \(message(of: error, command: configuration.name, in: environment))\n")
        return error.exitStatus
      }
      // After Ctrl-C the terminal has echoed ^C where the cursor was: start on a line of our own.
      if environment.stderr.isTerminal { environment.stderr.write("\n") }
      guard Interrupt.wasTerminated else {
        environment.stderr.write("\(prefix) \(error.cliMessage)\n")
        return .interrupted
      }
      let message =
        error.cliMessage.hasPrefix("interrupted") ? "terminated" + error.cliMessage.dropFirst(11) : error.cliMessage
      environment.stderr.write("\(prefix) \(message)\n")
      return .terminated
    } catch {
      environment.stderr.write(
        "\(TerminalStyle(environment.stderr, variables: environment.variables).error("ghlogin:")) \(error)\n")
      return .failure
    }
  }
}
