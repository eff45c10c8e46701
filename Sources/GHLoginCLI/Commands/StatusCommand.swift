import GHLoginCore

/// `ghlogin status`: every login on this machine, with nothing secret shown.
struct StatusCommand: Command {
  static let configuration = CommandConfiguration(
    name: "status", abstract: "show the hosts and accounts you are logged in to",
    discussion: """
      Lists each host and account: login, granted scopes, the token redacted to its prefix and
      last four characters, its expiry if any, where it is kept (the credentials file or the
      keyring), and the credentials file with its permissions.
      Exits 4 when there are no logins (and still says where the credentials file is), and when
      the active account of the chosen host (see below) has a session that expired (its refresh
      token was refused): so 'ghlogin status || ghlogin auth' logs in when it is needed.
      --show-token shows the whole token (on stdout) instead of its redacted form.
      When a host has logins of several apps (a tool built on GHLoginKit with its own OAuth app,
      a token stored with 'auth --with-token'), each login says its app: the built-in app's name,
      else its client ID; "active" is this ghlogin's app's default account (each app has its own).
      Narrowed tokens ('token --repo', 'run') are listed under their login, always redacted, with
      who holds them (cache, run ID, forward ID), their repositories and permissions, and expiry.

      The credentials file is $GHLOGIN_CREDENTIALS, else $XDG_CONFIG_HOME/ghlogin/credentials.json,
      else ~/.config/ghlogin/credentials.json: never beside a config named by GHLOGIN_CONFIG.

      Each token is checked with GitHub (GET /user; all at once, up to 5 seconds a request;
      nothing is refreshed, and only GitHub's expiry of a token is written): valid, rejected (revoked or expired), or could not check, with
      the reason. Exits 4 when the active token of the chosen host (--host, GH_HOST or the
      config's host; else any host listed) was rejected. --offline shows only the file.
      When GitHub's answer says when the token expires (GitHub-Authentication-Token-Expiration,
      sent for personal access tokens with an expiry), status shows it and the days left, and
      stores it ('token' and 'env' warn within 7 days of it). It also asks GET /user/orgs and says
      how many organisations the token is not authorised for (SAML single sign-on) and where to
      authorise it.
      Warns on stderr when GH_TOKEN or GITHUB_TOKEN holds another token than the active login's:
      gh and many tools use those before anything stored.

      With --json, prints one JSON object instead (documented in doc/git-and-scripts.md):
      {"credentials_file": PATH, "hosts": {HOST: {"accounts": [{"login", "active", "login_stale",
      "scopes", "expires_at" (Unix seconds or null), "session_expired", "token_redacted" (null when
      the keyring cannot be read), "store" ("file" or "keyring"), "check", "github_token_expiration"
      (Unix seconds or null), "sso_unauthorized_organizations" (a count, or null when not asked),
      "narrowed" (when the login has narrowed tokens: [{"token_redacted", "consumer", "consumer_id",
      "repositories", "permissions", "expires_at", "created_at"}]), and with --show-token "token"}]}}}, where check is null
      with --offline, else {"result": "valid" (with "login"), "rejected", "unknown" (with "reason")
      or "expired"}. Without --show-token it holds no secret; it is printed (with no hosts) even when the exit status is 4.
      """,
    options: [
      .host, .flag("json", help: "Print a JSON object (no secrets) for scripts"),
      .flag("offline", help: "Do not ask GitHub; show only what the credentials file says"),
      .flag("show-token", short: "t", help: "Show the whole token of each account (on stdout)"),
    ])

  var host: String?
  var json: Bool
  var offline: Bool
  var showToken: Bool

  init(_ arguments: ParsedArguments) {
    showToken = arguments.flag("show-token")
    host = arguments.value("host")
    json = arguments.flag("json")
    offline = arguments.flag("offline")
  }

