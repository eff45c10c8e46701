import GHLoginCore

/// `ghlogin whoami`: asks GitHub who the stored token belongs to.
struct WhoamiCommand: Command {
  static let configuration = CommandConfiguration(
    name: "whoami", abstract: "show who the stored token belongs to, asking GitHub",
    discussion: """
      Calls GET /user with the stored token and prints `LOGIN (Name) on HOST`, or with --json the
      JSON object as GitHub sent it (DEL, C1 and bidi control characters written as \\u escapes).
      Exits 4 when not logged in or when GitHub rejects the token (revoked or expired), 1 on a
      network or TLS failure. An expiring token is refreshed first when it expires within five
      minutes. When GitHub's answer says when the token expires, that is stored (see 'status').
      A 403 because an organisation's SAML single sign-on needs the token authorised prints the
      URL GitHub gave for it (only an https:// URL on the host).
      With --explain, a second line says what chose the account here: --user, GHLOGIN_USER, the
      repository's git config (credential.username, ghlogin.account), an account_rules entry or
      the host's default (see doc/accounts.md).
      """,
    options: [
      .host, .user, .flag("json", help: "Print GitHub's /user JSON object as received"),
      .flag("explain", help: "Also say what chose the account (a rule, git config, --user or the default)"),
    ])

  var selection: AccountSelection
  var json: Bool
  var explain: Bool

  init(_ arguments: ParsedArguments) {
    selection = AccountSelection(arguments)
    json = arguments.flag("json")
    explain = arguments.flag("explain")
  }

  /// ``Workspace/identity(_:)``, printed (what the library's `identity()` returns).
  func run(in environment: Environment) throws -> ExitStatus {
    let workspace = try Workspace(environment, unknownConfigKeys: .lenient)
    // Resolved first, so a rule naming a logged-out account fails before any request.
    let explanation = explain ? try Self.explanation(selection, in: workspace) : nil
    let (identity, warning) = try workspace.identity(selection)
    if let warning { Workspace.printWarning(warning, on: environment) }
    if json {
      // As received, except C1 and bidi controls, which become \u escapes (same JSON, R83).
      environment.stdout.write(TerminalSafeJSON.escape(identity.rawJSON) + "\n")
    } else {
      let name = identity.name.map { $0.isEmpty ? "" : " (\($0))" } ?? ""
      environment.stdout.write("\(identity.login)\(name) on \(identity.host)\n")
    }
    if let explanation { environment.stdout.write(explanation) }
    return .success
  }

  /// `--explain`'s line: what chose the account (``Workspace/accountChoice(on:user:in:)``),
  /// and, with one login the caller may use, that the repository's git config was not read.
  static func explanation(_ selection: AccountSelection, in workspace: Workspace) throws -> String {
    let credentials = try workspace.credentials(for: selection.host)
    let host = try workspace.host(selection.host, credentials: credentials)
    let choice = try workspace.accountChoice(on: host, user: selection.user, in: credentials)
    var line = "\(choice.account.login) on \(host) chosen by \(choice.reason.described)"
    let app = workspace.callerApp(on: host)
    let visible = credentials.hosts[host.name]?.accounts.count { workspace.isVisible($0, toApp: app) } ?? 0
    if visible < 2 {
      line += " (one login on \(host): the repository's git config is not read)"
    }
    return Sanitize.terminal(line) + "\n"
  }
}
