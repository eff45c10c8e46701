import GHLoginCore

/// The command line's side of ``Workspace``: Core returns what is worth saying as values; the
/// commands print them here, on stderr, as `ghlogin` lines.
extension Workspace {
  /// The commands' workspace: ``init(collectingWarnings:quiet:unknownConfigKeys:)``, with its
  /// ``warnings`` written to stderr.
  init(_ environment: Environment, quiet: Bool = false, unknownConfigKeys: UnknownConfigKeys = .strict) throws {
    try self.init(collectingWarnings: environment, quiet: quiet, unknownConfigKeys: unknownConfigKeys)
    for warning in warnings { Self.print(warning, on: environment) }
    // Capturing nothing (the workspace hands its environment over), it allocates no context.
    cleanupWarning = { warning, environment in Self.printWarning(warning, on: environment) }
  }

  /// ``usableCredentialReport(_:in:)``, its warning (a refresh that failed while the current
  /// token still works, R44) printed on stderr.
  func usableCredential(
    _ selection: AccountSelection, in credentials: Credentials? = nil
  ) throws -> (host: GitHubHost, credential: Credential) {
    let (host, credential, warning) = try usableCredentialReport(selection, in: credentials)
    if let warning { Self.printWarning(warning, on: environment) }
    return (host, credential)
  }

  /// `notice` on stderr: `ghlogin: warning: TEXT` (or `ghlogin: note: TEXT`).
  static func print(_ notice: ConfigNotice, on environment: Environment) {
    environment.stderr.write(notice.cliLine)
  }

  /// `ghlogin: warning: WARNING` on stderr.
  static func printWarning(_ warning: String, on environment: Environment) {
    environment.stderr.write("ghlogin: warning: \(warning)\n")
  }

  /// A refresh that failed while the current token still works (R44), as a `ghlogin: warning:`
  /// line on stderr, its remedies as `ghlogin` commands.
  static func printWarning(_ warning: RefreshWarning, on environment: Environment) {
    printWarning(warning.text(.ghlogin), on: environment)
  }
}
