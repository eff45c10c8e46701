import GHLoginCore

/// One option a command accepts: a flag (`--json`) or an option with a value (`--host HOST`).
struct OptionSpec: Sendable, Equatable {
  /// The long name without dashes: `host` for `--host`.
  var name: String
  /// The short form without its dash, if any: `h` for `-h`.
  var short: Character?
  /// The placeholder shown in help for the value; nil for a flag.
  var valueName: String?
  /// One line for the help text.
  var help: String
  /// Values the option accepts, for help and shell completion; empty means any.
  var choices: [String]
  /// Other long names accepted for the same option, without dashes: `hostname` for `--host`
  /// (gh's spelling).
  var aliases: [String] = []
  /// Whether the option takes a list: comma-separated values, and it may be repeated (the
  /// values accumulate, ``ParsedArguments/list(_:)``). Any other option may be given once.
  var isList = false

  /// A flag: present or absent.
  static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(name: name, short: short, valueName: nil, help: help, choices: [])
  }

  /// An option that takes a value.
  static func option(
    _ name: String, short: Character? = nil, value: String, help: String, choices: [String] = [],
    aliases: [String] = []
  ) -> OptionSpec {
    OptionSpec(name: name, short: short, valueName: value, help: help, choices: choices, aliases: aliases)
  }

  /// An option taking comma-separated values that may be repeated (``isList``).
  static func list(_ name: String, value: String, help: String) -> OptionSpec {
    var spec = OptionSpec(name: name, short: nil, valueName: value, help: help, choices: [])
    spec.isList = true
    return spec
  }

  var takesValue: Bool { valueName != nil }

  /// Every long spelling: the name, then the aliases.
  var longNames: [String] { [name] + aliases }
}

/// A positional argument a command accepts.
struct ArgumentSpec: Sendable, Equatable {
  var name: String
  var help: String
  var isOptional: Bool
  /// Values the argument accepts, for help and shell completion; empty means any.
  var choices: [String]
  /// Whether the argument takes every word left (the last one only: `run`'s command).
  var isVariadic = false

  init(_ name: String, help: String, isOptional: Bool = false, choices: [String] = [], isVariadic: Bool = false) {
    self.name = name
    self.help = help
    self.isOptional = isOptional
    self.choices = choices
    self.isVariadic = isVariadic
  }
}

/// What a command declares about itself; help, parsing and completion are generated from it.
struct CommandConfiguration: Sendable {
  var name: String
  /// One line, starting lower-case, without a final period.
  var abstract: String
  /// Paragraphs shown after the usage line in `--help`.
  var discussion: String
  var options: [OptionSpec]
  var arguments: [ArgumentSpec]
  /// Hidden commands work but are not listed in `ghlogin --help`.
  var isHidden: Bool
  /// Other names that run the same command: `login` for `auth` (gh's spelling).
  var aliases: [String]

  init(
    name: String, abstract: String, discussion: String = "", options: [OptionSpec] = [],
    arguments: [ArgumentSpec] = [], isHidden: Bool = false, aliases: [String] = []
  ) {
    self.name = name
    self.aliases = aliases
    self.abstract = abstract
    self.discussion = discussion
    self.options = options
    self.arguments = arguments
    self.isHidden = isHidden
  }
}

/// A command of the `ghlogin` tree.
///
/// Parsing turns the command line into the command's own value (`init(_:)`);
/// only `run(in:)` touches the disk, the network or the streams.
protocol Command: Sendable {
  static var configuration: CommandConfiguration { get }
  /// Builds the command from parsed arguments; throws ``UsageError`` for values that make no sense.
  init(_ arguments: ParsedArguments) throws(UsageError)
  /// Does the work and returns the exit status; throws a ``ReportableError`` on failure.
  func run(in environment: Environment) throws -> ExitStatus
}
