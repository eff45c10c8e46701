/// `ghlogin switch`: changes which account of a host is the active one.
struct SwitchCommand: Command {
  static let configuration = CommandConfiguration(
    name: "switch", abstract: "change the active account of a host",
    discussion: """
      With --user, makes that account the active one. Without it, with two accounts on the
      host, switches to the other one; with more, lists them and asks for --user (exit 2).
      The active account is the one 'token', 'whoami', 'env' and git use when no --user or
      GHLOGIN_USER names one. GHLOGIN_USER chooses an account for one command without
      changing the active one.
      """,
    options: [.host, .option("user", value: "LOGIN", help: "The account to make active")])

  var selection: AccountSelection

  init(_ arguments: ParsedArguments) {
    selection = AccountSelection(arguments)
  }

  func run(in environment: Environment) throws -> ExitStatus {
    let workspace = try Workspace(environment)
    let (host, previous, chosen) = try workspace.store.update { credentials in
      let host = try workspace.host(selection.host, credentials: credentials)
      guard let entry = credentials.hosts[host.name], !entry.accounts.isEmpty else {
        throw NotLoggedIn(host: host.name)
      }
      let previous = entry.active?.login
      let chosen = try choose(in: entry, host: host)
      credentials.hosts[host.name]?.activeLogin = chosen
      return (host, previous, chosen)
    }
    let shown = Sanitize.terminal(chosen)
    if previous == chosen {
      environment.stderr.write("\(shown) is already the active account on \(host)\n")
    } else {
      environment.stderr.write("Switched the active account on \(host) to \(shown)\n")
    }
    return .success
  }

  /// The login to make active: `--user` (matched ignoring case, stored as GitHub spells it),
  /// else the other of two accounts, else the only one.
  private func choose(in entry: HostEntry, host: GitHubHost) throws -> String {
    if let user = selection.user {
      guard let account = entry.account(user) else { throw NotLoggedIn(host: host.name, user: user) }
      return account.login
    }
    switch entry.accounts.count {
    case 1:
      return entry.accounts[0].login
    case 2:
      let active = entry.activeLogin?.lowercased()
      return entry.accounts.first { $0.login.lowercased() != active }?.login ?? entry.accounts[0].login
    default:
      let list = entry.accounts.map { account in
        "  \(Sanitize.terminal(account.login))\(account.login == entry.activeLogin ? " (active)" : "")"
      }
      throw UsageError(
        "\(host) has \(entry.accounts.count) accounts; choose one with --user:\n" + list.joined(separator: "\n"))
    }
  }
}
