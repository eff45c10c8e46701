import GHLoginCore

/// `ghlogin git-credential get|store|erase`: git's credential helper, hidden from `--help`.
///
/// Git runs it as configured by `ghlogin setup-git` and talks to it in the credential-helper
/// protocol (``CredentialRequest``, ``CredentialResponse``). Standard output carries only that
/// protocol; diagnostics go to standard error (R59). It never prompts, opens a browser or
/// starts a login, whatever the terminal (R59).
struct GitCredentialCommand: Command {
  static let configuration = CommandConfiguration(
    name: "git-credential", abstract: "git's credential helper (configured by setup-git)",
    discussion: """
      git runs this with an operation and key=value lines on standard input.
        get      answers username and password (the token) for protocol=https and a host you are
                 logged in to, and nothing for anything else, so git asks its next helper
        store    does nothing (logins are stored by 'ghlogin auth')
        erase    removes the login whose token git reports as rejected (exact host and token),
                 but only when GET /user with that token answers 401 now (an expired token is
                 refreshed first); otherwise keeps it and says why on standard error
        capability  prints 'version 0': no optional capabilities are supported
      Any other operation is ignored. Input with CR, NUL, invalid UTF-8, a line without '=',
      a line over 65535 bytes, more than 1000 lines or a host with a path or user info is
      refused as a whole (exit 2, nothing on standard output).
      """,
    arguments: [ArgumentSpec("operation", help: "get, store, erase or capability")],
    isHidden: true)

  var operation: String

  init(_ arguments: ParsedArguments) { operation = arguments.positionals.first ?? "" }

  func run(in environment: Environment) throws -> ExitStatus {
    switch operation {
    case "get": return try get(in: environment)
    case "erase": return try erase(in: environment)
    case "capability":
      // git-credential.adoc, "CAPABILITY INPUT/OUTPUT FORMAT": a version line and then one
      // line per capability; ghlogin supports none (it never sends authtype or credential).
      environment.stdout.write("version 0\n")
      return .success
    default:
      // `store`, and any operation git may add later: silently nothing (R57, R58).
      return .success
    }
  }

  /// Reads standard input up to its first empty line (or EOF: git's protocol ends a request
  /// there, and git may keep the pipe open for the answer, R91) and parses it; throws on anything
  /// R51–R53 refuse.
  private func readRequest(in environment: Environment) throws(CredentialInputError) -> CredentialRequest {
    guard let bytes = environment.stdin.readUntilEmptyLine(limit: CredentialRequest.maximumInputSize) else {
      throw .tooLarge
    }
    return try CredentialRequest.parse(bytes)
  }

  /// The stored host name git's `protocol` and `host` designate, or nil: only `https`, only a
  /// non-empty host, only an exact match (R54). `path`, `wwwauth[]` and `username` play no
  /// part in it (R60).
  private func storedHost(for request: CredentialRequest, in credentials: Credentials) -> GitHubHost? {
    guard request.protocol == "https", let host = request.host, !host.isEmpty else { return nil }
    guard let name = CredentialHostMatch.storedHost(for: host, among: credentials.hostNames) else {
      return nil
    }
    return try? GitHubHost(validating: name)
  }

