import GHLoginCore

/// The user's GitHub login for a Swift tool: a stored token on demand, a login when there is none.
///
/// Cheap to copy and safe to share. Logins live in `ghlogin`'s credentials file, under its lock,
/// so a tool and `ghlogin` never overwrite each other's refresh. Every method throws only
/// ``GitHubLoginError``: branch on its ``GitHubLoginError/kind``.
///
/// ```swift
/// let github = try GitHubLogin()                   // the user's ghlogin configuration
/// let token = try github.token().value             // fast: a file read, refreshed when due
/// ```
public struct GitHubLogin: Sendable {
  /// Paths, configuration, store and the seams (clock, transport, streams).
  var workspace: Workspace

  /// The command your tool's users run to log in (say `"mytool login"`), named by the messages
  /// of the errors a new login fixes: "not logged in to github.com; run 'mytool login'".
  ///
  /// nil (the default): those messages say what to do in words ("log in again"). Messages never
  /// name `ghlogin` commands, since your users may not have ghlogin.
  public var loginCommand: String?

  /// How errors name their remedies (``loginCommand``).
  var remedies: Remedies { .tool(loginCommand: loginCommand) }

  /// Uses the user's ghlogin configuration (`$GHLOGIN_CONFIG`, else
  /// `$XDG_CONFIG_HOME/ghlogin/config.json`, else `~/.config/ghlogin/config.json`, plus
  /// `GHLOGIN_CLIENT_ID` and `GHLOGIN_CLIENT_SECRET`), read now.
  ///
  /// Throws a ``GitHubLoginErrorKind/configuration`` error when the file is invalid or `HOME`
  /// is unset; a missing file is fine (logging in then needs a client ID). Prints nothing: what
  /// is worth telling the user is in ``warnings``.
  public init() throws {
    try self.init(environment: .process())
  }

  /// Uses the OAuth app and host of `configuration`; logins are still stored in the user's
  /// ghlogin credentials file, or in `credentialsFile` when given (its directory is made
  /// `0700`, the file `0600`).
  ///
  /// Throws a ``GitHubLoginErrorKind/configuration`` error when `configuration` fails a config
  /// file's checks: an invalid client ID, host or URL, plain `http://` to anything but a literal
  /// loopback address, or, with no ``GitHubLoginConfiguration/host``, endpoints that are not on
  /// one host (see ``GitHubLoginConfiguration/host``).
  public init(configuration: GitHubLoginConfiguration, credentialsFile: String? = nil) throws {
    try self.init(environment: .process(), configuration: configuration, credentialsFile: credentialsFile)
  }

  /// ``init()`` in `environment`: the user's ghlogin configuration as those variables find it,
  /// with the transport, clock and browser given (for your tool's tests).
  public init(environment: GitHubLoginEnvironment) throws {
    try self.init(environment: environment.resolved())
  }

  /// ``init(configuration:credentialsFile:)`` in `environment` (for your tool's tests: a fake
  /// transport answers the token endpoint and `/user`, a fake clock runs the device flow's
  /// waits at once).
  public init(
    configuration: GitHubLoginConfiguration, credentialsFile: String? = nil, environment: GitHubLoginEnvironment
  ) throws {
    try self.init(environment: environment.resolved(), configuration: configuration, credentialsFile: credentialsFile)
  }

  /// What the configuration made worth saying, for the caller to show or log: nothing prints
  /// them. Today: that a `credentials.json` beside `$GHLOGIN_CONFIG` (where an earlier version
  /// kept logins) is not used, and how to move it. Each is a paragraph of plain text without a
  /// trailing newline; empty for ``init(configuration:credentialsFile:)``.
  public var warnings: [String] {
    workspace.warnings.map { $0.text(remedies) }
  }

  /// The user's configuration as `environment` sees it (tests' way in); prints nothing, the
  /// warnings are in ``warnings``.
  init(environment: Environment) throws(GitHubLoginError) {
    do { workspace = try Workspace(collectingWarnings: environment) } catch { throw GitHubLoginError(error) }
  }

  /// `configuration` in `environment`.
  init(
    environment: Environment, configuration: GitHubLoginConfiguration, credentialsFile: String? = nil
  ) throws {
    do {
      var paths = try ConfigPaths.resolve(environment.variables)
      if let credentialsFile {
        paths = ConfigPaths(configFile: paths.configFile, credentialsFile: credentialsFile, home: paths.home)
      }
      paths.configFile = GitHubLoginConfiguration.sourceName
      workspace = try Workspace(environment, paths: paths, configuration: configuration)
    } catch {
      throw GitHubLoginError(error)
    }
  }

  /// The default host: `GH_HOST`, else the configuration's, else the one host with logins,
  /// else github.com.
  ///
  /// Throws ``GitHubLoginError`` when no host can be chosen: a ``GitHubLoginErrorKind/configuration``
  /// error for an invalid `GH_HOST` or a config file whose endpoints are not on one host and that
  /// names no `host`, or when logins for several hosts are stored and nothing chooses one; a
  /// ``GitHubLoginErrorKind/store`` error when the credentials file cannot be read. It never
  /// falls back to github.com on an error.
  public var host: String {
    get throws {
      do {
        return try workspace.host(nil, credentials: try workspace.store.load()).name
      } catch {
        throw GitHubLoginError(error, remedies: remedies)
      }
    }
  }

  /// A token for `host` and `account` that is good for at least five more minutes.
  ///
  /// A token that expires soon is refreshed first, under the credentials lock, on a thread of
  /// its own (never the cooperative pool), and stored before it is returned. Otherwise it is a
  /// file read, so call it before each batch of requests rather than keeping the value.
  ///
  /// - Parameters:
  ///   - host: the host (default: `GH_HOST`, the configuration's host, the only host with logins).
  ///   - account: the login on that host (default: `GHLOGIN_USER`, then the active account).
  /// - Throws: ``GitHubLoginError`` with ``GitHubLoginErrorKind/notLoggedIn`` when there is no
  ///   login, ``GitHubLoginErrorKind/tokenRejected`` when the refresh token is dead.
  public func token(host: String? = nil, account: String? = nil) async throws -> AccessToken {
    let selection = AccountSelection(host: host, user: account)
    if let fresh = try freshToken(host: host, account: account) { return fresh }
    return try await DedicatedThread.run(remedies: remedies) { stopFD in
      try self.workspace.stopping(on: stopFD).accessToken(selection, remedies: remedies)
    }.get()
  }

  /// The stored token for `host` and `account` when it needs no refresh, read synchronously
  /// (a file read, or one keyring lookup); nil when a refresh is due: then call
  /// ``token(host:account:)``, which does it.
  ///
  /// For code that cannot await, such as a synchronous request builder.
  public func freshToken(host: String? = nil, account: String? = nil) throws -> AccessToken? {
    do { return try workspace.freshToken(AccountSelection(host: host, user: account)) } catch {
      throw GitHubLoginError(error, remedies: remedies)
    }
  }

  /// Refreshes the token for `host` and `account` now, whether or not it was due, and returns
  /// the new one (stored first, under the credentials lock).
  ///
  /// For a token your own checks say is bad before its expiry. Tokens that do not expire (OAuth
  /// apps' tokens) have no refresh token: that throws ``GitHubLoginErrorKind/tokenRejected``.
  public func refreshedToken(host: String? = nil, account: String? = nil) async throws
    -> AccessToken
  {
    try await DedicatedThread.run(remedies: remedies) { stopFD in
      try self.workspace.stopping(on: stopFD).refreshedToken(AccountSelection(host: host, user: account))
    }.get()
  }
}
