import GHLoginCore

/// `ghlogin migrate --to keyring|file`: moves logins between the credentials file and the
/// keyring without a new browser login.
struct MigrateCommand: Command {
  static let configuration = CommandConfiguration(
    name: "migrate", abstract: "move stored tokens between the credentials file and the keyring",
    discussion: """
      Moves the tokens of every login (or those --host and --user name) to the keyring
      (the Secret Service: gnome-keyring, KeePassXC, KWallet) or back to the credentials file.
      Each account is moved on its own, under the credentials lock: to the keyring, its items
      are written and read back before the tokens leave the file; to the file, the file is
      written before the items are deleted. An interruption leaves every account readable
      from one of the two; run the command again to finish. A login's narrowed tokens
      (token --repo, run) move with it; an app's private key (app key import) never moves.

      Where new logins go is the config's "store" ("file" or "keyring"); set it too.
      """,
    options: [
      .option("to", value: "STORE", help: "Where to keep the tokens: keyring or file", choices: ["keyring", "file"]),
      .host, .user,
    ])

  var target: TokenStorage
  var selection: AccountSelection

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard let to = arguments.value("to") else { throw UsageError("missing --to keyring|file") }
    guard let target = TokenStorage(rawValue: to) else {
      throw UsageError("--to must be keyring or file, not '\(Sanitize.terminal(to))'")
    }
    self.target = target
    selection = AccountSelection(arguments)
  }

  func run(in environment: Environment) throws -> ExitStatus {
    let workspace = try Workspace(environment)
    let chosen = try accounts(in: workspace.store.loadFile(), workspace: workspace)
    guard !chosen.isEmpty else { throw NotLoggedIn(host: selection.host ?? "any host", user: selection.user) }
    for (host, login, key) in chosen {
      let (moved, account): (Bool, Credential?) = try workspace.store.update { credentials in
        // The same login (user and app, R111): another app's login of the user moves on its own.
        guard let index = credentials.hosts[host]?.accounts.firstIndex(where: { $0.isSameLogin(as: key) }),
          let account = credentials.hosts[host]?.accounts[index]
        else { return (false, nil) }
        try account.checkSecrets(on: host)
        guard account.storage != target else { return (false, account) }
        // Its narrowed tokens move with it (issue 34 §1): the store writes their keyring items
        // (read back) before the file drops their tokens, or writes the file before deleting
        // them, as for the login's own. App keys are no login's and never move.
        credentials.hosts[host]?.accounts[index].storage = target
        // A record whose item is missing or unusable has no token to move: the file cannot
        // hold it without one (a cached one is minted again).
        if target == .file { credentials.hosts[host]?.accounts[index].narrowed.removeAll { $0.token.isEmpty } }
        return (true, account)
      }
      if !moved && target == .file, let account {
        // Items a migration interrupted after writing the file left behind, if any: only those
        // holding the tokens the file now has (R101: nothing ghlogin did not read is deleted).
        let secrets = [(SecretItem.Kind.accessToken, account.token), (.refreshToken, account.refreshToken ?? "")]
        for (kind, secret) in secrets where !secret.isEmpty {
          try? workspace.store.secrets.delete(account.secretItem(kind, on: host), holding: secret)
        }
        for record in account.narrowed where !record.token.isEmpty {
          try? workspace.store.secrets.deleteNarrowed(account.narrowedItem(record, on: host), holding: record.token)
        }
      }
      let shown = "\(Sanitize.terminal(login)) on \(host)"
      environment.stderr.write(
        moved
          ? "Moved the tokens of \(shown) to \(target.displayName)\n" : "\(shown): already in \(target.displayName)\n")
    }
    if workspace.config.store != target {
      environment.stderr.write(
        "New logins still keep their tokens in \(workspace.config.store.displayName); to change that, set "
          + "\"store\": \"\(target.rawValue)\" in \(workspace.paths.configFile)\n")
    }
    return .success
  }

  /// The accounts to move, as (host, login, the account as read): all of them, or those on
  /// `--host` (and `--user`) only.
  private func accounts(in credentials: Credentials, workspace: Workspace) throws -> [(String, String, Credential)] {
    var hosts = credentials.hosts.keys.sorted()
    if selection.host != nil || selection.user != nil {
      hosts = [try workspace.host(selection.host, credentials: credentials).name]
    }
    var result: [(String, String, Credential)] = []
    for host in hosts {
      for account in credentials.hosts[host]?.accounts ?? [] {
        if let user = selection.user, user.lowercased() != account.login.lowercased() { continue }
        result.append((host, account.login, account))
      }
    }
    if let user = selection.user, result.isEmpty { throw NotLoggedIn(host: hosts.first ?? "github.com", user: user) }
    return result
  }
}
