/// Revokes one token at GitHub: `DELETE {api}/applications/{client_id}/token` (R45, R46).
///
/// GitHub's "Delete an app token" (`apps/delete-token`): HTTP Basic `client_id:client_secret`
/// and the JSON body `{"access_token": TOKEN}`. The token goes only to the configured API of its
/// own host, once; a redirect is never followed (R46, R75).
struct Revocation: Sendable {
  package var host: GitHubHost
  /// The API base of `host` (`https://api.github.com`, `https://HOST/api/v3`, or configured).
  package var api: WebURL
  package var clientID: String
  package var clientSecret: String
  package var transport: any HTTPTransport
  /// Seconds the request may take.
  package var timeout: Double
  /// Whether `host` is known to be GitHub (github.com, `*.ghe.com`, or an Enterprise Server whose
  /// endpoints ghlogin derives itself): only then does a 404 mean GitHub no longer knows the
  /// token. Elsewhere a 404 says the server has no such route, and nothing was revoked (R103).
  package var isGitHub: Bool

  package init(
    host: GitHubHost, api: WebURL, clientID: String, clientSecret: String, transport: any HTTPTransport,
    timeout: Double = 30, isGitHub: Bool = true
  ) {
    self.isGitHub = isGitHub
    self.host = host
    self.api = api
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.transport = transport
    self.timeout = timeout
  }

  /// How a revocation ended when it did not fail.
  package enum Outcome: Sendable, Equatable {
    /// 204: GitHub revoked the token (and any refresh token that came with it).
    case revoked
    /// 404 from a host known to be GitHub: GitHub does not know the token (already revoked,
    /// expired, or another app's); it cannot be used either way.
    case alreadyInvalid
  }

  /// Sends the request once and reads the status; throws ``RevocationError``, a network
  /// failure as an ``EndpointRequestError`` ("token revocation at api_url https://…: …"),
  /// or ``InsecureEndpointError`` for plain `http://`.
  package func revoke(token: String) throws -> Outcome {
    let request = try request(token: token)
    let step = EndpointStep("token revocation", setting: .apiURL, url: api)
    let response = try step.run { try transport.send(request, timeout: timeout) }
    switch response.status {
    case 204, 200: return .revoked
    case 404 where isGitHub: return .alreadyInvalid
    case 404: throw RevocationError(.notOffered, host: host, step: step)
    case 300...399: throw RevocationError(.redirect(response.status), host: host, step: step)
    case 401, 403: throw RevocationError(.clientRejected(response.status), host: host, step: step)
    case 422: throw RevocationError(.validationFailed, host: host, step: step)
    default: throw RevocationError(.httpStatus(response.status), host: host, step: step)
    }
  }

  /// The request ``revoke(token:)`` sends.
  ///
  /// The token is checked before it goes into the body (R30), and a client ID containing `:`
  /// is refused: Basic authentication could not carry it (RFC 7617 §2).
  package func request(token: String) throws -> HTTPRequest {
    guard BearerToken.isUsable(token) else { throw RevocationError(.unusableToken, host: host) }
    guard !clientID.isEmpty, !clientID.contains(":") else { throw RevocationError(.unusableClientID, host: host) }
    try InsecureEndpointError.check(api)
    let url = api.appending(path: "applications/\(FormEncoding.percentEncode(clientID))/token")
    var headers = HTTPHeaders()
    headers.add("Accept", "application/vnd.github+json")
    headers.add("Authorization", "Basic " + Crypto.base64(Array("\(clientID):\(clientSecret)".utf8)))
    headers.add("Content-Type", "application/json")
    headers.add("X-GitHub-Api-Version", GitHubAPI.apiVersion)
    let body: JSONValue = ["access_token": .string(token)]
    return HTTPRequest(method: "DELETE", url: url, headers: headers, body: Array(JSON.serialize(body).utf8))
  }

  /// The page where a user revokes an OAuth app's access by hand (R46):
  /// `https://HOST/settings/connections/applications/CLIENT_ID`, or the list of authorized
  /// apps when the client ID is unknown.
  package static func manualRevocationURL(host: GitHubHost, clientID: String?) -> String {
    guard let clientID, !clientID.isEmpty else { return "https://\(host.name)/settings/applications" }
    return "https://\(host.name)/settings/connections/applications/\(FormEncoding.percentEncode(clientID))"
  }
}

