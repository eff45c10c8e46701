/// A GitHub REST API call that failed (R24, R75, R76).
///
/// Messages name the host and never contain the token or a response body.
package struct GitHubAPIError: EndpointAnswerError, HostScopedError, Equatable {
  /// What went wrong.
  package enum Kind: Error, HostErrorKind {
    /// 401: the token is revoked or expired.
    case tokenRejected
    /// The token cannot be put into a header (R30, R74); nothing was sent.
    case unusableToken
    /// 403 or 429; `rateLimited` when the rate-limit headers say so.
    case forbidden(status: Int, rateLimited: Bool)
    /// 403 with `X-GitHub-SSO: required`: the token must be authorised for an organisation's
    /// SAML SSO; `url` (only an `https://` URL on the host: ``SSOHeader/safeURL(_:host:)``) is
    /// where.
    case ssoRequired(url: String?)
    /// Any other status that is not 2xx.
    case httpStatus(Int)
    /// A redirect to another scheme, host or port: not followed, token not sent (R75).
    case crossOriginRedirect(to: String)
    /// A redirect without a usable `Location`.
    case badRedirect
    /// More than ``GitHubAPI/maxRedirects`` redirects.
    case tooManyRedirects
    /// A body that is not JSON by `Content-Type`.
    case unexpectedContentType(String?)
    /// A JSON body without what was needed; the reason never quotes the body.
    case malformed(String)

    package var exitStatus: ExitStatus {
      switch self {
      case .tokenRejected, .unusableToken: .notLoggedIn
      default: .failure
      }
    }

    package var errorKind: ErrorKind {
      switch self {
      case .tokenRejected, .unusableToken: .tokenRejected
      case .forbidden(_, rateLimited: false), .ssoRequired: .denied
      default: .network
      }
    }
  }

  package var kind: Kind
  package var host: GitHubHost
  /// The path asked for, for example `/user`.
  package var path: String

  /// The request this answered ("identity check at api_url …"), once the caller named it.
  package var step: EndpointStep?
  /// Whether the host is known to be GitHub; elsewhere a 403 may mean a revoked token too.
  package var isGitHub = true

  package init(_ kind: Kind, host: GitHubHost, path: String, step: EndpointStep? = nil) {
    self.kind = kind
    self.host = host
    self.path = path
    self.step = step
  }

  /// Who answered, as the messages about an unusable answer start: the step when known
  /// ("identity check at api_url https://…: the server"), else the host's API.
  private func subject(_ remedies: Remedies) -> String {
    if let step { return "\(step.text(remedies)): the server" }
    return "the GitHub API of \(host)"
  }

  package var message: String { message(.words) }

  package func message(_ remedies: Remedies) -> String {
    switch kind {
    case .tokenRejected:
      return "the token for \(host) was rejected (revoked or expired); \(remedies.logIn(host: host.name))"
    case .unusableToken:
      return
        "the token for \(host) contains characters that cannot be sent in a header; \(remedies.logIn(host: host.name))"
    case .forbidden(let status, true):
      return "the GitHub API rate limit for \(host) is exhausted (HTTP \(status) for \(path)); try again later"
    case .forbidden(let status, false) where !isGitHub:
      return "\(subject(remedies)) refused \(path) (HTTP \(status)); the token may lack a permission or have been "
        + "revoked. To log in again, \(remedies.logIn(host: host.name))"
    case .forbidden(let status, false):
      return "\(subject(remedies)) refused \(path) (HTTP \(status)); the token may lack a permission or be "
        + "blocked by an organization policy"
    case .ssoRequired(let url):
      return "\(subject(remedies)) refused \(path) (HTTP 403): " + SSOHeader.advice(url: url, host: host)
    case .httpStatus(let status) where status >= 500:
      return "\(subject(remedies)) answered HTTP \(status) for \(path); try again later"
    case .httpStatus(let status):
      return
        "\(subject(remedies)) answered HTTP \(status) for \(path); check the host and \(remedies.name(.apiURL)) settings"
    case .crossOriginRedirect(let target):
      return "\(subject(remedies)) redirected \(path) to \(Sanitize.terminal(target, maxCharacters: 100)); "
        + "not followed, so the token was not sent there. Check the host and \(remedies.name(.apiURL)) settings"
    case .badRedirect:
      return
        "\(subject(remedies)) answered \(path) with a redirect \(remedies.program ?? "the library") cannot follow; check the \(remedies.name(.apiURL)) setting"
    case .tooManyRedirects:
      return "\(subject(remedies)) redirected \(path) too many times; check the \(remedies.name(.apiURL)) setting"
    case .unexpectedContentType(let type):
      let shown = type.map { "'\(Sanitize.terminal($0, maxCharacters: 80))'" } ?? "no content type"
      return
        "\(subject(remedies)) answered \(path) with \(shown), not JSON; check the host and \(remedies.name(.apiURL)) settings"
    case .malformed(let reason):
      return "\(subject(remedies)) sent an answer to \(path) that could not be read (\(reason))"
    }
  }
}
