import GHLoginCore

/// `ghlogin app token`: a GitHub App installation token, minted with the app's JWT signed by its
/// private key; `ghlogin app key import FILE`: that key into the keyring (issue 34 §1, R113,
/// R114).
struct AppCommand: Command {
  static let configuration = CommandConfiguration(
    name: "app", abstract: "mint a GitHub App installation token with the app's private key",
    discussion: """
      app token --app APP --key FILE|--key-from-keyring [--owner OWNER | --installation ID]
      [--repo OWNER/NAME[,...]] [--permission NAME:LEVEL[,...]] prints a new installation token
      of the GitHub App APP (its client ID or numeric app ID) on stdout: the app acts as itself,
      not as you. It expires within an hour.

      The private key is read from FILE, which must be a regular file you own with mode 0600
      (else ghlogin refuses before any request: run chmod 600 FILE), or with --key-from-keyring
      from the keyring (Secret Service), where 'app key import FILE --app APP' stores it (the
      same checks on FILE). The key is never printed, logged or sent: only a JWT signed with it
      (RS256, valid 10 minutes) is. 'migrate' never moves app keys.

      The installation is --installation ID, else the one covering the first --repo, else the
      one on --owner's account (an organisation's, else a user's). With --repo, the token is
      narrowed to those repositories (all of one owner); with --permission, to those permissions.
      GitHub's answer must grant exactly what was asked (plus metadata:read); anything wider or
      unverifiable is revoked at once, nothing is printed, and ghlogin exits 1.
        GH_TOKEN=$(ghlogin app token --app Iv23liExample --key ~/.config/app.pem \\
          --repo acme/api --permission contents:read) some-tool

      Exit status: 0 printed; 1 refused, not verified (revoked), network, the keyring, or a key
      file with the wrong owner or mode; 2 usage, a key file missing or not an RSA PEM key, no
      key in the keyring, or a JWT GitHub refused.
      """,
    options: [
      .option("app", value: "APP", help: "The GitHub App's client ID or numeric app ID (the JWT's iss)"),
      .option("key", value: "FILE", help: "The app's private key (.pem), a 0600 file you own"),
      .flag("key-from-keyring", help: "Read the app's private key from the keyring ('app key import')"),
      .option("owner", value: "OWNER", help: "Use the app's installation on this organisation or user"),
      .option("installation", value: "ID", help: "Use this installation ID"),
      .repo,
      .list(
        "permission", value: "NAME:LEVEL[,...]",
        help: "Only these GitHub App permissions, e.g. contents:read (repeatable)"),
      .host,
    ],
    arguments: [
      ArgumentSpec("ACTION", help: "token, or key import FILE", choices: ["token", "key"]),
      ArgumentSpec("WORD", help: "For key: import", isOptional: true, choices: ["import"]),
      ArgumentSpec("FILE", help: "For key import: the app's private key (.pem), a 0600 file you own", isOptional: true),
    ])

  /// What was asked.
  enum Action: Equatable {
    /// `app token`, the key from a file (nil: the keyring).
    case token(AppTokenRequest, keyFile: String?)
    /// `app key import FILE`, for the app given (nil: the configured client ID).
    case importKey(file: String, app: String?)
  }