  /// `get`: `username`, `password` and, for an expiring token, `password_expiry_utc`.
  private func get(in environment: Environment) throws -> ExitStatus {
    let request = try readRequest(in: environment)
    guard request.protocol == "https", let host = request.host, !host.isEmpty else { return .success }
    // Inside `ghlogin run`: the run's token for the run's host, nothing else (issue 34 §1).
    if let run = environment.variables["GHLOGIN_RUN"] {
      let runToken = try Workspace(environment, unknownConfigKeys: .lenient).runToken(id: run)
      guard CredentialHostMatch.storedHost(for: host, among: [runToken.host.name]) != nil else { return .success }
      let response = CredentialResponse(username: runToken.login, password: runToken.token, passwordExpiryUTC: nil)
      environment.stdout.write(String(decoding: try response.encoded(), as: UTF8.self))
      return .success
    }
    var workspace = try Workspace(environment, unknownConfigKeys: .lenient)
    // git's `username=` ranks with --user; its `path=` (credential.useHttpPath) serves `owner` rules.
    workspace.accountRequest = AccountRequest(caller: .git, path: request.path)
    // The file alone (the keyring items of the one login answered are read when it is
    // chosen), and only the entry of the host the request names is decoded: another host's does not fail it.
    let credentials = try workspace.store.loadFile(choosingHost: { names in
      CredentialHostMatch.storedHost(for: host, among: names.sorted())
    })
    guard let stored = storedHost(for: request, in: credentials) else { return .success }
    let wanted = request.username.flatMap { $0.isEmpty ? nil : $0 }
    let account: Credential
    do {
      // The shared way to a usable token: refreshed first when it expires within five minutes.
      account = try workspace.usableCredential(AccountSelection(host: stored.name, user: wanted), in: credentials)
        .credential
    } catch let error as NotLoggedIn {
      // No such account on that host: git asks its next helper. When a rule named the account
      // (R112: never another one instead), say which login to make.
      if error.chosenBy != nil { environment.stderr.write("ghlogin: \(error.cliMessage)\n") }
      return .success
    } catch let error as RefreshError {
      // Expired and not refreshable now: say why on stderr, give git nothing (R59: no login here).
      environment.stderr.write("ghlogin: \(error.cliMessage)\n")
      return .success
    }
    let response = CredentialResponse(
      username: account.login, password: account.token,
      passwordExpiryUTC: account.expiresAt.flatMap { Int64(exactly: $0.rounded(.down)) })
    environment.stdout.write(String(decoding: try response.encoded(), as: UTF8.self))
    return .success
  }

  /// `erase`: forgets the account whose token git reported as rejected, but only on an exact match
  /// of protocol, host and token (R57), and only when the host's API rejects that token now
  /// (R102, ``Workspace/checkReportedRejection(token:on:username:remedies:)``); otherwise the login is
  /// kept and one line on stderr says why.
  private func erase(in environment: Environment) throws -> ExitStatus {
    let request = try readRequest(in: environment)
    guard let password = request.password, !password.isEmpty else { return .success }
    let workspace = try Workspace(environment, unknownConfigKeys: .lenient)
    // Inside `ghlogin run`: only the run's token is ever dropped (and replaced), never a login.
    if let run = environment.variables["GHLOGIN_RUN"] {
      guard request.protocol == "https", let host = request.host, !host.isEmpty else { return .success }
      let runHost = try workspace.runToken(id: run).host
      guard CredentialHostMatch.storedHost(for: host, among: [runHost.name]) != nil else { return .success }
      if let line = try workspace.eraseRunToken(id: run, token: password, on: runHost) {
        environment.stderr.write("ghlogin: \(line)\n")
      }
      return .success
    }
    let credentials = try workspace.store.load()
    let username = request.username.flatMap { $0.isEmpty ? nil : $0 }
    guard let stored = storedHost(for: request, in: credentials) else { return .success }
    let check = try workspace.checkReportedRejection(
      token: password, on: stored, username: username, remedies: .ghlogin)
    if let line = Self.report(check, on: stored) { environment.stderr.write("ghlogin: \(line)\n") }
    return .success
  }

  /// The line `erase` prints about `check`, without the `ghlogin: ` prefix; nil when no login had the token.
  static func report(_ check: RejectionCheck, on host: GitHubHost) -> String? {
    let relogin = "Run '\(CommandHint.line(["ghlogin", "auth", "--host", host.name]))' to log in again."
    func reported(_ login: String) -> String {
      "git reported the token of \(Sanitize.terminal(login)) on \(host) as rejected"
    }
    switch check {
    case .notStored:
      return nil
    case .forgotten(let login, .rejected):
      return "\(reported(login)); removed it. \(relogin)"
    case .forgotten(let login, .sessionOver):
      return "\(reported(login)); it had expired and its refresh token no longer works, so removed it. \(relogin)"
    case .accepted(let login):
      return "\(reported(login)), but \(host) still accepts it; kept the login."
    case .refreshed(let login):
      return
        "\(reported(login)); it had expired, so it was refreshed, and \(host) accepts the new token; kept the login."
    case .unchecked(let login, let reason):
      return "\(reported(login)), but it could not be checked (\(reason)); kept the login."
    }
  }
}
