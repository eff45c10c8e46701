/// A GitHub App installation token (issue 34 §1, `ghlogin app token`): the installation is found
/// with `GET /repos/{owner}/{repo}/installation`, `GET /orgs/{org}/installation` or, on a 404
/// from that, `GET /users/{username}/installation`; the token is minted with
/// `POST /app/installations/{id}/access_tokens` and a body of `repositories` (names, without the
/// owner) and `permissions`. Every request but the revocation carries the app's JWT
/// (``AppJWT``); `DELETE /installation/token` revokes a token with the token itself.
package struct InstallationTokenClient: Sendable {
  package var host: GitHubHost
  package var api: WebURL
  package var transport: any HTTPTransport
  /// Seconds each request may take.
  package var timeout: Double

  package init(host: GitHubHost, api: WebURL, transport: any HTTPTransport, timeout: Double = 30) {
    self.host = host
    self.api = api
    self.transport = transport
    self.timeout = timeout
  }

  /// Whose installation to find.
  package enum Target: Sendable, Equatable {
    /// The installation that covers `owner/name`.
    case repository(owner: String, name: String)
    /// The installation on an organisation's or user's account.
    case account(String)
  }

  /// The installation ID of the app on `target`: for an account, the organisation's, else (on a
  /// 404) the user's.
  package func installation(for target: Target, jwt: String, now: Double) throws -> Int64 {
    switch target {
    case .repository(let owner, let name):
      return try lookUp(
        "repos/\(FormEncoding.percentEncode(owner))/\(FormEncoding.percentEncode(name))/installation", jwt: jwt,
        now: now, notFound: .noInstallation("\(owner)/\(name)"))
    case .account(let owner):
      do {
        return try lookUp(
          "orgs/\(FormEncoding.percentEncode(owner))/installation", jwt: jwt, now: now,
          notFound: .noInstallation(owner))
      } catch let error as InstallationTokenError where error.kind == .noInstallation(owner) {
        return try lookUp(
          "users/\(FormEncoding.percentEncode(owner))/installation", jwt: jwt, now: now,
          notFound: .noInstallation(owner))
      }
    }
  }

  private func lookUp(
    _ path: String, jwt: String, now: Double, notFound: InstallationTokenError.Kind
  ) throws -> Int64 {
    let url = api.appending(path: path)
    try InsecureEndpointError.check(url)
    let request = HTTPRequest(method: "GET", url: url, headers: headers(bearer: jwt))
    let step = EndpointStep("installation lookup", setting: .apiURL, url: url)
    return try step.run {
      let response = try transport.send(request, timeout: timeout)
      guard response.status == 200 else {
        if response.status == 404 { throw InstallationTokenError(notFound, host: host) }
        throw error(for: response, now: now)
      }
      guard let object = try? JSON.parse(response.body).objectValue, case .number(let text)? = object["id"],
        let id = Int64(text), id > 0
      else {
        throw InstallationTokenError(.malformed("the installation has no id"), host: host)
      }
      return id
    }
  }

  /// Mints a token of installation `id`, narrowed to `repositories` (names without the owner;
  /// nil: the installation's) and `permissions` (empty: the installation's). The answer is read
  /// into a ``ScopedTokenAnswer`` for R113's check.
  package func mint(
    installation id: Int64, jwt: String, repositories: [String]?, permissions: [String: String], now: Double
  ) throws -> ScopedTokenAnswer {
    let url = api.appending(path: "app/installations/\(id)/access_tokens")
    try InsecureEndpointError.check(url)
    var body = JSONObject()
    if let repositories { body.append(key: "repositories", value: .array(repositories.map { .string($0) })) }
    if !permissions.isEmpty {
      var levels = JSONObject()
      for name in permissions.keys.sorted() { levels.append(key: name, value: .string(permissions[name] ?? "")) }
      body.append(key: "permissions", value: .object(levels))
    }
    var headers = headers(bearer: jwt)
    headers.add("Content-Type", "application/json")
    let request = HTTPRequest(
      method: "POST", url: url, headers: headers, body: Array(JSON.serialize(.object(body)).utf8))
    let step = EndpointStep("installation token request", setting: .apiURL, url: url)
    return try step.run {
      let response = try transport.send(request, timeout: timeout)
      guard response.status == 201 || response.status == 200 else {
        if response.status == 404 { throw InstallationTokenError(.noInstallation("installation \(id)"), host: host) }
        if response.status == 422 {
          throw InstallationTokenError(.refused(ScopedTokenClient.gitHubMessage(response.body)), host: host)
        }
        throw error(for: response, now: now)
      }
      do throws(ScopedTokenError.Kind) {
        return try Self.parse(response.body)
      } catch {
        throw InstallationTokenError(.malformed(Self.reason(error)), host: host)
      }
    }
  }

  /// Revokes the installation token `token` (`DELETE /installation/token`, 204).
  package func revoke(token: String) throws {
    guard BearerToken.isUsable(token) else { throw InstallationTokenError(.malformed("an unusable token"), host: host) }
    let url = api.appending(path: "installation/token")
    try InsecureEndpointError.check(url)
    let step = EndpointStep("installation token revocation", setting: .apiURL, url: url)
    try step.run {
      let response = try transport.send(
        HTTPRequest(method: "DELETE", url: url, headers: headers(bearer: token)), timeout: timeout)
      guard response.status == 204 || response.status == 200 else {
        throw InstallationTokenError(.httpStatus(response.status), host: host)
      }
    }
  }

  private func headers(bearer: String) -> HTTPHeaders {
    var headers = HTTPHeaders()
    headers.add("Accept", "application/vnd.github+json")
    headers.add("Authorization", "Bearer \(bearer)")
    headers.add("X-GitHub-Api-Version", GitHubAPI.apiVersion)
    return headers
  }

  private func error(for response: HTTPResponse, now: Double) -> InstallationTokenError {
    switch response.status {
    case 401: return InstallationTokenError(.jwtRejected(ScopedTokenClient.gitHubMessage(response.body)), host: host)
    case 403, 429:
      if let wait = ScopedTokenClient.rateLimitWait(response, now: now) {
        return InstallationTokenError(.rateLimited(status: response.status, wait: wait), host: host)
      }
      return InstallationTokenError(.forbidden(response.status), host: host)
    case 300...399: return InstallationTokenError(.redirect(response.status), host: host)
    default: return InstallationTokenError(.httpStatus(response.status), host: host)
    }
  }

  /// The answer to `access_tokens`: `token`, `expires_at`, `permissions`,
  /// `repository_selection` and `repositories` at the top level.
  static func parse(_ body: [UInt8]) throws(ScopedTokenError.Kind) -> ScopedTokenAnswer {
    guard let object = try? JSON.parse(body).objectValue else { throw .malformed("the answer is not a JSON object") }
    var wrapped = JSONObject()
    var installation = JSONObject()
    for key in ["permissions", "repository_selection", "repositories"] {
      if let value = object[key] { installation.append(key: key, value: value) }
    }
    for (key, value) in object.entries where key == "token" || key == "expires_at" {
      wrapped.append(key: key, value: value)
    }
    wrapped.append(key: "installation", value: .object(installation))
    return try ScopedTokenAnswer.parse(Array(JSON.serialize(.object(wrapped)).utf8))
  }

  private static func reason(_ kind: ScopedTokenError.Kind) -> String {
    if case .malformed(let reason) = kind { return reason }
    return "unreadable"
  }
}