  var action: Action
  var host: String?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    let words = arguments.positionals
    host = arguments.value("host")
    let app = arguments.value("app")
    if let app, !AppJWT.isAppIdentifier(app) {
      throw UsageError("--app: '\(Sanitize.terminal(app))' is not a GitHub App client ID or app ID")
    }
    if words[0] == "key" {
      guard words.count >= 2, words[1] == "import" else { throw UsageError("app key needs import FILE") }
      guard words.count == 3, !words[2].isEmpty else {
        throw UsageError(
          words.count < 3 ? "missing argument FILE" : "unexpected argument '\(Sanitize.terminal(words[3]))'")
      }
      for option in ["key", "owner", "installation"] where arguments.value(option) != nil {
        throw UsageError("--\(option) is for app token")
      }
      for option in ["repo", "permission"] where arguments.lists[option] != nil {
        throw UsageError("--\(option) is for app token")
      }
      if arguments.flag("key-from-keyring") { throw UsageError("--key-from-keyring is for app token") }
      action = .importKey(file: words[2], app: app)
      return
    }
    guard words.count == 1 else { throw UsageError("unexpected argument '\(Sanitize.terminal(words[1]))'") }
    guard let app else { throw UsageError("app token needs --app APP (a client ID or app ID)") }
    let keyFile = arguments.value("key")
    let fromKeyring = arguments.flag("key-from-keyring")
    if keyFile != nil && fromKeyring { throw UsageError("give --key FILE or --key-from-keyring, not both") }
    if keyFile == nil && !fromKeyring || keyFile == "" {
      throw UsageError("app token needs --key FILE or --key-from-keyring (the app's private key)")
    }
    action = .token(try Self.request(arguments, app: app), keyFile: keyFile)
  }

  /// The installation and narrowing `app token` asks for.
  private static func request(_ arguments: ParsedArguments, app: String) throws(UsageError) -> AppTokenRequest {
    let owner = arguments.value("owner")
    let installation = arguments.value("installation")
    if owner != nil && installation != nil { throw UsageError("give --owner or --installation, not both") }
    let repositories = arguments.list("repo")
    if arguments.lists["repo"] != nil && repositories.isEmpty {
      throw UsageError("--repo needs at least one OWNER/NAME")
    }
    let permissions: [String: String]
    do {
      permissions = try Narrowing.levels(arguments.list("permission"))
    } catch {
      throw UsageError("--permission: " + error.message)
    }
    if arguments.lists["permission"] != nil && permissions.isEmpty {
      throw UsageError("--permission needs at least one NAME:LEVEL")
    }
    let narrowing = repositories.isEmpty ? nil : try Narrowing.parse(arguments)
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
    return AppTokenRequest(app: app, target: target, narrowing: narrowing, permissions: permissions)
  }

  func run(in environment: Environment) throws -> ExitStatus {
    let workspace = try Workspace(environment, unknownConfigKeys: .lenient)
    switch action {
    case .token(let request, let keyFile?):
      let token = try workspace.appToken(
        request, key: { (try AppKeyFile.read(keyFile), .file(keyFile)) }, hostOption: host)
      environment.stdout.write(token.token + "\n")
    case .token(let request, nil):
      let token = try workspace.appToken(
        request,
        key: {
          guard let key = try SecretServiceStore.forAppKeys.readAppKey(app: request.app) else {
            throw AppKeyNotInKeyring(app: request.app)
          }
          return (key, .keyring(app: request.app))
        }, hostOption: host)
      environment.stdout.write(token.token + "\n")
    case .importKey(let file, let given):
      let app: String
      if let given {
        app = given
      } else {
        app = try workspace.app(for: workspace.chosenHost(host) ?? .gitHubDotCom).clientID
      }
      let key = try AppKeyFile.read(file)
      do {
        _ = try RSASigning.signSHA256([], key: key)
      } catch {
        throw AppKeyError(error, source: .file(file))
      }
      guard !key.containsNUL else { throw AppKeyError(AppKeyError.Reason.notAPrivateKey, source: .file(file)) }
      try SecretServiceStore.forAppKeys.writeAppKey(key, app: app)
      environment.stdout.write(
        "Stored the private key of the GitHub App \(Sanitize.terminal(app)) in the keyring (Secret Service).\n"
          + "Use it with: ghlogin app token --app \(CommandHint.word(app)) --key-from-keyring --owner OWNER\n"
          + "You may now delete \(Sanitize.terminal(file)).\n")
    }
    return .success
  }
}

/// `app token --key-from-keyring` with no key of the app in the keyring: exit 2, nothing sent.
struct AppKeyNotInKeyring: ReportableError, Equatable {
  var app: String
  var exitStatus: ExitStatus { .usage }
  var errorKind: ErrorKind { .configuration }
  var message: String {
    "the keyring holds no private key of the app \(Sanitize.terminal(app)); store it with "
      + "'ghlogin app key import FILE --app \(CommandHint.word(app))', or give --key FILE"
  }
}
