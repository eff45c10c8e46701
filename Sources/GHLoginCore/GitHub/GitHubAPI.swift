/// The GitHub REST API of one host, called with a user's token (R24, R75, R76).
package struct GitHubAPI: Sendable {
  /// The API version pinned in `X-GitHub-Api-Version`.
  static let apiVersion = "2022-11-28"
  /// The most same-origin redirects followed for one call.
  static let maxRedirects = 3

  package var host: GitHubHost
  /// The API base: `https://api.github.com`, `https://HOST/api/v3`, or the configured one.
  package var base: WebURL
  package var transport: any HTTPTransport
  /// Seconds each request may take.
  package var timeout: Double
  /// Whether the host is known to be GitHub (``Workspace/isKnownGitHub(_:)``): a 403 elsewhere
  /// (django-oauth-toolkit answers 403 for a revoked token) may also mean a revoked token.
  package var isGitHub = true

  package init(host: GitHubHost, base: WebURL, transport: any HTTPTransport, timeout: Double = 30) {
    self.host = host
    self.base = base
    self.transport = transport
    self.timeout = timeout
  }

  /// The account `token` belongs to: `GET {api}/user` (R24).
  ///
  /// Throws ``GitHubAPIError`` (401 → token rejected, exit 4), ``InsecureEndpointError``,
  /// or a network failure as an ``EndpointRequestError`` ("identity check at api_url https://…: …").
  package func user(token: String) throws -> GitHubUser {
    let path = "/user"
    return try EndpointStep("identity check", setting: .apiURL, url: base).run {
      let response = try get(path, token: token)
      guard let type = response.mediaType, type == "application/json" || type.hasSuffix("+json") else {
        throw GitHubAPIError(.unexpectedContentType(response.mediaType), host: host, path: path)
      }
      do throws(GitHubAPIError.Kind) {
        var user = try GitHubUser.parse(response.body, scopesHeader: response.headers.values(for: "X-OAuth-Scopes"))
        user.tokenExpiration = Self.tokenExpiration(of: response)
        return user
      } catch {
        throw GitHubAPIError(error, host: host, path: path)
      }
    }
  }

  /// What `GET /user/orgs` says about organisation SSO: how many organisations the token is not
  /// authorised for (`X-GitHub-SSO: partial-results; organizations=…`; 0 without the header).
  package func unauthorizedOrganizations(token: String) throws -> Int {
    let path = "/user/orgs"
    return try EndpointStep("organisation list", setting: .apiURL, url: base).run {
      let response = try get(path, token: token)
      guard let value = response.headers[SSOHeader.name],
        case .partialResults(let ids)? = SSOHeader.parse(value, host: host)
      else { return 0 }
      return ids.count
    }
  }

  /// GitHub's expiry of the token (``TokenExpirationHeader``), when `response` carries a valid one.
  package static func tokenExpiration(of response: HTTPResponse) -> Double? {
    response.headers[TokenExpirationHeader.name].flatMap(TokenExpirationHeader.parse)
  }

  /// `GET {api}{path}` with the token, following up to ``maxRedirects`` redirects
  /// only within the same scheme, host and port (R75); returns the 2xx response.
  ///
  /// Sends `Authorization: Bearer`, `Accept: application/vnd.github+json`,
  /// and `X-GitHub-Api-Version`; the transport adds `User-Agent: ghlogin/VERSION` (R76). The token is
  /// checked before it goes into a header (R74). A redirect elsewhere is an error
  /// and nothing is sent there.
  package func get(_ path: String, token: String) throws -> HTTPResponse {
    guard BearerToken.isUsable(token) else { throw GitHubAPIError(.unusableToken, host: host, path: path) }
    try InsecureEndpointError.check(base)
    var url = base.appending(path: path)
    var headers = HTTPHeaders()
    headers.add("Accept", "application/vnd.github+json")
    headers.add("Authorization", "Bearer \(token)")
    headers.add("X-GitHub-Api-Version", Self.apiVersion)
    var redirects = 0
    while true {
      let response = try transport.send(HTTPRequest(method: "GET", url: url, headers: headers), timeout: timeout)
      switch response.status {
      case 200...299:
        return response
      case 301, 302, 303, 307, 308:
        redirects += 1
        guard redirects <= Self.maxRedirects else { throw GitHubAPIError(.tooManyRedirects, host: host, path: path) }
        url = try sameOriginTarget(of: response, from: url, path: path)
      case 401:
        throw GitHubAPIError(.tokenRejected, host: host, path: path)
      case 403, 429:
        if response.status == 403,
          case .required(let ssoURL)? = response.headers[SSOHeader.name].flatMap({ SSOHeader.parse($0, host: host) })
        {
          throw GitHubAPIError(.ssoRequired(url: ssoURL), host: host, path: path)
        }
        let limited = response.headers["x-ratelimit-remaining"] == "0" || response.headers["retry-after"] != nil
        var error = GitHubAPIError(
          .forbidden(status: response.status, rateLimited: limited || response.status == 429), host: host, path: path)
        error.isGitHub = isGitHub
        throw error
      default:
        throw GitHubAPIError(.httpStatus(response.status), host: host, path: path)
      }
    }
  }

  /// The URL a redirect's `Location` names, when it has the same scheme, host and port as `current`.
  ///
  /// Understands an absolute URL, a scheme-relative `//host/...` and an absolute
  /// path `/...`; anything else is a ``GitHubAPIError/Kind/badRedirect``.
  private func sameOriginTarget(of response: HTTPResponse, from current: WebURL, path: String) throws -> WebURL {
    guard let location = response.headers["Location"], !location.isEmpty else {
      throw GitHubAPIError(.badRedirect, host: host, path: path)
    }
    let target: WebURL
    do {
      if location.hasPrefix("//") {
        target = try WebURL(parsing: current.scheme.rawValue + ":" + location)
      } else if location.hasPrefix("/") {
        target = try WebURL(parsing: "\(current.scheme.rawValue)://\(current.authority)\(location)")
      } else {
        target = try WebURL(parsing: location)
      }
    } catch {
      throw GitHubAPIError(.badRedirect, host: host, path: path)
    }
    guard target.scheme == current.scheme, target.host == current.host, target.port == current.port else {
      throw GitHubAPIError(
        .crossOriginRedirect(to: "\(target.scheme.rawValue)://\(target.authority)"), host: host, path: path)
    }
    return target
  }
}
