import GHLoginCore

/// `ghlogin version`: prints the version, and whether an OAuth app is built in and whose
/// (``BuiltInApp``). `--version` prints the first line only.
struct VersionCommand: Command {
  static let configuration = CommandConfiguration(
    name: "version", abstract: "show the version of ghlogin and whether an OAuth app is built in")

  /// Only the version line (`--version`).
  var brief = false

  init(brief: Bool = false) { self.brief = brief }
  init(_ arguments: ParsedArguments) {}

  func run(in environment: Environment) -> ExitStatus {
    environment.stdout.write("ghlogin \(Release.version)\n")
    if !brief { environment.stdout.write(BuiltInApp.summary(BuiltInApp.compiled) + "\n") }
    return .success
  }
}
