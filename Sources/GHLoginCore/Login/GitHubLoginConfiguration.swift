/// An OAuth app and the GitHub host it logs in to, configured in code.
///
/// Use it when your tool ships its own OAuth app (register one at
/// `https://github.com/settings/applications/new` with the callback URL
/// `http://127.0.0.1/callback`, and tick "Enable Device Flow" for the device flow).
/// The endpoint URLs default to the host's own; set them only for a GitHub Enterprise
/// Server with unusual URLs or a test server. Plain `http://` is accepted only for literal
/// loopback addresses (127.0.0.0/8 in plain dotted decimal such as `127.0.0.1`, or `[::1]`).
public struct GitHubLoginConfiguration: Sendable, Hashable {
  /// The OAuth app's client ID.
  public var clientID: String
  /// The client secret, when the app has one; it is sent only to the token endpoint and to
  /// revoke tokens. A secret compiled into a distributed tool is not confidential.
  public var clientSecret: String?
  /// The scopes to ask for (GitHub may grant fewer); empty asks for GitHub's default.
  public var scopes: [String]
  /// The host name, for example `github.com` or `ghe.example.com` (with `:port` when not 443):
  /// the host logins are stored under and tokens are looked up for.
  ///
  /// When nil, it is the host the endpoints share, as in a config file without `"host"`: with
  /// no endpoint set, github.com; with endpoints set, the endpoints this configuration uses
  /// (the ones set and the defaults of the rest, github.com's) must all be on one host
  /// (`api_url` may be on `api.` that host), which is then the host. Otherwise
  /// ``GitHubLogin/init(configuration:credentialsFile:)`` throws a
  /// ``GitHubLoginErrorKind/configuration`` error asking for `host`: overriding only
  /// `tokenURL`, say, leaves the authorize endpoint on github.com, and a token from the other
  /// server must never be stored or sent as github.com's.
  public var host: String?
  /// The authorize endpoint (default: `https://HOST/login/oauth/authorize`).
  public var authorizeURL: String?
  /// The token endpoint (default: `https://HOST/login/oauth/access_token`).
  public var tokenURL: String?
  /// The device-code endpoint (default: `https://HOST/login/device/code`).
  public var deviceCodeURL: String?
  /// The REST API base (default: `https://api.github.com`, or `https://HOST/api/v3`).
  public var apiURL: String?
  /// A PEM file of CA certificates to trust for this host besides the system store.
  public var caFile: String?
  /// An RFC 7009 token revocation endpoint, for an OAuth server that is not GitHub: when set,
  /// ``GitHubLogin/logout(host:account:revoke:)`` revokes the refresh token and then the access
  /// token there instead of using GitHub's `DELETE /applications/{client_id}/token`.
  public var revocationURL: String?
  /// Where new logins keep their tokens: in the credentials file (the default) or in the
  /// keyring (the Secret Service on Linux), as the config key `"store"` says for `ghlogin`. With
  /// ``TokenStore/keyring``, a login checks that the keyring is reachable and unlocked before it
  /// shows a URL or a code; the credentials file then holds everything but the tokens.
  public var tokenStore: TokenStore = .file

  /// Where a login's tokens are kept (``GitHubLoginConfiguration/tokenStore``).
  public enum TokenStore: String, Sendable, Hashable, CaseIterable {
    /// In the credentials file (mode 0600).
    case file
    /// In the keyring; the credentials file keeps the rest of the login.
    case keyring
  }

  /// An app for `host` with the host's default endpoints; with `host` nil, for the host the
  /// endpoints share (github.com when none is set; see ``host``).
  public init(
    clientID: String, clientSecret: String? = nil, scopes: [String] = [], host: String? = nil,
    authorizeURL: String? = nil, tokenURL: String? = nil, deviceCodeURL: String? = nil, apiURL: String? = nil,
    caFile: String? = nil, revocationURL: String? = nil
  ) {
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.scopes = scopes
    self.host = host
    self.authorizeURL = authorizeURL
    self.tokenURL = tokenURL
    self.deviceCodeURL = deviceCodeURL
    self.apiURL = apiURL
    self.caFile = caFile
    self.revocationURL = revocationURL
  }

  /// The name messages use for this configuration where a config file would be named.
  package static let sourceName = "the GitHubLoginConfiguration"

  /// The same checks as a config file's: a valid client ID, host and URLs (`https://`, or
  /// `http://` to a literal loopback address only), and with no host, the host the endpoints
  /// share (``Config/deriveEndpointHost()``, R87), else ``ConfigError/ambiguousHost(file:endpoints:)``.
  package func config() throws(ConfigError) -> Config {
    var object = JSONObject()
    object["client_id"] = .string(clientID)
    if let clientSecret { object["client_secret"] = .string(clientSecret) }
    if !scopes.isEmpty { object["scopes"] = .array(scopes.map(JSONValue.string)) }
    if let authorizeURL { object["authorize_url"] = .string(authorizeURL) }
    if let tokenURL { object["token_url"] = .string(tokenURL) }
    if let deviceCodeURL { object["device_code_url"] = .string(deviceCodeURL) }
    if let apiURL { object["api_url"] = .string(apiURL) }
    if let caFile { object["ca_file"] = .string(caFile) }
    if let revocationURL { object["revocation_url"] = .string(revocationURL) }
    let decoder = ConfigDecoder(file: Self.sourceName)
    let settings = try decoder.settings(object, prefix: "", skipping: ["host"])
    var config = Config(file: Self.sourceName, topLevel: settings)
    if let host { config.host = try decoder.host(.string(host), "host") }
    // The config file's rule for the label (R87), through the same function.
    config.deriveEndpointHost()
    config.host = try config.endpointHost?.get() ?? config.host ?? DefaultHost.name
    config.store = tokenStore == .keyring ? .keyring : .file
    return config
  }
}
