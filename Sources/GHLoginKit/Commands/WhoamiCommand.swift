/// `ghlogin whoami`: asks GitHub who the stored token belongs to.
struct WhoamiCommand: Command {
  static let configuration = CommandConfiguration(
    name: "whoami", abstract: "show who the stored token belongs to, asking GitHub",
    discussion: """
      Calls GET /user with the stored token and prints `LOGIN (Name) on HOST`, or with --json the
      JSON object as GitHub sent it (DEL, C1 and bidi control characters written as \\u escapes).
      Exits 4 when not logged in or when GitHub rejects the token (revoked or expired), 1 on a
      network or TLS failure. An expiring token is refreshed first when it expires within five
      minutes.
      """,
    options: [.host, .user, .flag("json", help: "Print GitHub's /user JSON object as received")])

  var selection: AccountSelection
  var json: Bool

  init(_ arguments: ParsedArguments) {
    selection = AccountSelection(arguments)
    json = arguments.flag("json")
  }

  func run(in environment: Environment) throws -> ExitStatus {
    let workspace = try Workspace(environment)
    let (host, account) = try workspace.usableCredential(selection)
    let identity = try workspace.api(for: host).user(token: account.token)
    if json {
      // As received, except C1 and bidi controls, which become \u escapes (same JSON, R: issue 12).
      environment.stdout.write(TerminalSafeJSON.escape(identity.rawJSON) + "\n")
    } else {
      let name = identity.name.map { $0.isEmpty ? "" : " (\($0))" } ?? ""
      environment.stdout.write("\(identity.login)\(name) on \(host.name)\n")
    }
    return .success
  }
}
