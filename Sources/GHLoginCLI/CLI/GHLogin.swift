import GHLoginCore

/// The entry point `main.swift` calls: finds the command, parses its arguments, runs it,
/// and maps whatever it throws to a message and an exit status in one place.
package enum GHLogin {
  /// Every command with its name, in the order `--help` lists them. The name is repeated here
  /// so that finding the command asked for builds no command's configuration (help texts,
  /// option tables): building them all on the way cost `git-credential get` about 7 % of its
  /// run. `GHLoginTests` checks each name against its configuration.
  static let namedCommands: [(name: String, type: any Command.Type)] = [
    ("auth", AuthCommand.self),
    ("whoami", WhoamiCommand.self),
    ("token", TokenCommand.self),
    ("env", EnvCommand.self),
    ("status", StatusCommand.self),
    ("logout", LogoutCommand.self),
    ("refresh", RefreshCommand.self),
    ("switch", SwitchCommand.self),
    ("migrate", MigrateCommand.self),
    ("setup-git", SetupGitCommand.self),
    ("git-credential", GitCredentialCommand.self),
    ("setup-docker", SetupDockerCommand.self),
    ("docker-credential", DockerCredentialCommand.self),
    ("goauth", GoAuthCommand.self),
    ("config", ConfigCommand.self),
    ("completion", CompletionCommand.self),
    ("version", VersionCommand.self),
    ("help", HelpCommand.self),
    ("man-page", ManPageCommand.self),
  ]

  /// Other names of commands (gh's spellings), each with the command it runs. Kept beside
  /// ``namedCommands`` for the same reason; `GHLoginTests` checks them against the
  /// configurations' `aliases`.
  static let commandAliases: [(alias: String, name: String)] = [("login", "auth")]

  /// Every command, in the order `--help` lists them.
  static var commands: [any Command.Type] { namedCommands.map(\.type) }

  /// Runs the command line in `environment` and returns the status to exit with.
  package static func main(environment: Environment) -> ExitStatus {
    let arguments = environment.arguments
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

  /// The command called `name` (or aliased so), looked up without building any configuration.
  static func command(named name: String) -> (any Command.Type)? {
    if let type = namedCommands.first(where: { $0.name == name })?.type { return type }
    guard let target = commandAliases.first(where: { $0.alias == name })?.name else { return nil }
    return namedCommands.first { $0.name == target }?.type
  }

  /// `error`'s message; an error naming config keys gets the config file the environment selects.
  private static func message(of error: any ReportableError, in environment: Environment) -> String {
    guard let keyed = error as? any ConfigSettingError, !keyed.configKeys.isEmpty else { return error.message }
    return keyed.message(configFile: try? ConfigPaths.resolve(environment.variables).configFile)
  }

  private static func run(_ type: any Command.Type, arguments: [String], in environment: Environment) -> ExitStatus {
    let configuration = type.configuration
    do {
      let parsed = try ArgumentParser.parse(arguments, for: configuration)
      if parsed.flag("help") {
        environment.stdout.write(Help.command(configuration))
        return .success
      }
      return try type.init(parsed).run(in: environment)
    } catch let error as UsageError {
      environment.stderr.write(
        "ghlogin \(configuration.name): \(error.message)\n\(Help.usage(configuration))\n"
          + "Run 'ghlogin \(configuration.name) --help' for more.\n")
      return .usage
    } catch let error as any ReportableError {
      let prefix = TerminalStyle(environment.stderr, variables: environment.variables).error("ghlogin:")
      guard error.exitStatus == .interrupted else {
        environment.stderr.write("\(prefix) \(message(of: error, in: environment))\n")
        return error.exitStatus
      }
      // After Ctrl-C the terminal has echoed ^C where the cursor was: start on a line of our own.
      if environment.stderr.isTerminal { environment.stderr.write("\n") }
      guard Interrupt.wasTerminated else {
        environment.stderr.write("\(prefix) \(error.message)\n")
        return .interrupted
      }
      let message = error.message.hasPrefix("interrupted") ? "terminated" + error.message.dropFirst(11) : error.message
      environment.stderr.write("\(prefix) \(message)\n")
      return .terminated
    } catch {
      environment.stderr.write(
        "\(TerminalStyle(environment.stderr, variables: environment.variables).error("ghlogin:")) \(error)\n")
      return .failure
    }
  }
}
