import GHLoginCore

/// `ghlogin help [COMMAND]`: the root help, or one command's; `ghlogin help config` is the
/// configuration topic (files, keys, environment variables), which also covers the `config` command.
struct HelpCommand: Command {
  static let configuration = CommandConfiguration(
    name: "help", abstract: "show help for ghlogin or one of its commands",
    discussion: "ghlogin help config: the config and credentials files, every key and environment variable.",
    arguments: [ArgumentSpec("COMMAND", help: "The command to explain, or config", isOptional: true)])

  var topic: String?

  init(_ arguments: ParsedArguments) { topic = arguments.positionals.first }

  func run(in environment: Environment) throws -> ExitStatus {
    guard let topic else {
      environment.stdout.write(Help.root(commands: GHLogin.commands))
      return .success
    }
    if topic == "config" {
      environment.stdout.write(
        ConfigTopic.text(variables: environment.variables) + "\n" + Help.command(ConfigCommand.configuration))
      return .success
    }
    guard let command = GHLogin.command(named: topic) else {
      let names = GHLogin.commands.map { $0.configuration.name }
      let hint = nearestCandidate(to: topic, among: names).map { "; did you mean `\($0)`?" } ?? ""
      throw UsageError("no such command '\(topic)'\(hint)")
    }
    environment.stdout.write(Help.command(command.configuration))
    return .success
  }
}
