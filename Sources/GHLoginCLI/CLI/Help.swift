import GHLoginCore

/// Help text generated from the command declarations.
enum Help {
  /// `ghlogin --help`: what the tool is, its commands, and the exit statuses.
  static func root(commands: [any Command.Type]) -> String {
    let visible = commands.map { $0.configuration }.filter { !$0.isHidden }
    let names = visible.map { ([$0.name] + $0.aliases).joined(separator: ", ") }
    let width = (names.map(\.count).max() ?? 0) + 2
    var text = """
      ghlogin — log in to GitHub from the terminal, and hand the token to git and scripts.

      Usage: ghlogin <command> [options]

      \(clientIDNote)

      Commands:

      """
    for (command, name) in zip(visible, names) {
      text += "  " + name.padded(to: width) + command.abstract + "\n"
    }
    text += "\nRun by other programs (not typed; hidden from completion):\n"
    let helperWidth = (helpers.map(\.name.count).max() ?? 0) + 2
    for helper in helpers { text += "  " + helper.name.padded(to: helperWidth) + helper.setUp + "\n" }
    text += """

      Options:
        -h, --help     Show this help and exit
            --version  Show the version and exit

      \(files)
      \(exitStatuses)
      Run 'ghlogin help <command>' or 'ghlogin <command> --help' for more about a command.

      """
    return text
  }

  /// The commands other programs run, and what sets each up: `ghlogin --help` and the man page
  /// list them; completion does not offer them.
  static let helpers: [(name: String, setUp: String)] = [
    ("git-credential", "git's credential helper; set up by 'ghlogin setup-git'"),
    (
      "docker-credential",
      "Docker's credential helper, also as the docker-credential-ghlogin link; set up by 'ghlogin setup-docker'"
    ),
    ("goauth", "Go's GOAUTH command; set up with: go env -w GOAUTH='ghlogin goauth'"),
  ]

  /// `ghlogin CMD --help`.
  static func command(_ configuration: CommandConfiguration) -> String {
    var text = usage(configuration) + "\n\n" + configuration.abstract.capitalizedFirst + ".\n"
    if !configuration.aliases.isEmpty {
      text += "Also run as: " + configuration.aliases.map { "ghlogin " + $0 }.joined(separator: ", ") + "\n"
    }
    if !configuration.discussion.isEmpty { text += "\n" + configuration.discussion + "\n" }
    if !configuration.arguments.isEmpty {
      text += "\nArguments:\n"
      let width = (configuration.arguments.map(\.name.count).max() ?? 0) + 2
      for argument in configuration.arguments {
        text += "  " + argument.name.padded(to: width) + argument.help + "\n"
      }
    }
    let options = configuration.options + [ArgumentParser.helpOption(for: configuration)]
    let labels = options.map(label)
    let width = (labels.map(\.count).max() ?? 0) + 2
    text += "\nOptions:\n"
    for (option, label) in zip(options, labels) {
      text += "  " + label.padded(to: width) + option.help + "\n"
    }
    text += "\n" + exitStatuses
    return text
  }

  /// The one-line synopsis: `Usage: ghlogin token [--host HOST] [--user LOGIN]`.
  static func usage(_ configuration: CommandConfiguration) -> String {
    var parts = ["Usage: ghlogin", configuration.name]
    for option in configuration.options {
      parts.append("[--\(option.name)\(option.valueName.map { " " + $0 } ?? "")]")
    }
    for argument in configuration.arguments {
      parts.append(argument.isOptional ? "[\(argument.name)]" : argument.name)
    }
    return parts.joined(separator: " ")
  }

  /// The two lines `ghlogin --help` and `ghlogin auth --help` start with: what a first login needs.
  static let clientIDNote = """
    Logging in needs an OAuth app's client ID, in the config file (~/.config/ghlogin/config.json;
    see 'ghlogin help config') or in GHLOGIN_CLIENT_ID. Set it with: ghlogin config set client_id ID
    """

  /// Where the config and the credentials are (R86: the credentials never follow GHLOGIN_CONFIG).
  static let files = """
    Files:
      config       $GHLOGIN_CONFIG, else $XDG_CONFIG_HOME/ghlogin/config.json,
                   else ~/.config/ghlogin/config.json
      credentials  $GHLOGIN_CREDENTIALS, else $XDG_CONFIG_HOME/ghlogin/credentials.json,
                   else ~/.config/ghlogin/credentials.json (never beside GHLOGIN_CONFIG's file)

    """

  /// The exit statuses, as `--help` lists them (the man page has the same table).
  static let exitStatusTable: [(status: Int32, meaning: String)] = [
    (0, "success"),
    (1, "failure (network, server, denied, timed out)"),
    (2, "usage or configuration error"),
    (4, "not logged in, or the token was rejected"),
    (130, "interrupted (Ctrl-C): ends by SIGINT after cleaning up, as the shell shows"),
    (143, "terminated: ends by SIGTERM after cleaning up"),
  ]

  static let exitStatuses =
    "Exit status:\n"
    + exitStatusTable.map { "  " + String($0.status).padded(to: 5) + $0.meaning + "\n" }.joined() + "\n"

  /// `-s, --scopes LIST`, `    --host, --hostname HOST`.
  static func label(_ option: OptionSpec) -> String {
    let short = option.short.map { "-\($0), " } ?? "    "
    return short + option.longNames.map { "--" + $0 }.joined(separator: ", ")
      + (option.valueName.map { " " + $0 } ?? "")
  }
}

extension String {
  func padded(to width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }

  var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
