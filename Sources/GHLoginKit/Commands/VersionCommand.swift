/// `ghlogin version`: prints the version.
struct VersionCommand: Command {
  static let configuration = CommandConfiguration(name: "version", abstract: "show the version of ghlogin")

  init() {}
  init(_ arguments: ParsedArguments) {}

  func run(in environment: Environment) -> ExitStatus {
    environment.stdout.write("ghlogin \(GHLogin.version)\n")
    return .success
  }
}
