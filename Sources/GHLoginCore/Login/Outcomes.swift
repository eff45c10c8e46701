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
  package let gitHubExpiration: Double?

  /// `credential` on `host`, whose REST API is at `api` (``Workspace/endpoints(for:)``).
  package init(_ credential: Credential, host: String, api: WebURL, refreshWarning: String? = nil) {
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

/// Who a token belongs to, as `GET /user` says.
public struct GitHubIdentity: Sendable, Hashable {
  /// The login (control characters removed).
  public let login: String
  /// The immutable numeric account id.
  public let id: Int64
  /// The display name, when set.
  public let name: String?
  /// The public email, when set.
  public let email: String?
  /// The scopes GitHub says the token has (`X-OAuth-Scopes`); nil for GitHub App tokens.
  public let scopes: [String]?
  /// The host.
  public let host: String
  /// The `/user` JSON object exactly as GitHub sent it.
  public let rawJSON: [UInt8]

  package init(_ user: GitHubUser, host: String) {
    login = user.login
    id = user.id
    name = user.name
    email = user.email
    scopes = user.grantedScopes
    self.host = host
    rawJSON = user.rawJSON
  }
}

/// What ``GitHubLogin/logout(host:account:revoke:)`` did.
public struct LogoutOutcome: Sendable, Hashable {
  /// What became of the token at GitHub.
  public enum Revocation: Sendable, Hashable {
    /// The server confirmed the revocation (GitHub's 204; RFC 7009's 200 for the refresh token
    /// and the access token).
    case revoked
    /// GitHub no longer knew it (already revoked or expired); only on a host known to be GitHub.
    case alreadyInvalid
    /// Not asked for (`revoke: false`): the token stays valid until it expires.
    case skipped
    /// Neither a `revocationURL` nor a client secret is configured, so it could not be revoked.
    case notConfigured
    /// Nothing confirmed a revocation, for this reason (a failure, or a server that is not
    /// GitHub answering 404 to GitHub's route); the token may still be valid.
    case failed(String)
  }

  /// The host logged out of.
  public let host: String
  /// The account removed.
  public let login: String
  /// What became of the token at GitHub.
  public let revocation: Revocation
  /// Where to revoke the token by hand when it was not revoked: GitHub's page on a host known
  /// to be GitHub; nil when ghlogin knows no page (revoke it at the server that issued it).
  public let manualRevocationURL: String?
  /// Whether the account removed was the host's active one (`logout` then says which is now).
  package var wasActive = false
}
