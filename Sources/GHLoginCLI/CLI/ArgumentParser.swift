import GHLoginCore

/// The options, flags and positional arguments given to one command, checked against its declaration.
struct ParsedArguments: Sendable, Equatable {
  var values: [String: String] = [:]
  /// The values of each list option (``OptionSpec/isList``), in order: every occurrence's
  /// comma-separated values, accumulated.
  var lists: [String: [String]] = [:]
  var flags: Set<String> = []
  var positionals: [String] = []

  /// The value of `--name`, if given (given twice, a single-value option is a usage error).
  func value(_ name: String) -> String? { values[name] }
  /// Every value of the list option `--name`, in order; empty when not given.
  func list(_ name: String) -> [String] { lists[name] ?? [] }
  /// Whether the flag `--name` was given.
  func flag(_ name: String) -> Bool { flags.contains(name) }

  /// The value of `--name` as a whole number in `range`.
  func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
    guard let text = values[name] else { return nil }
    guard let number = Int(text), range.contains(number) else {
      throw UsageError(
        "--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
    }
    return number
  }
}

/// Parses a command's arguments: `--name value`, `--name=value`, `-x value`, flags, `--`, positionals.
enum ArgumentParser {
  /// `helpOnTerminal`: whether stdout is a terminal, where gh's `-h` with no host after it
  /// (last, or before another option) is help; elsewhere (a script's `-h $H` with `H` empty)
  /// it is `--host` with no value, a usage error, so that nothing is printed on stdout. Asked
  /// only when such a `-h` is there (a system call the helpers git runs need not make).
  static func parse(
    _ arguments: [String], for configuration: CommandConfiguration, helpOnTerminal: @autoclosure () -> Bool = false
  ) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var index = arguments.startIndex
    var onlyPositionals = false
    while index < arguments.endIndex {
      let argument = arguments[index]
      index += 1
      if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      var (spec, inlineValue) = try lookUp(argument, in: configuration)
      // gh's `-h HOST`: `-h` before a word that is not an option is `--host`; last, or before
      // another option, it is `--help` when stdout is a terminal (a person asking), else
      // `--host` with no value. Only the literal `-h`: `--host`/`--hostname` with no value is
      // always the usage error. Commands without `--host` always take `-h` as help.
      if argument == "-h", spec.takesValue, spec.short == "h", helpOnTerminal(),
        index == arguments.endIndex || isOptionLike(arguments[index])
      {
        spec = helpOption
      }
      if spec.takesValue {
        let value: String
        if let inlineValue {
          value = inlineValue
        } else if index < arguments.endIndex, !isOptionLike(arguments[index]) {
          value = arguments[index]
          index += 1
        } else {
          throw UsageError("option --\(spec.name) needs a value (\(spec.valueName ?? "VALUE"))")
        }
        if spec.isList {
          // `--repo a/b,a/c --repo a/d`: every piece, in order (issue 34 §1).
          parsed.lists[spec.name, default: []] += value.split(separator: ",").map(String.init)
          continue
        }
        // A second `--host` is refused rather than silently replacing the first (issue 34 §1).
        if parsed.values[spec.name] != nil { throw UsageError(Self.givenTwice(spec)) }
        parsed.values[spec.name] = value
        if !spec.choices.isEmpty, let value = parsed.values[spec.name], !spec.choices.contains(value) {
          throw UsageError("--\(spec.name) must be one of \(spec.choices.joined(separator: ", ")), not '\(value)'")
        }
      } else {
        if inlineValue != nil { throw UsageError("option --\(spec.name) takes no value") }
        parsed.flags.insert(spec.name)
      }
    }
    // `--help` is answered even when required arguments are missing.
    if !parsed.flag("help") { try checkPositionals(parsed.positionals, against: configuration.arguments) }
    return parsed
  }

  /// The message for a single-value option given more than once.
  static func givenTwice(_ spec: OptionSpec) -> String {
    "option --\(spec.name) takes one value and was given more than once"
  }

  private static func isOptionLike(_ argument: String) -> Bool {
    argument.hasPrefix("-") && argument != "-"
  }

  private static func lookUp(
    _ argument: String, in configuration: CommandConfiguration
  ) throws(UsageError) -> (OptionSpec, String?) {
    let options = configuration.options + [helpOption]
    if argument.hasPrefix("--") {
      let body = argument.dropFirst(2)
      let name = body.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
      let inline =
        body.contains("=") ? String(body[body.index(after: body.firstIndex(of: "=") ?? body.startIndex)...]) : nil
      if let spec = options.first(where: { $0.longNames.contains(name) }) { return (spec, inline) }
      let hint = nearestCandidate(to: name, among: options.flatMap(\.longNames)).map { "; did you mean --\($0)?" } ?? ""
      throw UsageError("unknown option --\(name)\(hint)")
    }
    let letters = argument.dropFirst()
    guard letters.count == 1, let letter = letters.first, let spec = options.first(where: { $0.short == letter }) else {
      throw UsageError("unknown option \(argument)")
    }
    return (spec, nil)
  }

  private static func checkPositionals(_ positionals: [String], against specs: [ArgumentSpec]) throws(UsageError) {
    let required = specs.filter { !$0.isOptional }.count
    if positionals.count > specs.count, specs.last?.isVariadic != true {
      let extra = positionals[specs.count]
      throw UsageError("unexpected argument '\(extra)'")
    }
    if positionals.count < required {
      throw UsageError("missing argument \(specs[positionals.count].name)")
    }
    for (value, spec) in zip(positionals, specs) where !spec.choices.isEmpty && !spec.choices.contains(value) {
      throw UsageError("\(spec.name) must be one of \(spec.choices.joined(separator: ", ")), not '\(value)'")
    }
  }

  /// `-h, --help`, accepted by every command.
  static let helpOption = OptionSpec.flag("help", short: "h", help: "Show this help and exit")

  /// `helpOption` as `configuration` documents it: where `-h` is also `--host` (gh's `-h HOST`),
  /// its help says when `-h` means help.
  static func helpOption(for configuration: CommandConfiguration) -> OptionSpec {
    guard configuration.options.contains(where: { $0.short == "h" }) else { return helpOption }
    var spec = helpOption
    spec.help = "Show this help and exit (-h alone or before another option: on a terminal)"
    return spec
  }
}
