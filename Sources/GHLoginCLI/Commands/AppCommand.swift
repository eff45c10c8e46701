import GHLoginCore

/// `ghlogin app token`: a GitHub App installation token, minted with the app's JWT signed by its
/// private key (issue 34 §1, R113, R114).
struct AppCommand: Command {
  static let configuration = CommandConfiguration(
    name: "app", abstract: "mint a GitHub App installation token with the app's private key",
    discussion: """
      app token --app APP --key FILE [--owner OWNER | --installation ID] [--repo OWNER/NAME[,...]]
      [--permission NAME:LEVEL[,...]] prints a new installation token of the GitHub App APP (its
      client ID or numeric app ID) on stdout: the app acts as itself, not as you. It expires
      within an hour.

      The private key is read from FILE, which must be a regular file you own with mode 0600
      (else ghlogin refuses before any request: run chmod 600 FILE). The key is never printed,
      logged or sent: only a JWT signed with it (RS256, valid 10 minutes) is.

      The installation is --installation ID, else the one covering the first --repo, else the
      one on --owner's account (an organisation's, else a user's). With --repo, the token is
      narrowed to those repositories (all of one owner); with --permission, to those permissions.
      GitHub's answer must grant exactly what was asked (plus metadata:read); anything wider or
      unverifiable is revoked at once, nothing is printed, and ghlogin exits 1.
        GH_TOKEN=$(ghlogin app token --app Iv23liExample --key ~/.config/app.pem \\
          --repo acme/api --permission contents:read) some-tool

      Exit status: 0 printed; 1 refused, not verified (revoked), network, or a key file with
      the wrong owner or mode; 2 usage, a key file missing or not an RSA PEM key, or a JWT
      GitHub refused.
      """,
    options: [
      .option("app", value: "APP", help: "The GitHub App's client ID or numeric app ID (the JWT's iss)"),
      .option("key", value: "FILE", help: "The app's private key (.pem), a 0600 file you own"),
      .option("owner", value: "OWNER", help: "Use the app's installation on this organisation or user"),
      .option("installation", value: "ID", help: "Use this installation ID"),
      .repo,
      .list(
        "permission", value: "NAME:LEVEL[,...]",
        help: "Only these GitHub App permissions, e.g. contents:read (repeatable)"),
      .host,
    ],
    arguments: [ArgumentSpec("ACTION", help: "token", choices: ["token"])])

  var request: AppTokenRequest
  var keyFile: String
  var host: String?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    let words = arguments.positionals
    guard words.count == 1 else { throw UsageError("unexpected argument '\(Sanitize.terminal(words[1]))'") }
    guard let app = arguments.value("app") else {
      throw UsageError("app token needs --app APP (a client ID or app ID)")
    }
    guard AppJWT.isAppIdentifier(app) else {
      throw UsageError("--app: '\(Sanitize.terminal(app))' is not a GitHub App client ID or app ID")
    }
    guard let keyFile = arguments.value("key"), !keyFile.isEmpty else {
      throw UsageError("app token needs --key FILE (the app's private key)")
    }
    let owner = arguments.value("owner")
    let installation = arguments.value("installation")
    if owner != nil && installation != nil { throw UsageError("give --owner or --installation, not both") }
    let repositories = arguments.list("repo")
    if arguments.lists["repo"] != nil && repositories.isEmpty {
      throw UsageError("--repo needs at least one OWNER/NAME")
    }
    let narrowing: Narrowing?
    let permissions: [String: String]
    do {
      permissions = try Narrowing.levels(arguments.list("permission"))
    } catch {
      throw UsageError("--permission: " + error.message)
    }
    if arguments.lists["permission"] != nil && permissions.isEmpty {
      throw UsageError("--permission needs at least one NAME:LEVEL")
    }
    if repositories.isEmpty {
      narrowing = nil
    } else {
      narrowing = try Narrowing.parse(arguments)
    }
    let target: AppTokenRequest.Target
    if let installation {
      guard let id = Int64(installation), id > 0, installation.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
        throw UsageError("--installation must be a positive whole number, not '\(Sanitize.terminal(installation))'")
      }
      target = .installation(id)
    } else if let owner {
      if let narrowing, narrowing.owner.lowercased() != owner.lowercased() {
        throw UsageError(
          "--owner \(Sanitize.terminal(owner)) is not the owner of the --repo repositories (\(narrowing.owner))")
      }
      target = .owner(owner)
    } else if let narrowing {
      target = .owner(narrowing.owner)
    } else {
      throw UsageError("app token needs --owner OWNER, --installation ID or --repo OWNER/NAME")
    }
    request = AppTokenRequest(app: app, target: target, narrowing: narrowing, permissions: permissions)
    self.keyFile = keyFile
    host = arguments.value("host")
  }

  func run(in environment: Environment) throws -> ExitStatus {
    let workspace = try Workspace(environment, unknownConfigKeys: .lenient)
    let token = try workspace.appToken(
      request, key: { (try AppKeyFile.read(keyFile), .file(keyFile)) }, hostOption: host)
    environment.stdout.write(token.token + "\n")
    return .success
  }
}
