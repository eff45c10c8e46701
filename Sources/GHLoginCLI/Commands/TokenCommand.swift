import GHLoginCore

/// `ghlogin token`: the token alone on stdout, for `GH_TOKEN=$(ghlogin token)`.
struct TokenCommand: Command {
  static let configuration = CommandConfiguration(
    name: "token", abstract: "print the token for a host, for scripts",
    discussion: """
      Prints the token and a newline on stdout and nothing else; diagnostics go to stderr.
      Exits 4 with nothing on stdout when there is no login for the host.

      An expiring token (GitHub App) is refreshed first when it expires within five minutes;
      the new token is stored before it is printed. When the refresh token is no longer
      accepted, it exits 4 and asks you to run 'ghlogin auth'. Within 7 days of the expiry GitHub
      gave for the token (a personal access token's, seen by 'auth --with-token', 'whoami' or
      'status'), it warns on stderr; stdout stays exactly the token.

        export GH_TOKEN=$(ghlogin token)

      With --header, prints `Authorization: Bearer TOKEN` instead, for
        curl -H @<(ghlogin token --header) https://api.github.com/user
      """,
    options: [.host, .user, .flag("header", help: "Print an `Authorization: Bearer TOKEN` header line")])

  var selection: AccountSelection
  var header: Bool

  init(_ arguments: ParsedArguments) {
    selection = AccountSelection(arguments)
    header = arguments.flag("header")
  }

  /// The token ``Workspace/usableCredentialReport(_:in:)`` gives (the one the library's `token()`
  /// returns), printed. Not through `AccessToken`: its API URL would build the host's endpoints,
  /// for nothing (bench/RESULTS.md, issue 19).
  func run(in environment: Environment) throws -> ExitStatus {
    let usable = try Workspace(environment, unknownConfigKeys: .lenient).usableCredentialReport(selection)
    if let warning = usable.warning { Workspace.printWarning(warning, on: environment) }
    let credential = usable.credential
    if let warning = TokenExpirationHeader.warning(
      expiration: credential.gitHubExpiration, login: credential.login, host: usable.host.name,
      now: environment.clock.now(), remedies: .ghlogin)
    {
      Workspace.printWarning(warning, on: environment)
    }
    environment.stdout.write((header ? "Authorization: Bearer " : "") + credential.token + "\n")
    return .success
  }
}
