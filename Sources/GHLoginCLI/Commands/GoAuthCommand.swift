import GHLoginCore

/// `ghlogin goauth [URL]`: a GOAUTH command for the go command (Go 1.24+,
/// `GOAUTH="ghlogin goauth"`), hidden from `--help`.
///
/// Without a URL (go's first call, before any server asked) it prints nothing (R105). With an
/// `https://` URL whose `host[:port]` is exactly a host logged in to (``GoAuthMatch``: R104) it
/// prints that host's Basic credentials (`login:token`, refreshed as `token` does); for any
/// other URL, or without a login, nothing. It always exits 0 (go then tries its next GOAUTH
/// method); reasons go to stderr, which go shows with `-x`.
struct GoAuthCommand: Command {
  static let configuration = CommandConfiguration(
    name: "goauth", abstract: "a GOAUTH command for Go modules on a GitHub host",
    discussion: """
      Set GOAUTH="ghlogin goauth" (or "netrc;ghlogin goauth" to keep netrc as well: a GOAUTH
      value replaces go's default), for example: go env -w GOAUTH='ghlogin goauth'. go first runs
      it with no argument, before any request: then it prints nothing and exits 0 (no token is
      given before a server asks for one). Later go runs it with the URL of a request the server
      refused; for an https:// URL on a host you are logged in to it prints that host's
      credentials in go's format, and nothing for any other URL. It reads and ignores what go writes on
      standard input (the response's status and headers).
      """,
    arguments: [ArgumentSpec("url", help: "the URL go is fetching", isOptional: true)],
    isHidden: true)

  var url: String?

  init(_ arguments: ParsedArguments) { url = arguments.positionals.first }

  func run(in environment: Environment) throws -> ExitStatus {
    guard let url else { return .success }  // go's first call: disclose nothing before a server asks
    if !environment.stdin.isTerminal { _ = environment.stdin.readAll(limit: RegistryAddress.maximumInputSize) }
    do {
      let workspace = try Workspace(environment, quiet: true, unknownConfigKeys: .lenient)
      // The file alone (the keyring items of the one login answered are read when it is
      // chosen), and only the entry of the host the URL names is decoded: another host's does not fail it.
      let credentials = try workspace.store.loadFile(choosingHost: { names in
        GoAuthMatch.host(forURL: url, among: names.sorted())
      })
      guard let host = GoAuthMatch.host(forURL: url, among: credentials.hostNames) else { return .success }
      let account: Credential
      if let run = environment.variables["GHLOGIN_RUN"] {
        // Inside `ghlogin run`: the run's token for the run's host, nothing else (issue 34 §1).
        let runToken = try workspace.runToken(id: run, host: host)
        account = Credential(login: runToken.login, userID: 0, token: runToken.token, createdAt: 0)
      } else {
        account = try workspace.usableCredential(AccountSelection(host: host), in: credentials).credential
      }
      guard let answer = GoAuthMatch.answer(host: host, login: account.login, token: account.token) else {
        environment.stderr.write(
          "ghlogin: goauth: the stored login for \(host) cannot be sent as Basic credentials; "
            + "run '\(CommandHint.auth(host: host))'\n")
        return .success
      }
      environment.stdout.write(answer)
    } catch {
      let message = (error as? any ReportableError)?.cliMessage ?? "\(error)"
      environment.stderr.write("ghlogin: goauth: \(message)\n")
    }
    return .success
  }
}
