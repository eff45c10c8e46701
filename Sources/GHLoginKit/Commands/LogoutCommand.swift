/// `ghlogin logout`: revokes one account's token at GitHub and forgets it (R45, R46).
struct LogoutCommand: Command {
  static let configuration = CommandConfiguration(
    name: "logout", abstract: "revoke a login and remove it from this machine",
    discussion: """
      When the config has a client_secret, first asks GitHub to revoke the token of the account
      (the active one unless --user). The token is then removed from the credentials file even
      if the revocation failed; ghlogin then warns that the token may still be valid and names
      the page where you can revoke it by hand. --local-only skips the revocation.
      """,
    options: [.host, .user, .flag("local-only", help: "Only remove the token from this machine; do not revoke it")])

  var selection: AccountSelection
  var localOnly: Bool

  init(_ arguments: ParsedArguments) {
    selection = AccountSelection(arguments)
    localOnly = arguments.flag("local-only")
  }

  /// What became of the token at GitHub.
  enum ServerSide: Equatable {
    case revoked
    case alreadyInvalid
    case skipped
    case notConfigured
    case failed(String)
  }

  func run(in environment: Environment) throws -> ExitStatus {
    let workspace = try Workspace(environment)
    // Revoke and remove under the lock, so a refresh in another process cannot swap in a new
    // token between the two (R46: removal is atomic and happens whatever the revocation did).
    let (host, login, serverSide) = try workspace.store.update { credentials in
      let (chosen, account) = try workspace.select(selection, in: credentials)
      let serverSide = revoke(account.token, on: chosen, workspace: workspace)
      // Exactly the account whose token was revoked (R92): never a stale entry with the same login.
      credentials.remove(from: chosen.name) { $0.userID == account.userID && $0.token == account.token }
      return (chosen, account.login, serverSide)
    }
    let manual = workspace.manualRevocationURL(for: host)
    let done = "Logged out of \(host) as \(Sanitize.terminal(login))"
    switch serverSide {
    case .revoked:
      environment.stderr.write("\(done); the token was revoked at \(host)\n")
    case .alreadyInvalid:
      environment.stderr.write("\(done); \(host) no longer knew the token (already revoked or expired)\n")
    case .skipped:
      environment.stderr.write(
        "\(done). The token was not revoked (--local-only): it stays valid until it expires or you revoke it at "
          + "\(manual)\n")
    case .notConfigured:
      environment.stderr.write(
        "\(done). The token was removed from this machine but not revoked, because no client_secret is "
          + "configured: it stays valid until it expires or you revoke it at \(manual)\n")
    case .failed(let reason):
      environment.stderr.write(
        "ghlogin: warning: could not revoke the token at \(host): \(reason). The token may still be valid; "
          + "revoke it by hand at \(manual)\n\(done)\n")
    }
    return .success
  }

  /// Asks GitHub to revoke `token` unless `--local-only` or no client secret; never throws.
  private func revoke(_ token: String, on host: GitHubHost, workspace: Workspace) -> ServerSide {
    if localOnly { return .skipped }
    if token.isEmpty { return .failed("its token is missing from the keyring") }
    guard let revocation = workspace.revocation(for: host) else { return .notConfigured }
    do {
      switch try revocation.revoke(token: token) {
      case .revoked: return .revoked
      case .alreadyInvalid: return .alreadyInvalid
      }
    } catch {
      return .failed((error as? any ReportableError)?.message ?? "\(error)")
    }
  }
}
