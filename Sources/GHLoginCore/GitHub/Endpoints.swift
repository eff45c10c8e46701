/// The URLs one login talks to, all bound to one host (R48, R50).
package struct Endpoints: Sendable, Hashable {
  /// Where the browser is sent (`/login/oauth/authorize`).
  package var authorize: WebURL
  /// Where codes, device codes and refresh tokens are exchanged (`/login/oauth/access_token`).
  package var token: WebURL
  /// Where the device flow starts (`/login/device/code`).
  package var deviceCode: WebURL
  /// The REST API base (`https://api.github.com`, `https://HOST/api/v3`), without a trailing path.
  package var api: WebURL

  package init(authorize: WebURL, token: WebURL, deviceCode: WebURL, api: WebURL) {
    self.authorize = authorize
    self.token = token
    self.deviceCode = deviceCode
    self.api = api
  }

  /// The built-in endpoints of `host`, with each URL the config gives replacing its default.
  ///
  /// Configured URLs are used exactly as given: the config loader has already
  /// refused plain `http://` for hosts that are not loopback. Nothing here
  /// ever comes from a server response (R48). An endpoint left out is derived from the host
  /// with the scheme of the configured ones on that host (``derivedScheme(host:given:)``).
  package init(
    host: GitHubHost, authorize: WebURL? = nil, token: WebURL? = nil, deviceCode: WebURL? = nil, api: WebURL? = nil
  ) {
    let scheme = Self.derivedScheme(host: host, given: [authorize, token, deviceCode, api].compactMap { $0 })
    let defaults = host.defaultEndpoints(scheme: scheme)
    self.init(
      authorize: authorize ?? defaults.authorize,
      token: token ?? defaults.token,
      deviceCode: deviceCode ?? defaults.deviceCode,
      api: api ?? defaults.api
    )
  }
}

extension Endpoints {
  /// The scheme of the endpoints derived for `host`: `http` when every configured endpoint on
  /// the host itself uses `http` (a loopback server: the loader allows `http://` nowhere else),
  /// else `https`. So a device-code URL left out beside `http://127.0.0.1:PORT/...` endpoints is
  /// `http://127.0.0.1:PORT/login/device/code`, not a TLS handshake with a plain server.
  static func derivedScheme(host: GitHubHost, given: [WebURL]) -> WebURL.Scheme {
    let onHost = given.filter { $0.authority == host.name }
    return !onHost.isEmpty && onHost.allSatisfy({ $0.scheme == .http }) ? .http : .https
  }
}

/// The OAuth (or GitHub App) client ghlogin logs in as.
///
/// The client secret of a distributed CLI is not confidential (R32); it is
/// still never printed: `description` hides it.
package struct OAuthApp: Sendable, Equatable, CustomStringConvertible {
  package var clientID: String
  /// Sent to the token endpoint only when configured.
  package var clientSecret: String?
  /// The scopes requested; GitHub may grant fewer (R25).
  package var scopes: [String]

  package init(clientID: String, clientSecret: String? = nil, scopes: [String] = []) {
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.scopes = scopes
  }

  package var description: String {
    "OAuthApp(clientID: \(clientID), clientSecret: \(clientSecret == nil ? "none" : "<redacted>"), scopes: \(scopes))"
  }
}

/// Refuses to send anything to a plain `http://` URL whose host is not loopback.
///
/// The config loader already enforces this; checking again where requests are
/// built means a bug elsewhere cannot send a code or token in clear text.
struct InsecureEndpointError: ReportableError, Equatable {
  package var url: WebURL
  package var message: String {
    "refusing to use \(url): plain http:// is allowed only to literal loopback addresses "
      + "(127.0.0.0/8 as four plain decimal numbers such as 127.0.0.1, or [::1]), not the name localhost; "
      + "use https://"
  }
  package var exitStatus: ExitStatus { .usage }
  package var errorKind: ErrorKind { .configuration }

  /// Throws when `url` is `http://` to a host that is not loopback.
  package static func check(_ url: WebURL) throws(InsecureEndpointError) {
    if url.scheme != .https && !url.isLoopback { throw InsecureEndpointError(url: url) }
  }
}
