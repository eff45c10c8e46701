/// The entry point `main.swift` calls.
public enum GHLogin {
  /// The version printed by `ghlogin --version` and sent in `User-Agent`.
  public static let version = "0.1.0"

  /// Runs the command line in `environment` and returns the status to exit with.
  public static func main(environment: Environment) -> ExitStatus {
    environment.stdout.write("ghlogin \(version)\n")
    return .success
  }
}