  func run(in environment: Environment) throws -> ExitStatus {
    let workspace = try Workspace(environment)
    // A keyring that cannot be read (locked, no service) does not hide the logins: each one
    // kept there shows why its token is not shown.
    var credentials: Credentials
    var keyringProblem: KeyringError?
    do {
      credentials = try workspace.store.load()
    } catch let error as KeyringError {
      credentials = try workspace.store.loadFile()
      keyringProblem = error
    }
    let hosts: [String]
    if let host {
      hosts = [try GitHubHost(validating: host).name]
    } else {
      hosts = credentials.hosts.keys.sorted()
    }
    warnAboutEnvironmentTokens(credentials, workspace: workspace)
    let checked = offline ? nil : TokenCheck.checkAll(credentials, hosts: hosts, workspace: workspace)
    let checks = checked?.checks
    let details = checked?.details ?? [:]
    learnGitHubExpirations(details, in: &credentials, workspace: workspace)
    if json {
      let status = printJSON(
        credentials, hosts: hosts, checks: checks, details: details, file: workspace.paths.credentialsFile,
        workspace: workspace, in: environment)
      return status == .success ? verdict(checks, credentials: credentials, hosts: hosts, workspace: workspace) : status
    }
    let style = TerminalStyle(environment.stdout, variables: environment.variables)
    var text = ""
    var found = false
    for host in hosts {
      guard let entry = credentials.hosts[host], !entry.accounts.isEmpty else {
        text += "\(host)\n  not logged in; run '\(CommandHint.auth(host: host))'\n"
        continue
      }
      found = true
      text += "\(style.bold(host))\n"
      let app = (try? GitHubHost(validating: host)).flatMap { workspace.callerApp(on: $0) }
      // Each login's app, when the host has more than one app's (R111).
      let severalApps = Set(entry.accounts.map { $0.clientID ?? "" }).count > 1
      for account in entry.accounts {
        let check = checks?[host]?[TokenCheck.Key(account)]
        text += Self.describe(
          account, on: host, active: entry.isDefault(account, forApp: app), stale: entry.isStale(account),
          clock: environment.clock, keyringProblem: keyringProblem, showToken: showToken, failed: check == .rejected,
          style: style, app: severalApps ? Self.appName(of: account, config: workspace.config) : nil)
        if let check {
          text += "    online: \(check.describe(host: host, storedLogin: account.login))\n"
        }
        text += Self.describeSSO(details[host]?[TokenCheck.Key(account)], on: host)
      }
    }
    guard found else {
      environment.stderr.write(
        (text.isEmpty ? "not logged in to any host; run 'ghlogin auth'\n" : text)
          + "Credentials: \(workspace.paths.credentialsFile) (no login stored)\n")
      return .notLoggedIn
    }
    text += "\nCredentials: \(workspace.paths.credentialsFile) (mode 0600, owned by you: safe)\n"
    environment.stdout.write(text)
    if let keyringProblem { environment.stderr.write("ghlogin: \(keyringProblem.cliMessage)\n") }
    return verdict(checks, credentials: credentials, hosts: hosts, workspace: workspace)
  }

