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

      With --repo OWNER/NAME[,...], prints a new token that GitHub narrowed to those
      repositories (all of one owner) and, with --permission NAME:LEVEL[,...], to those
      permissions (else the login's own on those repositories); it expires within hours.
      Both options take comma-separated values and may be repeated. Only a login made with a
      GitHub App whose client_id and client_secret are configured can be narrowed (else exit 2).
      GitHub's answer must grant exactly what was asked (plus metadata:read); anything wider
      or unverifiable is revoked at once, nothing is printed, and ghlogin exits 1.
      The token is kept beside the login and handed out again, to token --repo and env --repo
      with exactly the same repositories and permissions, until five minutes before it expires;
      a refresh or logout of the login revokes it. Inside 'ghlogin run' (GHLOGIN_RUN set), only
      the run's token is printed.
        GH_TOKEN=$(ghlogin token --repo acme/api --permission contents:read) some-tool
      """,
    options: [
      .host, .user, .flag("header", help: "Print an `Authorization: Bearer TOKEN` header line"), .repo,
      .permission,
    ])

  var selection: AccountSelection
  var header: Bool
  /// `--repo` and `--permission`: print a narrowed token instead of the login's.
  var narrowing: Narrowing?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    selection = AccountSelection(arguments)
    header = arguments.flag("header")
    narrowing = try Narrowing.parse(arguments)
  }

  /// The token ``Workspace/usableCredentialReport(_:in:)`` gives (the one the library's `token()`
  /// returns), printed. Not through `AccessToken`: its API URL would build the host's endpoints,
  /// for nothing (bench/RESULTS.md, issue 19).
  func run(in environment: Environment) throws -> ExitStatus {
    // Inside `ghlogin run`: the run's token, nothing else (issue 34 §1).
    if let run = environment.variables["GHLOGIN_RUN"] {
      let token = try Workspace(environment, unknownConfigKeys: .lenient).runToken(id: run).token
      environment.stdout.write((header ? "Authorization: Bearer " : "") + token + "\n")
      return .success
    }
    if let narrowing {
      let (narrowed, warning) = try Workspace(environment, unknownConfigKeys: .lenient).narrowedToken(
        selection, narrowing)
      if let warning { Workspace.printWarning(warning, on: environment) }
      environment.stdout.write((header ? "Authorization: Bearer " : "") + narrowed.token + "\n")
      return .success
    }
    let (host, credential, refreshWarning) = try Workspace(environment, unknownConfigKeys: .lenient)
      .usableCredentialReport(selection)
    if let refreshWarning { Workspace.printWarning(refreshWarning, on: environment) }
    if let warning = TokenExpirationHeader.warning(
      expiration: credential.gitHubExpiration, login: credential.login, host: host.name,
      now: environment.clock.now(), remedies: .ghlogin)
    {
      Workspace.printWarning(warning, on: environment)
    }
    environment.stdout.write((header ? "Authorization: Bearer " : "") + credential.token + "\n")
    return .success
  }
}
