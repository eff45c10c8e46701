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
      """,
    options: [.host, .user, .flag("json", help: "Print GitHub's /user JSON object as received")])

  var selection: AccountSelection
  var json: Bool

  init(_ arguments: ParsedArguments) {
    selection = AccountSelection(arguments)
    json = arguments.flag("json")
  }

  /// ``Workspace/identity(_:)``, printed (what the library's `identity()` returns).
  func run(in environment: Environment) throws -> ExitStatus {
    let (identity, warning) = try Workspace(environment, unknownConfigKeys: .lenient).identity(selection)
    if let warning { Workspace.printWarning(warning, on: environment) }
    if json {
      // As received, except C1 and bidi controls, which become \u escapes (same JSON, R83).
      environment.stdout.write(TerminalSafeJSON.escape(identity.rawJSON) + "\n")
    } else {
      let name = identity.name.map { $0.isEmpty ? "" : " (\($0))" } ?? ""
      environment.stdout.write("\(identity.login)\(name) on \(identity.host)\n")
    }
    return .success
  }
}
