import GHLoginCore

/// `ghlogin switch`: changes which account of a host is the active one.
struct SwitchCommand: Command {
  static let configuration = CommandConfiguration(
    name: "switch", abstract: "change the active account of a host",
    discussion: """
      With --user, makes that account the active one. Without it, with two accounts on the
      host, switches to the other one; with more, on a terminal it lists them numbered and asks
      for a number (an answer that is not one asks again, three times; Ctrl-C or no answer
      changes nothing), else lists them and asks for --user (exit 2). An unknown --user lists
      the accounts there are (exit 4).
      The active account is the one 'token', 'whoami', 'env' and git use when no --user or
      GHLOGIN_USER names one. GHLOGIN_USER chooses an account for one command without
      changing the active one.
      The active account is kept per app: switch changes it for this ghlogin's app (the client ID
      configured for the host) and for no other, so a tool built on GHLoginKit with its own app
      keeps its own; only this app's logins and those stored with 'auth --with-token' are listed.
      """,
    options: [.host, .option("user", value: "LOGIN", help: "The account to make active")])

  var selection: AccountSelection

  init(_ arguments: ParsedArguments) {
    selection = AccountSelection(arguments)
  }

  func run(in environment: Environment) throws -> ExitStatus {
    let workspace = try Workspace(environment)
    var selection = selection
    if selection.user == nil, environment.stdin.isTerminal, environment.stderr.isTerminal {
      // Asked before the lock is taken: a person's answer may take a while.
      let credentials = try workspace.store.loadFile()
      let host = try workspace.host(selection.host, credentials: credentials)
      if let entry = credentials.hosts[host.name] {
        let app = workspace.callerApp(on: host)
        let choices = Self.choices(in: entry, app: app)
        if choices.count > 2 {
          selection.user = try Self.ask(choices, in: entry, app: app, host: host, environment: environment)
        }
      }
    }
    let (host, previous, chosen) = try workspace.store.update { credentials in
      let host = try workspace.host(selection.host, credentials: credentials)
      guard let entry = credentials.hosts[host.name], !entry.accounts.isEmpty else {
        throw NotLoggedIn(host: host.name)
      }
      let app = workspace.callerApp(on: host)
      let previous = entry.defaultAccount(forApp: app)?.login
      let chosen = try Self.choose(selection.user, in: entry, app: app, host: host)
      credentials.hosts[host.name]?.makeDefault(chosen, forApp: app)
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

  /// The logins the caller whose app is `app` may make active: those of the accounts it sees
  /// (its app's and those without a client ID, R111), not stale, each once.
  static func choices(in entry: HostEntry, app: String?) -> [String] {
    var logins: [String] = []
    for account in entry.accounts where (app.map(account.isUsable(byApp:)) ?? true) && !entry.isStale(account) {
      if !logins.contains(where: { $0.lowercased() == account.login.lowercased() }) { logins.append(account.login) }
    }
    return logins
  }

  /// The login to make active: `--user` (matched ignoring case, stored as GitHub spells it),
  /// else the other of two accounts, else the only one, among the ``choices(in:app:)``.
  private static func choose(_ user: String?, in entry: HostEntry, app: String?, host: GitHubHost) throws -> String {
    if let user {
      guard let account = entry.account(user, forApp: app) else {
        throw UnknownAccount(host: host.name, user: user, entry: entry)
      }
      return account.login
    }
    let logins = choices(in: entry, app: app)
    let active = entry.defaultAccount(forApp: app)?.login.lowercased()
    switch logins.count {
    case 0:
      throw NotLoggedIn(host: host.name)
    case 1:
      return logins[0]
    case 2:
      return logins.first { $0.lowercased() != active } ?? logins[0]
    default:
      let list = logins.map { login in
        "  \(Sanitize.terminal(login))\(login.lowercased() == active ? " (active)" : "")"
      }
      throw UsageError("\(host) has \(logins.count) accounts; choose one with --user:\n" + list.joined(separator: "\n"))
    }
  }

  /// The numbered choice on a terminal: the accounts of `entry`, then `Switch to [1-N]: `, read
  /// as one line from stdin; an answer that is not one of the numbers asks again, up to three
  /// times; then, or at the end of input, a usage error (nothing changed).
  private static func ask(
    _ logins: [String], in entry: HostEntry, app: String?, host: GitHubHost, environment: Environment
  ) throws -> String {
    let active = entry.defaultAccount(forApp: app)?.login.lowercased()
    var text = "Accounts on \(host):\n"
    for (index, login) in logins.enumerated() {
      text += "  \(index + 1). \(Sanitize.terminal(login))\(login.lowercased() == active ? " (active)" : "")\n"
    }
    environment.stderr.write(text)
    for _ in 0..<3 {
      environment.stderr.write("Switch to [1-\(logins.count)]: ")
      guard let line = environment.stdin.readLine() else {
        environment.stderr.write("\n")
        throw UsageError("no account was chosen; nothing was changed")
      }
      let answer = line.trimmingASCIIWhitespace()
      if let number = Int(answer), logins.indices.contains(number - 1) {
        return logins[number - 1]
      }
      environment.stderr.write(
        "'\(Sanitize.terminal(answer, maxCharacters: 40))' is not one of 1 to \(logins.count)\n")
    }
    throw UsageError("no account was chosen; nothing was changed")
  }
}

/// `switch --user NAME` for an account that is not there: the accounts there are (exit 4).
struct UnknownAccount: ReportableError, Equatable {
  var host: String
  var user: String
  var entry: HostEntry

  var message: String {
    let list = entry.accounts.map { "\(Sanitize.terminal($0.login))\(entry.isActive($0) ? " (active)" : "")" }
    return "no account \(Sanitize.terminal(user)) on \(host); the accounts there: \(list.joined(separator: ", ")). "
      + "Log in as it with '\(CommandHint.auth(host: host, user: user))'"
  }

  var exitStatus: ExitStatus { .notLoggedIn }
  var errorKind: ErrorKind { .notLoggedIn }
}