/// An installation lookup or token request GitHub did not answer as documented. Messages name the
/// host and the status, never the JWT, a token or a response body (GitHub's `message` is quoted
/// sanitised).
package struct InstallationTokenError: EndpointAnswerError, HostScopedError, Equatable {
  package enum Kind: Error, HostErrorKind {
    /// 404: the app is not installed there (an account, `OWNER/NAME` or `installation ID`).
    case noInstallation(String)
    /// 401: the JWT was refused (a wrong key, a wrong app, a clock far off).
    case jwtRejected(String?)
    /// 422: GitHub refused the repositories or permissions asked for.
    case refused(String?)
    case rateLimited(status: Int, wait: Double)
    case forbidden(Int)
    case redirect(Int)
    case httpStatus(Int)
    case malformed(String)

    package var exitStatus: ExitStatus {
      switch self {
      case .jwtRejected: .usage
      default: .failure
      }
    }

    package var errorKind: ErrorKind {
      switch self {
      case .jwtRejected: .configuration
      case .noInstallation, .refused, .forbidden: .denied
      default: .network
      }
    }
  }

  package var kind: Kind
  package var host: GitHubHost
  package var step: EndpointStep?

  package init(_ kind: Kind, host: GitHubHost, step: EndpointStep? = nil) {
    self.kind = kind
    self.host = host
    self.step = step
  }

  private var subject: String { step.map { "\($0): \(host)" } ?? "\(host)" }

  package var message: String {
    func said(_ text: String?) -> String {
      text.map { " (GitHub said: \(Sanitize.terminal($0, maxCharacters: 200)))" } ?? ""
    }
    switch kind {
    case .noInstallation(let what):
      return "\(subject) answered HTTP 404: the app is not installed on \(Sanitize.terminal(what)) "
        + "(or the app cannot see it); install the app there, or name the installation by its ID"
    case .jwtRejected(let text):
      return "\(subject) refused the app's JWT (HTTP 401)\(said(text)): check that the app named is this one "
        + "(its client ID or app ID) and that the key is its current private key, and the system clock"
    case .refused(let text):
      return "\(subject) refused the installation token request (HTTP 422)\(said(text)): the installation "
        + "may not cover those repositories or have those permissions"
    case .rateLimited(let status, let wait):
      return "\(subject) answered HTTP \(status): GitHub's rate limit is exhausted; try again in "
        + DurationText.spoken(wait)
    case .forbidden(let status):
      return "\(subject) refused the request (HTTP \(status))"
    case .redirect(let status):
      return "\(subject) answered with a redirect (HTTP \(status)), which is not followed; check the api_url setting"
    case .httpStatus(let status) where status >= 500:
      return "\(subject) answered HTTP \(status); try again later"
    case .httpStatus(let status):
      return "\(subject) answered HTTP \(status); check the host and api_url settings"
    case .malformed(let reason):
      return "\(subject) sent an answer that could not be read (\(reason))"
    }
  }
}