  /// `--json`: the documented object on stdout; exit 4 (with a line on stderr) when it lists no login.
  private func printJSON(
    _ credentials: Credentials, hosts: [String], checks: [String: [TokenCheck.Key: TokenCheck]]?,
    details: [String: [TokenCheck.Key: TokenCheck.Details]], file: String, workspace: Workspace,
    in environment: Environment
  ) -> ExitStatus {
    var object = JSONObject()
    for host in hosts {
      guard let entry = credentials.hosts[host], !entry.accounts.isEmpty else { continue }
      let app = (try? GitHubHost(validating: host)).flatMap { workspace.callerApp(on: $0) }
      let accounts = entry.accounts.map { account -> JSONValue in
        let base: JSONValue = [
          "login": .string(account.login),
          "active": .bool(entry.isDefault(account, forApp: app)),
          "login_stale": .bool(entry.isStale(account)),
          "scopes": .array(account.scopes.map(JSONValue.string)),
          "expires_at": account.expiresAt.flatMap { Int64(exactly: $0.rounded(.down)) }.map(JSONValue.init(integer:))
            ?? .null,
          "session_expired": .bool(account.isExpired),
          "token_redacted": account.token.isEmpty ? .null : .string(Redaction.redact(account.token)),
          "store": .string(account.storage.rawValue),
          "check": checks?[host]?[TokenCheck.Key(account)]?.json ?? .null,
          "github_token_expiration": account.gitHubExpiration.flatMap { Int64(exactly: $0.rounded(.down)) }
            .map(JSONValue.init(integer:)) ?? .null,
          "sso_unauthorized_organizations": details[host]?[TokenCheck.Key(account)]?.unauthorizedOrganizations
            .map { JSONValue(integer: Int64($0)) } ?? .null,
        ]
        var object = base.objectValue ?? JSONObject()
        if !account.narrowed.isEmpty { object["narrowed"] = .array(account.narrowed.map(Self.narrowedJSON)) }
        if showToken { object["token"] = account.token.isEmpty ? .null : .string(account.token) }
        return .object(object)
      }
      var hostObject = JSONObject()
      hostObject["accounts"] = .array(accounts)
      // The account a command here uses and what chose it (R112), or why none can be.
      if let validHost = try? GitHubHost(validating: host) {
        do {
          let choice = try workspace.accountChoice(on: validHost, user: nil, in: credentials)
          hostObject["chosen"] = [
            "login": .string(choice.account.login), "chosen_by": .string(choice.reason.key),
            "reason": .string(choice.reason.described),
          ]
        } catch {
          hostObject["chosen"] = [
            "login": error.user.map(JSONValue.string) ?? .null, "chosen_by": .null, "error": .string(error.cliMessage),
          ]
        }
      }
      object[host] = .object(hostObject)
    }
    let document: JSONValue = ["credentials_file": .string(file), "hosts": .object(object)]
    environment.stdout.write(JSON.serialize(document, pretty: true) + "\n")
    guard !object.isEmpty else {
      environment.stderr.write(
        "ghlogin: not logged in\(host.map { " to \($0)" } ?? " to any host"); "
          + "run '\(CommandHint.auth(host: host ?? DefaultHost.name))'\n")
      return .notLoggedIn
    }
    return .success
  }

  /// The app that issued `account`, as `status` names it: the built-in app's name, else its
  /// client ID; a login without one was stored as a given token (`auth --with-token`).
  static func appName(of account: Credential, config: Config) -> String {
    guard let clientID = account.clientID else { return "none (a token stored with 'auth --with-token')" }
    if let builtIn = config.builtIn, builtIn.clientID == clientID, let name = builtIn.name {
      return "\(Sanitize.terminal(name)) (client ID \(Sanitize.terminal(clientID)))"
    }
    return "client ID \(Sanitize.terminal(clientID))"
  }

