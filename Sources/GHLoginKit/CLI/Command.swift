/// One option a command accepts: a flag (`--json`) or an option with a value (`--host HOST`).
public struct OptionSpec: Sendable, Equatable {
  /// The long name without dashes: `host` for `--host`.
  public var name: String
  /// The short form without its dash, if any: `h` for `-h`.
  public var short: Character?
  /// The placeholder shown in help for the value; nil for a flag.
  public var valueName: String?
  /// One line for the help text.
  public var help: String
  /// Values the option accepts, for help and shell completion; empty means any.
  public var choices: [String]

  /// A flag: present or absent.
  public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(name: name, short: short, valueName: nil, help: help, choices: [])
  }

  /// An option that takes a value.
  public static func option(
    _ name: String, short: Character? = nil, value: String, help: String, choices: [String] = []
  ) -> OptionSpec {
    OptionSpec(name: name, short: short, valueName: value, help: help, choices: choices)
  }

  var takesValue: Bool { valueName != nil }
}

/// A positional argument a command accepts.
public struct ArgumentSpec: Sendable, Equatable {
  public var name: String
  public var help: String
  public var isOptional: Bool
  /// Values the argument accepts, for help and shell completion; empty means any.
  public var choices: [String]

  public init(_ name: String, help: String, isOptional: Bool = false, choices: [String] = []) {
    self.name = name
    self.help = help
    self.isOptional = isOptional
    self.choices = choices
  }
}

/// What a command declares about itself; help, parsing and completion are generated from it.
public struct CommandConfiguration: Sendable {
  public var name: String
  /// One line, starting lower-case, without a final period.
  public var abstract: String
  /// Paragraphs shown after the usage line in `--help`.
  public var discussion: String
  public var options: [OptionSpec]
  public var arguments: [ArgumentSpec]
  /// Hidden commands work but are not listed in `ghlogin --help`.
  public var isHidden: Bool

  public init(
    name: String, abstract: String, discussion: String = "", options: [OptionSpec] = [],
    arguments: [ArgumentSpec] = [], isHidden: Bool = false
  ) {
    self.name = name
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
public protocol Command: Sendable {
  static var configuration: CommandConfiguration { get }
  /// Builds the command from parsed arguments; throws ``UsageError`` for values that make no sense.
  init(_ arguments: ParsedArguments) throws(UsageError)
  /// Does the work and returns the exit status; throws a ``ReportableError`` on failure.
  func run(in environment: Environment) throws -> ExitStatus
}

/// A command line that cannot be run as written: exit 2, with the usage line.
public struct UsageError: ReportableError, Equatable {
  public var message: String
  public var exitStatus: ExitStatus { .usage }
  public init(_ message: String) { self.message = message }
}
