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

  /// ``Workspace/accessToken(_:)``, printed (what the library's `token()` returns).
  func run(in environment: Environment) throws -> ExitStatus {
    let token = try Workspace(environment, unknownConfigKeys: .lenient).accessToken(selection)
    if let warning = token.refreshWarning { environment.stderr.write("ghlogin: warning: \(warning)\n") }
    if let warning = TokenExpirationHeader.warning(
      expiration: token.gitHubExpiration, login: token.login, host: token.host, now: environment.clock.now())
    {
      environment.stderr.write(warning)
    }
    environment.stdout.write((header ? "Authorization: Bearer " : "") + token.value + "\n")
    return .success
  }
}
