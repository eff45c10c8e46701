/// The user's GitHub login, for a Swift tool: a stored token on demand, and a browser or
/// device login when there is none.
///
/// A value holds the configuration and where the credentials live; it is cheap to copy and
/// safe to share between tasks. Logins are stored in the same credentials file `ghlogin`
/// uses (`$GHLOGIN_CREDENTIALS`, else `$XDG_CONFIG_HOME/ghlogin/credentials.json`, else
/// `~/.config/ghlogin/credentials.json`; never beside a config named by `$GHLOGIN_CONFIG`),
/// under the same lock, so a tool and the `ghlogin` command never overwrite each other's refresh.
///
/// Every method throws only ``GitHubLoginError``: catch it with
/// `catch let error as GitHubLoginError` and branch on its ``GitHubLoginError/kind``.
///
/// ```swift
/// let github = try GitHubLogin()                   // the user's ghlogin configuration
/// let token = try github.token().value             // fast: a file read, refreshed when due
/// ```
public struct GitHubLogin: Sendable {
  /// Paths, configuration, store and the seams (clock, transport, streams).
  let workspace: Workspace

  /// Uses the user's ghlogin configuration (`$GHLOGIN_CONFIG`, else
  /// `$XDG_CONFIG_HOME/ghlogin/config.json`, else `~/.config/ghlogin/config.json`, plus
  /// `GHLOGIN_CLIENT_ID` and `GHLOGIN_CLIENT_SECRET`), read now.
  ///
  /// Throws a ``GitHubLoginError/Kind/configuration`` error when the file is invalid or `HOME`
  /// is unset; a missing file is fine (logging in then needs a client ID). Prints nothing: what
  /// is worth telling the user is in ``warnings``.
  public init() throws {
    try self.init(environment: .process())
  }

  /// Uses the OAuth app and host of `configuration`; logins are still stored in the user's
  /// ghlogin credentials file, or in `credentialsFile` when given (its directory is made
  /// `0700`, the file `0600`).
  ///
  /// Throws a ``GitHubLoginError/Kind/configuration`` error when `configuration` fails a config
  /// file's checks: an invalid client ID, host or URL, plain `http://` to anything but a literal
  /// loopback address, or, with no ``GitHubLoginConfiguration/host``, endpoints that are not on
  /// one host (see ``GitHubLoginConfiguration/host``).
  public init(configuration: GitHubLoginConfiguration, credentialsFile: String? = nil) throws {
    try self.init(environment: .process(), configuration: configuration, credentialsFile: credentialsFile)
  }

  /// What the configuration made worth saying, for the caller to show or log: nothing prints
  /// them. Today: that a `credentials.json` beside `$GHLOGIN_CONFIG` (where an earlier version
  /// kept logins) is not used, and how to move it. Each is a paragraph of plain text without a
  /// trailing newline; empty for ``init(configuration:credentialsFile:)``.
  public var warnings: [String] {
    workspace.warnings.map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }
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
      workspace = Workspace(environment, paths: paths, config: try configuration.config())
    } catch {
      throw GitHubLoginError(error)
    }
  }

  /// Wraps an existing workspace (the commands build one).
  init(workspace: Workspace) { self.workspace = workspace }

  /// The default host: `GH_HOST`, else the configuration's, else the one host with logins,
  /// else github.com.
  ///
  /// Throws ``GitHubLoginError`` when no host can be chosen: a ``GitHubLoginError/Kind/configuration``
  /// error for an invalid `GH_HOST` or a config file whose endpoints are not on one host and that
  /// names no `host`, or when logins for several hosts are stored and nothing chooses one; a
  /// ``GitHubLoginError/Kind/store`` error when the credentials file cannot be read. It never
  /// falls back to github.com on an error.
  public var host: String {
    get throws {
      do {
        return try workspace.host(nil, credentials: try workspace.store.load()).name
      } catch {
        throw GitHubLoginError(error)
      }
    }
  }

  /// A token for `host` and `account` that is good for at least five more minutes.
  ///
  /// Reads the credentials file; a token that expires soon (GitHub App user tokens) is
  /// refreshed first, under the credentials lock, and the new one is stored before it is
  /// returned. Synchronous and cheap in the common case (no network, no lock); call it
  /// before each batch of requests rather than keeping the value.
  ///
  /// - Parameters:
  ///   - host: the host (default: `GH_HOST`, the configuration's host, the only host with logins).
  ///   - account: the login on that host (default: `GHLOGIN_USER`, then the active account).
  /// - Throws: ``GitHubLoginError`` with ``GitHubLoginError/Kind/notLoggedIn`` when there is no
  ///   login, ``GitHubLoginError/Kind/tokenRejected`` when the refresh token is dead.
  public func token(host: String? = nil, account: String? = nil) throws -> AccessToken {
    do {
      let usable = try workspace.usableCredentialReport(AccountSelection(host: host, user: account))
      return AccessToken(
        usable.credential, host: usable.host.name, api: workspace.endpoints(for: usable.host).api,
        refreshWarning: usable.warning)
    } catch {
      throw GitHubLoginError(error)
    }
  }
}

/// A stored token, ready to send as `Authorization: Bearer …`.
///
/// `description` never shows the token itself.
public struct AccessToken: Sendable, Hashable, CustomStringConvertible {
  /// The token.
  public let value: String
  /// The host it is for.
  public let host: String
  /// The REST API base URL for ``host``, without a trailing slash: append a path such as
  /// `/user` to it. `https://api.github.com` for github.com, `https://api.SUBDOMAIN.ghe.com`
  /// for GitHub Enterprise Cloud with data residency, `https://HOST/api/v3` for GitHub
  /// Enterprise Server, or the configured `api_url` (``GitHubLoginConfiguration/apiURL``): the
  /// URL the library itself calls for this host.
  public let apiURL: String
  /// The account it belongs to.
  public let login: String
  /// The account's numeric id (it stays the same when the login is renamed).
  public let userID: Int64
  /// The scopes granted, when GitHub said.
  public let scopes: [String]
  /// When it expires (seconds since 1970), for expiring tokens; nil when it does not expire.
  public let expiresAt: Double?
  /// Set when a due refresh failed but the current token is still valid and was returned:
  /// the reason, for a warning.
  public let refreshWarning: String?
  /// GitHub's expiry of the token (``Credential/gitHubExpiration``), for `token`'s warning.
  let gitHubExpiration: Double?

  /// `credential` on `host`, whose REST API is at `api` (``Workspace/endpoints(for:)``).
  init(_ credential: Credential, host: String, api: WebURL, refreshWarning: String? = nil) {
    value = credential.token
    self.host = host
    let base = api.description
    apiURL = base.hasSuffix("/") ? String(base.dropLast()) : base
    login = credential.login
    userID = credential.userID
    scopes = credential.scopes
    expiresAt = credential.expiresAt
    self.refreshWarning = refreshWarning
    gitHubExpiration = credential.gitHubExpiration
  }

  /// `AccessToken(LOGIN on HOST)`, without the token.
  public var description: String { "AccessToken(\(login) on \(host))" }
}
