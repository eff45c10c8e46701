import GHLoginCore

/// `ghlogin completion bash|zsh|fish`: prints a completion script generated from the commands'
/// declarations; `--hosts` lists the hosts with logins, for those scripts to complete `--host`.
struct CompletionCommand: Command {
  static let configuration = CommandConfiguration(
    name: "completion", abstract: "print a shell completion script",
    discussion: """
      The script completes commands, options and their values; --host completes the hosts you
      are logged in to (it runs 'ghlogin completion --hosts').
        bash:  source <(ghlogin completion bash)       (in ~/.bashrc)
        zsh:   source <(ghlogin completion zsh)        (in ~/.zshrc, after compinit)
        fish:  ghlogin completion fish > ~/.config/fish/completions/ghlogin.fish
      """,
    options: [.flag("hosts", help: "List the hosts with logins, one per line (used by the scripts)")],
    arguments: [ArgumentSpec("shell", help: "bash, zsh or fish", isOptional: true, choices: ["bash", "zsh", "fish"])])

  enum Request: Equatable {
    case script(String)
    case hosts
  }

  var request: Request

  init(_ arguments: ParsedArguments) throws(UsageError) {
    if arguments.flag("hosts") {
      guard arguments.positionals.isEmpty else { throw UsageError("give either a shell or --hosts, not both") }
      request = .hosts
    } else if let shell = arguments.positionals.first {
      request = .script(shell)
    } else {
      throw UsageError("missing argument shell (bash, zsh or fish)")
    }
  }

  func run(in environment: Environment) throws -> ExitStatus {
    let commands = GHLogin.commands.map { $0.configuration }
    switch request {
    case .hosts:
      // Called by the scripts while the user types: a broken store lists nothing, quietly.
      let hosts = (try? Workspace(environment, quiet: true).store.loadFile())?.hosts.filter {
        !$0.value.accounts.isEmpty
      }.keys
      let names = (hosts.map(Array.init) ?? []).filter(CompletionScripts.isSafeWord).sorted()
      environment.stdout.write(names.map { $0 + "\n" }.joined())
    case .script("bash"): environment.stdout.write(CompletionScripts.bash(commands))
    case .script("zsh"): environment.stdout.write(CompletionScripts.zsh(commands))
    case .script(_): environment.stdout.write(CompletionScripts.fish(commands))
    }
    return .success
  }
}