  /// The lines for one account (internal, not private: the token-response fuzz target drives it
  /// with hostile expiry times). `keyringProblem` is why the keyring could not be read, if so.
  static func describe(
    _ account: Credential, on host: String, active: Bool, stale: Bool = false, clock: any TimeSource,
    keyringProblem: KeyringError? = nil, showToken: Bool = false, failed: Bool = false,
    style: TerminalStyle = .plain, app: String? = nil
  ) -> String {
    let login = Sanitize.terminal(account.login)
    var notes: [String] = []
    if active { notes.append("active") }
    if stale {
      notes.append(
        "stale: GitHub gave this login to another account; log in as user id \(account.userID) again to update it")
    }
    if account.isExpired { notes.append("session expired") }
    let mark = failed || account.isExpired ? style.failure("✗") : active ? style.success("✓") : "-"
    var lines = "  \(mark) \(style.bold(login))\(notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))")\n"
    if account.storage == .keyring, let keyringProblem {
      lines += "    token: not shown (\(keyringProblem.summary))\n"
    } else if let error = account.secretError {
      lines += "    token: not shown (\(error.summary)); run 'ghlogin auth --host \(host)'\n"
    } else if account.missingSecret != nil {
      lines += "    token: missing from the keyring; run 'ghlogin auth --host \(host)'\n"
    } else {
      lines += "    token: \(showToken ? account.token : Redaction.redact(account.token))\n"
    }
    lines += "    kept in: \(account.storage.displayName)\n"
    if let app { lines += "    app: \(app)\n" }
    let scopes = account.scopes.isEmpty ? "(none)" : account.scopes.joined(separator: ", ")
    lines += "    scopes: \(Sanitize.terminal(scopes))\n"
    let now = clock.now()
    lines += describeNarrowed(account.narrowed, now: now)
    if account.isExpired {
      lines += "    session expired: the refresh token was refused or ran out; run 'ghlogin auth --host \(host)'\n"
      return lines
    }
    if let expiresAt = account.expiresAt {
      let remaining = expiresAt - now
      let state: String
      if remaining > 0 {
        state = "in \(DurationText.describe(remaining))"
      } else if RefreshPolicy.decide(account, now: now) == .refresh {
        state = "expired (refreshed on next use)"
      } else {
        state = "expired; run 'ghlogin auth --host \(host)'"
      }
      lines += "    expires: \(state)\n"
    }
    if let expiration = account.gitHubExpiration {
      let left = TokenExpirationHeader.remaining(expiration, now: now)
      let state =
        expiration > now
        ? "expires \(left)" : "has passed; make a new token and run 'ghlogin auth --with-token --host \(host)'"
      lines += "    GitHub expiry: \(TokenExpirationHeader.format(expiration)) (\(state))\n"
    }
    if account.refreshToken != nil, let refreshExpiresAt = account.refreshTokenExpiresAt {
      let remaining = refreshExpiresAt - now
      lines += "    refresh token: \(remaining > 0 ? "expires in \(DurationText.describe(remaining))" : "expired")\n"
    }
    return lines
  }

  /// One line for each narrowed token of an account (issue 34 §1): redacted, always (even with
  /// --show-token: it is handed to a consumer, not to the user), with its consumer, what it may
  /// do and when it expires.
  static func describeNarrowed(_ records: [NarrowedRecord], now: Double) -> String {
    var lines = ""
    for record in records {
      let token =
        record.token.isEmpty
        ? "not read from the keyring (missing, or the keyring could not be read)" : Redaction.redact(record.token)
      let consumer = record.consumerID.map { "\(record.consumer.rawValue) \($0)" } ?? record.consumer.rawValue
      let expiry: String
      if let expiresAt = record.expiresAt {
        expiry = expiresAt > now ? "expires in \(DurationText.describe(expiresAt - now))" : "expired"
      } else {
        expiry = "expiry unknown"
      }
      lines +=
        "    narrowed (\(consumer)): \(token): \(Sanitize.terminal(record.repositoriesDescription)), permissions "
        + "\(record.permissions.isEmpty ? "the login's own" : Narrowing.describe(record.permissions)); \(expiry)\n"
    }
    return lines
  }

  /// A narrowed token in `status --json`: `token_redacted`, `consumer`, `consumer_id` (null for
  /// the cache), `repositories` (OWNER/NAME), `permissions` (empty: the login's own),
  /// `expires_at` and `created_at` (Unix seconds; null when unknown).
  static func narrowedJSON(_ record: NarrowedRecord) -> JSONValue {
    var permissions = JSONObject()
    for name in record.permissions.keys.sorted() { permissions[name] = record.permissions[name].map(JSONValue.string) }
    func seconds(_ value: Double?) -> JSONValue {
      value.flatMap { Int64(exactly: $0.rounded(.down)) }.map(JSONValue.init(integer:)) ?? .null
    }
    return [
      "token_redacted": record.token.isEmpty ? .null : .string(Redaction.redact(record.token)),
      "consumer": .string(record.consumer.rawValue),
      "consumer_id": record.consumerID.map(JSONValue.string) ?? .null,
      "repositories": .array(record.repositories.map { .string(record.owner + "/" + $0) }),
      "permissions": .object(permissions),
      "expires_at": seconds(record.expiresAt),
      "created_at": seconds(record.createdAt),
    ]
  }
}
