/// Revokes one token at an RFC 7009 revocation endpoint (`revocation_url`, R103).
///
/// RFC 7009 §2.1: a form POST of `token` and `token_type_hint`, with the client's credentials
/// as RFC 6749 §2.3 says: HTTP Basic `client_id:client_secret` (each form-encoded first) for a
/// confidential client, `client_id` in the body for a public one (RFC 6749 §3.2.1). §2.2: HTTP
/// 200 means the token is no longer valid (revoked now, or it already was not); anything else is
/// a failure. The token goes to this URL once; a redirect is never followed.
struct TokenRevocation: Sendable {
  /// Which kind of token is sent (`token_type_hint`, RFC 7009 §2.1).
  enum Hint: String, Sendable {
    case refreshToken = "refresh_token"
    case accessToken = "access_token"
  }

  package var url: WebURL
  package var host: GitHubHost
  package var app: OAuthApp
  package var transport: any HTTPTransport
  /// Seconds each request may take.
  package var timeout: Double

  package init(url: WebURL, host: GitHubHost, app: OAuthApp, transport: any HTTPTransport, timeout: Double = 30) {
    self.url = url
    self.host = host
    self.app = app
    self.transport = transport
    self.timeout = timeout
  }

  /// Sends `token` once; returns when the server answered 200. Throws ``RevocationError``
  /// (naming the step "token revocation at revocation_url …"), a network failure as an
  /// ``EndpointRequestError``, or ``InsecureEndpointError``.
  package func revoke(_ token: String, hint: Hint) throws {
    let request = try request(token: token, hint: hint)
    let step = EndpointStep("token revocation", setting: .revocationURL, url: url)
    let response = try step.run { try transport.send(request, timeout: timeout) }
    switch response.status {
    case 200: return
    case 300...399: throw RevocationError(.redirect(response.status), host: host, step: step)
    case 401, 403: throw RevocationError(.clientRejected(response.status), host: host, step: step)
    case 400:
      throw RevocationError(.oauthError(status: 400, code: Self.errorCode(response)), host: host, step: step)
    default: throw RevocationError(.httpStatus(response.status), host: host, step: step)
    }
  }

  /// The request ``revoke(_:hint:)`` sends; the token is checked before it goes into the body (R30).
  package func request(token: String, hint: Hint) throws -> HTTPRequest {
    guard BearerToken.isUsable(token) else { throw RevocationError(.unusableToken, host: host) }
    guard !app.clientID.isEmpty else { throw RevocationError(.unusableClientID, host: host) }
    try InsecureEndpointError.check(url)
    var headers = HTTPHeaders()
    headers.add("Accept", "application/json")
    headers.add("Content-Type", "application/x-www-form-urlencoded")
    var params = [("token", token), ("token_type_hint", hint.rawValue)]
    if let secret = app.clientSecret, !secret.isEmpty {
      let pair = FormEncoding.percentEncode(app.clientID) + ":" + FormEncoding.percentEncode(secret)
      headers.add("Authorization", "Basic " + Crypto.base64(Array(pair.utf8)))
    } else {
      params.append(("client_id", app.clientID))
    }
    return HTTPRequest(method: "POST", url: url, headers: headers, body: Array(FormEncoding.encode(params).utf8))
  }

  /// The OAuth `error` code of an error answer (RFC 7009 §2.2.1), when it is a short code of
  /// `a-z` and `_` (anything else is never quoted).
  static func errorCode(_ response: HTTPResponse) -> String? {
    guard let code = (try? JSON.parse(response.body))?.objectValue?["error"]?.stringValue,
      (1...40).contains(code.utf8.count),
      code.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F })
    else { return nil }
    return code
  }
}
