/// `ghlogin logout`: forgets one account's token.
struct LogoutCommand: Command {
  static let configuration = CommandConfiguration(
    name: "logout", abstract: "remove a login from this machine",
    discussion: "Removes the token of one account (the active one unless --user) from the credentials file.",
    options: [.host, .user])

  var host: String?
  var user: String?

  init(_ arguments: ParsedArguments) {
    host = arguments.value("host")
    user = arguments.value("user")
  }

  func run(in environment: Environment) throws -> ExitStatus {
    let workspace = try Workspace(environment)
    let (host, login) = try workspace.store.update { credentials in
      let chosen = try workspace.host(self.host, credentials: credentials)
      let account = try workspace.account(on: chosen, user: user, in: credentials)
      credentials.remove(login: account.login, from: chosen.name)
      return (chosen.name, account.login)
    }
    environment.stderr.write("Logged out of \(host) as \(Sanitize.terminal(login))\n")
    return .success
  }
}
