/// What the library's entry points (``GitHubLogin``) and the commands that work on logins
/// share: the resolved paths, the config, the credential store and the seams. What it decides
/// is in one file per role, each with one reason to change:
///
/// - `Workspace+Selection.swift`: which host and which account a command or call works on;
/// - `Workspace+Endpoints.swift`: how a host is reached (endpoints, app, transport, API client,
///   refresher, a login's context);
/// - `Workspace+Tokens.swift`: a stored login's token in use (read, refreshed, its identity);
/// - the login pipeline: `LoginPlan.swift` (``route(_:)``, ``plan(_:route:givenToken:)``),
///   `Workspace+Login.swift` (``login(_:remedies:events:warnings:)``, the one end of every login and the one way
///   it is stored), `Workspace+Revocation.swift` (logout and every revocation),
///   `UnstoredLogin.swift` (R96) and `ReportedRejection.swift` (R102).
///
/// Nothing here prints: what is worth saying comes back as values (``warnings``, a refresh
/// warning, ``LoginEvent``s) for the command line or the library to show.
package struct Workspace: Sendable {
  package let environment: Environment
  package let paths: ConfigPaths
  package let config: Config
  package let store: CredentialStore
  /// Ends every network wait once readable (``stopping(on:)``); nil: requests run to their timeout.
  package internal(set) var stopFD: Int32?
  /// What ``init(collectingWarnings:quiet:unknownConfigKeys:)`` found worth saying, in order, as
  /// values: the command line prints them in its voice, the library returns them in its own.
  package private(set) var warnings: [ConfigNotice] = []
  /// The OAuth app this caller is, when it has one in mind: a library caller with its own app
  /// (``init(_:paths:configuration:)``). It sees only the logins that app made and those with no
  /// client ID (``isVisible(_:toApp:)``). Nil for the commands, the helpers and `GitHubLogin()`,
  /// whose app is the one the configuration resolves for each host (``callerApp(on:)``).
  package private(set) var callerClientID: String?
  /// What the caller knows about its request for the account rules (``AccountRequest``: git's
  /// path, the directory to judge); the default judges the working directory.
  package var accountRequest = AccountRequest()
  /// Where a best-effort clean-up that failed is said (a narrowed token not revoked, a run's
  /// record not dropped: each expires on its own), in Core's words without a program name, with
  /// the workspace's environment to say it in. The command line prints it as a `ghlogin:
  /// warning:` line; by default it is dropped.
  package var cleanupWarning: @Sendable (String, Environment) -> Void = { _, _ in }

  /// Resolves the paths, loads the config and opens the store, printing nothing (the command
  /// line prints ``warnings``, the library returns them). Unless `quiet`, ``warnings`` holds a notice when a `credentials.json` of an earlier
  /// version sits beside a custom `GHLOGIN_CONFIG` and none at the new place
  /// (``ConfigPaths/movedCredentialsNotice(exists:)``); it is never read. With
  /// `unknownConfigKeys` lenient (the commands that only read a token), unknown keys in the
  /// config are a warning in ``warnings`` instead of an error.
  package init(
    collectingWarnings environment: Environment, quiet: Bool = false, unknownConfigKeys: UnknownConfigKeys = .strict
  ) throws {
    let paths = try ConfigPaths.resolve(environment.variables)
    let config = try Config.load(paths: paths, variables: environment.variables, unknownKeys: unknownConfigKeys)
    // Reading the user's config file (Config.readTrusted) judged its directory and every parent up
    // to `/` by R94's rule a moment ago: the store does not walk them again for credentials there.
    let judged = config.fileExisted ? FilePath.directory(of: SafeDirectory.absolute(config.file)) : nil
    // The values are moved into the workspace and read from it from here on, not copied.
    self.init(environment, paths: paths, config: config, parentsJudged: judged)
    warnings += self.config.ignoredKeysWarnings
    if let warning = self.config.loneClientSecretWarning { warnings.append(warning) }
    warnings += self.config.movedAppWarnings
    if !quiet, let notice = self.paths.movedCredentialsNotice(exists: { (try? FileSystem.linkStatus($0)) != nil }) {
      warnings.append(notice)
    }
  }

  /// A workspace with a configuration that does not come from the config file (the library's
  /// ``GitHubLoginConfiguration``).
  /// `parentsJudged`: a directory whose parents this command has just judged by R94's rule
  /// (``CredentialStore/parentsJudged``).
  package init(_ environment: Environment, paths: ConfigPaths, config: Config, parentsJudged: String? = nil) {
    self.environment = environment
    self.paths = paths
    self.config = config
    var store = CredentialStore(
      paths: paths, faults: StoreFaults.fromEnvironment(environment.variables), secrets: environment.secrets)
    store.parentsJudged = parentsJudged
    self.store = store
  }

  /// A library caller's workspace: the app and host of `configuration` (not the config file),
  /// and that app as the caller (``callerClientID``).
  package init(_ environment: Environment, paths: ConfigPaths, configuration: GitHubLoginConfiguration)
    throws(ConfigError)
  {
    self.init(environment, paths: paths, config: try configuration.config())
    callerClientID = configuration.clientID
  }
}