/// A revocation that confirmed nothing: a server that did not accept it, or a token that could
/// not be sent.
///
/// Messages name the host and the status, never the token, the secret or a response body; the
/// settings they name are said in the voice of whoever shows them (``message(_:)``): the command
/// line's config keys, a tool's configuration properties.
package struct RevocationError: EndpointAnswerError, HostScopedError, Equatable {
  package enum Kind: HostErrorKind {
    /// 401 or 403: GitHub refused the client ID and secret.
    case clientRejected(Int)
    /// 422: GitHub found the request invalid.
    case validationFailed
    /// Any other status that is not success.
    case httpStatus(Int)
    /// A 3xx, which is never followed with a token in the body.
    case redirect(Int)
    /// A 404 to GitHub's route from a server not known to be GitHub: it has no such route, so
    /// nothing was revoked (R103).
    case notOffered
    /// An RFC 7009 error answer (`status`, and the OAuth `error` code when it is a plain code).
    case oauthError(status: Int, code: String?)
    /// The token cannot be sent (R30); nothing was sent.
    case unusableToken
    /// The client ID is empty or contains `:`; nothing was sent.
    case unusableClientID
    /// The login was issued to another OAuth app (`issuer`) than the configured one
    /// (`configured`), whose credentials cannot revoke it; nothing was sent.
    case otherApp(issuer: String, configured: String)
    /// The login's token is missing from the keyring; nothing was sent.
    case tokenMissing

    package var exitStatus: ExitStatus { .failure }

    package var errorKind: ErrorKind {
      switch self {
      case .clientRejected, .unusableClientID, .notOffered, .otherApp: .configuration
      case .unusableToken: .tokenRejected
      case .tokenMissing: .store
      default: .network
      }
    }
  }

  package var kind: Kind
  package var host: GitHubHost
  /// The request this answered ("token revocation at api_url …"), once the caller named it.
  package var step: EndpointStep?

  package init(_ kind: Kind, host: GitHubHost, step: EndpointStep? = nil) {
    self.kind = kind
    self.host = host
    self.step = step
  }

  /// How ``Kind/notOffered``'s message ends, its setting named as `remedies` names it: `logout`
  /// follows it with the exact `config set` line.
  package static func notOfferedAdvice(_ remedies: Remedies) -> String {
    "for a server with an RFC 7009 revocation endpoint, set \(remedies.name(.revocationURL))"
  }

  package var message: String { message(.words) }

  package func message(_ remedies: Remedies) -> String {
    // Who answered: "token revocation at api_url https://…: HOST" when the step is known.
    let subject = step.map { "\($0.text(remedies)): \(host)" } ?? "\(host)"
    // The setting of the URL the request went to.
    let setting = remedies.name(step?.setting ?? .apiURL)
    switch kind {
    case .clientRejected(let status):
      let (id, secret) = (remedies.name(.clientID), remedies.name(.clientSecret))
      return "\(subject) refused the \(id) and \(secret) (HTTP \(status)); check them in the config"
    case .validationFailed:
      return "\(subject) refused the revocation request as invalid (HTTP 422)"
    case .httpStatus(let status) where status >= 500:
      return "\(subject) answered HTTP \(status); try again later"
    case .httpStatus(let status):
      return "\(subject) answered HTTP \(status); check the host and \(setting) settings"
    case .redirect(let status):
      return "\(subject) answered with a redirect (HTTP \(status)), which is not followed with a token; "
        + "check the \(setting) setting"
    case .notOffered:
      return "\(subject) answered HTTP 404: it does not offer GitHub's token revocation; "
        + Self.notOfferedAdvice(remedies)
    case .oauthError(let status, let code?):
      return "\(subject) refused the revocation (HTTP \(status), \(code))"
    case .oauthError(let status, nil):
      return "\(subject) refused the revocation (HTTP \(status)); check the \(setting) setting"
    case .unusableToken:
      return "the stored token contains characters that cannot be sent"
    case .unusableClientID:
      return "the \(remedies.name(.clientID)) is empty or contains ':', which HTTP Basic authentication cannot carry"
    case .otherApp(let issuer, let configured):
      return "it was issued to another OAuth app (client ID \(Sanitize.terminal(issuer))) than the configured one "
        + "(\(Sanitize.terminal(configured))), which cannot revoke it"
    case .tokenMissing:
      return "its token is missing from the keyring"
    }
  }
}
