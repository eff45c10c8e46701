/// A token endpoint of one host: sends one form POST and reads the answer (R22, R26–R31, R75).
///
/// The code exchange, the device-flow poll and the refresh all go through ``post(_:)``.
package struct TokenEndpoint: Sendable {
  /// The token URL (`https://HOST/login/oauth/access_token` or the configured one).
  package var url: WebURL
  /// The host the token is for, named in messages.
  package var host: GitHubHost
  package var transport: any HTTPTransport
  /// Seconds the whole exchange may take.
  package var timeout: Double
  /// Whether a config layer set ``url`` (`token_url`): only then does a network failure's
  /// message name the key (``EndpointRequestError/keyIsSet``).
  var urlIsConfigured = true

  package init(url: WebURL, host: GitHubHost, transport: any HTTPTransport, timeout: Double = 30) {
    self.url = url
    self.host = host
    self.transport = transport
    self.timeout = timeout
  }

  /// POSTs `params` as `application/x-www-form-urlencoded` with `Accept: application/json`,
  /// exactly once, and parses the answer with ``TokenResponse/parse(_:host:endpoint:)``.
  ///
  /// Parameters go in the body, never in the URL (R26). The request is never
  /// resent and a redirect is never followed (R22, R75): the transport sends once,
  /// and its errors are rethrown as they are. Throws ``InsecureEndpointError`` for
  /// a plain `http://` URL that is not loopback, and ``TokenError``.
  package func post(_ params: [(String, String)]) throws -> TokenResponse {
    let response = try send(params)
    return try TokenResponse.parse(response, host: host, endpoint: url)
  }

  /// The request of ``post(_:)`` without reading the answer: for endpoints whose answer is
  /// not a token (the device flow's `/login/device/code`).
  package func send(_ params: [(String, String)]) throws -> HTTPResponse {
    try InsecureEndpointError.check(url)
    var headers = HTTPHeaders()
    headers.add("Accept", "application/json")
    headers.add("Content-Type", "application/x-www-form-urlencoded")
    let request = HTTPRequest(method: "POST", url: url, headers: headers, body: Array(FormEncoding.encode(params).utf8))
    return try transport.send(request, timeout: timeout)
  }
}

/// The authorization-code grant with PKCE: trades the callback's code for a token (RFC 6749 §4.1.3, RFC 7636 §4.5).
enum TokenExchange {
  /// The form parameters of the code exchange, in the order sent.
  ///
  /// `client_secret` is included only when the app has one; `redirect_uri` is the
  /// same string the authorize URL carried (R20).
  package static func parameters(
    code: String, request: AuthorizationRequest, redirectURI: String, app: OAuthApp
  ) -> [(String, String)] {
    var params: [(String, String)] = [("client_id", app.clientID)]
    if let secret = app.clientSecret, !secret.isEmpty { params.append(("client_secret", secret)) }
    params += [
      ("code", code),
      ("redirect_uri", redirectURI),
      ("code_verifier", request.verifier),
      ("grant_type", "authorization_code"),
    ]
    return params
  }

  /// Exchanges `code` once at `endpoint` (R22); see ``TokenEndpoint/post(_:)`` for what it throws,
  /// except that a network failure comes as an ``EndpointRequestError`` naming the step, the
  /// config key and the URL.
  package static func exchange(
    code: String, request: AuthorizationRequest, redirectURI: String, app: OAuthApp, endpoint: TokenEndpoint
  ) throws -> TokenResponse {
    try EndpointRequestError.naming(step: "token exchange", setting: .tokenURL, url: endpoint.url) {
      try endpoint.post(parameters(code: code, request: request, redirectURI: redirectURI, app: app))
    }
  }
}
