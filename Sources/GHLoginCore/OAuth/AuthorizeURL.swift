/// The URL the browser opens to start a login (R14, R15, R19, R20).
enum AuthorizeURL {
  /// The path of the loopback redirect; the registered callback must be `http://127.0.0.1/callback`.
  static let callbackPath = "/callback"

  /// `http://127.0.0.1:PORT/callback`: the redirect URI for a listener on `port` (R2).
  ///
  /// Always the IPv4 literal, never `localhost`. The same string goes into the
  /// authorize URL and the token request (R20).
  static func redirectURI(port: Int) -> String {
    "http://127.0.0.1:\(port)\(callbackPath)"
  }

  /// The authorize endpoint with `response_type=code` (RFC 6749 §4.1.1 makes it required; R85),
  /// `client_id`, `redirect_uri`, `scope` (space-separated), `state`, `code_challenge`,
  /// `code_challenge_method=S256`, and `login` when given.
  ///
  /// Every name and value is percent-encoded (``FormEncoding/percentEncode(_:)``), so
  /// no value can add a parameter (R19). A query already in the configured
  /// endpoint is kept. Throws ``InsecureEndpointError`` when the endpoint is plain
  /// `http://` to a host that is not loopback.
  package static func build(
    endpoint: WebURL, app: OAuthApp, redirectURI: String, request: AuthorizationRequest, login: String? = nil
  ) throws(InsecureEndpointError) -> WebURL {
    try InsecureEndpointError.check(endpoint)
    var pairs: [(String, String)] = [
      ("response_type", "code"),
      ("client_id", app.clientID),
      ("redirect_uri", redirectURI),
    ]
    if !app.scopes.isEmpty { pairs.append(("scope", app.scopes.joined(separator: " "))) }
    pairs += [
      ("state", request.state),
      ("code_challenge", request.challenge),
      ("code_challenge_method", AuthorizationRequest.challengeMethod),
    ]
    if let login, !login.isEmpty { pairs.append(("login", login)) }
    var url = endpoint
    let query = FormEncoding.encode(pairs)
    if url.pathAndQuery.contains("?") {
      url.pathAndQuery += (url.pathAndQuery.hasSuffix("?") || url.pathAndQuery.hasSuffix("&") ? "" : "&") + query
    } else {
      url.pathAndQuery += "?" + query
    }
    return url
  }
}
