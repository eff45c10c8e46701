import GHLoginCore

extension Workspace {
  /// The line `logout` and `refresh` print on stderr when the repository's git config or an
  /// `account_rules` entry (not `--user`, `GHLOGIN_USER` or the default) chose the account they
  /// act on (R112): "LOGIN on HOST chosen by account_rules[0] (dir ~/work) in FILE". Nil
  /// otherwise, and when the choice fails (the command itself then reports why).
  func accountRuleNote(_ selection: AccountSelection) -> String? {
    guard let credentials = try? credentials(for: selection.host),
      let host = try? host(selection.host, credentials: credentials),
      let choice = try? accountChoice(on: host, user: selection.user, in: credentials), choice.reason.isRule
    else { return nil }
    return Sanitize.terminal("\(choice.account.login) on \(host) chosen by \(choice.reason.described)") + "\n"
  }

  /// What `auth` says when the repository's git config or an `account_rules` entry chooses
  /// another account here than the one that just logged in (`auth` itself ignores the rules:
  /// it stores whoever approves); nil when they choose it, or nothing does.
  func ruleMismatchNote(newLogin: String, on host: GitHubHost) -> String? {
    guard let entry = try? store.loadFile().hosts[host.name],
      let named = namedAccount(on: host, user: nil, in: entry), named.reason.isRule,
      named.login.lowercased() != newLogin.lowercased()
    else { return nil }
    return Sanitize.terminal(
      "Note: commands here use \(named.login) on \(host), not \(newLogin): "
        + "\(named.reason.described) chooses it") + "\n"
  }
}
