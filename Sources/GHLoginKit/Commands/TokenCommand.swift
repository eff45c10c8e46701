/// `ghlogin token`: the token alone on stdout, for `GH_TOKEN=$(ghlogin token)`.
struct TokenCommand: Command {
  static let configuration = CommandConfiguration(
    name: "token", abstract: "print the token for a host, for scripts",
    discussion: """
      Prints the token and a newline on stdout and nothing else; diagnostics go to stderr.
      Exits 4 with nothing on stdout when there is no login for the host.

        export GH_TOKEN=$(ghlogin token)

      With --header, prints `Authorization: Bearer TOKEN` instead, for
        curl -H @<(ghlogin token --header) https://api.github.com/user
      """,
    options: [.host, .user, .flag("header", help: "Print an `Authorization: Bearer TOKEN` header line")])

  var host: String?
  var user: String?
  var header: Bool

  init(_ arguments: ParsedArguments) {
    host = arguments.value("host")
    user = arguments.value("user")
    header = arguments.flag("header")
  }

  func run(in environment: Environment) throws -> ExitStatus {
    let workspace = try Workspace(environment)
    let credentials = try workspace.store.load()
    let host = try workspace.host(host, credentials: credentials)
    let account = try workspace.account(on: host, user: user, in: credentials)
    environment.stdout.write((header ? "Authorization: Bearer " : "") + account.token + "\n")
    return .success
  }
}
