/// GitHub's "Create a scoped access token" (`apps/scope-token`):
/// `POST {api}/applications/{client_id}/token/scoped`, HTTP Basic `client_id:client_secret`, and
/// the JSON body `access_token`, `target`, `repositories`, `permissions` (issue 34 §1, §2).
///
/// Only a GitHub App's user token can be narrowed; GitHub answers 404 or 422 for any other
/// (whether a token is one is learned from that answer, never from its prefix: R30). What comes
/// back is checked by ``ScopedTokenAnswer/problem(for:repositories:)`` (R113).
package struct ScopedTokenClient: Sendable {
  package var host: GitHubHost
  /// The API base of `host` (`https://api.github.com`, `https://HOST/api/v3`, or configured).
  package var api: WebURL
  package var clientID: String
  package var clientSecret: String
  package var transport: any HTTPTransport
  /// Seconds each request may take.
  package var timeout: Double
  /// The most pages of `repositories_url` read (100 repositories a page; 500 may be asked).
  static let maximumPages = 10

  package init(
    host: GitHubHost, api: WebURL, clientID: String, clientSecret: String, transport: any HTTPTransport,
    timeout: Double = 30
  ) {
    self.host = host
    self.api = api
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.transport = transport
    self.timeout = timeout
  }

  /// Asks GitHub for a token narrowed to `narrowing` from the user token `token`, once; a
  /// redirect is never followed. `now` (seconds since the epoch) turns `X-RateLimit-Reset` into
  /// a wait. Throws ``ScopedTokenError``, a network failure as an ``EndpointRequestError``
  /// ("scoped token request at api_url https://…: …"), or ``InsecureEndpointError``.
  package func mint(token: String, narrowing: Narrowing, now: Double) throws -> ScopedTokenAnswer {
    let request = try request(token: token, narrowing: narrowing)
    let step = EndpointStep("scoped token request", setting: .apiURL, url: api)
    return try step.run {
      let response = try transport.send(request, timeout: timeout)
      switch response.status {
      case 200, 201:
        do throws(ScopedTokenError.Kind) {
          return try ScopedTokenAnswer.parse(response.body)
        } catch {
          throw ScopedTokenError(error, host: host)
        }
      case 404: throw ScopedTokenError(.notAppUserToken(404), host: host)
      case 422: throw ScopedTokenError(.refused(Self.gitHubMessage(response.body)), host: host)
      case 401: throw ScopedTokenError(.clientRejected(401), host: host)
      case 403, 429:
        if let wait = Self.rateLimitWait(response, now: now) {
          throw ScopedTokenError(.rateLimited(status: response.status, wait: wait), host: host)
        }
        throw ScopedTokenError(.forbidden(response.status), host: host)
      case 300...399: throw ScopedTokenError(.redirect(response.status), host: host)
      default: throw ScopedTokenError(.httpStatus(response.status), host: host)
      }
    }
  }

  /// The request ``mint(token:narrowing:now:)`` sends. The token is checked before it goes into
  /// the body (R30); a client ID containing `:` cannot be carried by Basic authentication.
  package func request(token: String, narrowing: Narrowing) throws -> HTTPRequest {
    guard BearerToken.isUsable(token) else { throw ScopedTokenError(.unusableToken, host: host) }
    guard !clientID.isEmpty, !clientID.contains(":") else { throw ScopedTokenError(.unusableClientID, host: host) }
    try InsecureEndpointError.check(api)
    let url = api.appending(path: "applications/\(FormEncoding.percentEncode(clientID))/token/scoped")
    var headers = HTTPHeaders()
    headers.add("Accept", "application/vnd.github+json")
    headers.add("Authorization", "Basic " + Crypto.base64(Array("\(clientID):\(clientSecret)".utf8)))
    headers.add("Content-Type", "application/json")
    headers.add("X-GitHub-Api-Version", GitHubAPI.apiVersion)
    var body = JSONObject()
    body.append(key: "access_token", value: .string(token))
    body.append(key: "target", value: .string(narrowing.owner))
    body.append(key: "repositories", value: .array(narrowing.repositories.map { .string($0) }))
    if !narrowing.permissions.isEmpty {
      var permissions = JSONObject()
      for name in narrowing.permissions.keys.sorted() {
        permissions.append(key: name, value: .string(narrowing.permissions[name] ?? ""))
      }
      body.append(key: "permissions", value: .object(permissions))
    }
    return HTTPRequest(method: "POST", url: url, headers: headers, body: Array(JSON.serialize(.object(body)).utf8))
  }

  /// GitHub's `message` in an error answer, if any (shown sanitised: it is the server's text).
  static func gitHubMessage(_ body: [UInt8]) -> String? {
    (try? JSON.parse(body))?.objectValue?["message"]?.stringValue
  }

  /// Seconds to wait before asking again, from `Retry-After` (seconds) or, with
  /// `X-RateLimit-Remaining: 0` or a 429, `X-RateLimit-Reset` (epoch seconds); nil when the
  /// answer says neither (a 403 that is not a rate limit).
  static func rateLimitWait(_ response: HTTPResponse, now: Double) -> Double? {
    if let text = response.headers["Retry-After"]?.trimmingASCIIWhitespace(), let seconds = Int(text), seconds >= 0 {
      return Double(seconds)
    }
    let exhausted = response.headers["X-RateLimit-Remaining"] == "0" || response.status == 429
    if exhausted, let text = response.headers["X-RateLimit-Reset"]?.trimmingASCIIWhitespace(),
      let reset = Int64(text), reset > 0
    {
      return max(0, Double(reset) - now)
    }
    return nil
  }

  /// The repositories `url` lists (an answer's `repositories_url`), read with the new token,
  /// following `Link: <…>; rel="next"` pages. Only an `https` URL on the origin of ``api`` is
  /// read (so the new token goes nowhere else); any other is
  /// ``ScopedTokenError/Kind/repositoriesElsewhere(_:)``.
  package func repositories(at url: String, token: String) throws -> [String] {
    var next: WebURL? = try sameOrigin(url)
    var names: [String] = []
    var pages = 0
    while let current = next {
      pages += 1
      guard pages <= Self.maximumPages else {
        throw ScopedTokenError(.malformed("too many pages of repositories"), host: host)
      }
      guard BearerToken.isUsable(token) else { throw ScopedTokenError(.unusableToken, host: host) }
      var headers = HTTPHeaders()
      headers.add("Accept", "application/vnd.github+json")
      headers.add("Authorization", "Bearer \(token)")
      headers.add("X-GitHub-Api-Version", GitHubAPI.apiVersion)
      let step = EndpointStep("repository list", setting: .apiURL, url: current)
      let response = try step.run {
        try transport.send(HTTPRequest(method: "GET", url: current, headers: headers), timeout: timeout)
      }
      guard response.status == 200 else {
        throw ScopedTokenError(.repositoryListStatus(response.status), host: host, step: step)
      }
      do throws(ScopedTokenError.Kind) {
        names += try ScopedTokenAnswer.repositoryNames(in: response.body)
      } catch {
        throw ScopedTokenError(error, host: host, step: step)
      }
      next = try Self.nextLink(response.headers["Link"]).map { try sameOrigin($0) }
    }
    return names
  }

  /// `text` as a URL when it is `https` on the origin (scheme, host, port) of ``api``.
  private func sameOrigin(_ text: String) throws -> WebURL {
    guard let url = try? WebURL(parsing: text), url.scheme == .https, api.scheme == .https,
      url.host.lowercased() == api.host.lowercased(), url.port == api.port
    else {
      throw ScopedTokenError(.repositoriesElsewhere(text), host: host)
    }
    return url
  }

  /// The `rel="next"` target of a `Link` header, if any.
  static func nextLink(_ header: String?) -> String? {
    guard let header else { return nil }
    for part in header.split(separator: ",") {
      let pieces = part.split(separator: ";").map { String($0).trimmingASCIIWhitespace() }
      guard let first = pieces.first, first.hasPrefix("<"), first.hasSuffix(">") else { continue }
      if pieces.dropFirst().contains(where: { $0 == "rel=\"next\"" || $0 == "rel=next" }) {
        return String(first.dropFirst().dropLast())
      }
    }
    return nil
  }
}

/// What GitHub answered to a scoped-token request: the new token and what it may do.
package struct ScopedTokenAnswer: Sendable, Equatable {
  package var token: String
  /// `expires_at` as GitHub wrote it (ISO 8601), if present.
  package var expiresAt: String?
  /// `installation.permissions`.
  package var permissions: [String: String]
  /// `installation.repository_selection`: `selected` or `all`.
  package var repositorySelection: String?
  /// `installation.repositories` (`full_name`, else `name`), when the answer lists them.
  package var repositories: [String]?
  /// `installation.repositories_url`, when given.
  package var repositoriesURL: String?

  package init(
    token: String, expiresAt: String? = nil, permissions: [String: String], repositorySelection: String?,
    repositories: [String]? = nil, repositoriesURL: String? = nil
  ) {
    self.token = token
    self.expiresAt = expiresAt
    self.permissions = permissions
    self.repositorySelection = repositorySelection
    self.repositories = repositories
    self.repositoriesURL = repositoriesURL
  }

  /// Reads the authorization object GitHub answers with; the reason never quotes the body.
  static func parse(_ body: [UInt8]) throws(ScopedTokenError.Kind) -> ScopedTokenAnswer {
    guard let value = try? JSON.parse(body), let object = value.objectValue else {
      throw .malformed("the answer is not a JSON object")
    }
    guard let token = object["token"]?.stringValue, !token.isEmpty else { throw .malformed("no token") }
    guard BearerToken.isUsable(token) else { throw .malformed("the token holds characters that cannot be sent") }
    // Past this point a token exists: nothing throws, so that the caller can check and revoke it
    // (what is missing or odd makes the check fail).
    let installation = object["installation"]?.objectValue ?? JSONObject()
    var permissions: [String: String] = [:]
    for (name, level) in installation["permissions"]?.objectValue?.entries ?? JSONObject().entries {
      permissions[name] = level.stringValue ?? "(not text)"
    }
    var answer = ScopedTokenAnswer(
      token: token, expiresAt: object["expires_at"]?.stringValue, permissions: permissions,
      repositorySelection: installation["repository_selection"]?.stringValue,
      repositoriesURL: installation["repositories_url"]?.stringValue)
    if let list = installation["repositories"]?.arrayValue {
      answer.repositories = (try? names(of: list)) ?? ["(a repository without a name)"]
    }
    return answer
  }

  /// The names of a page of `repositories_url`: `{"repositories": […]}` or a bare array.
  static func repositoryNames(in body: [UInt8]) throws(ScopedTokenError.Kind) -> [String] {
    guard let value = try? JSON.parse(body) else { throw .malformed("the repository list is not JSON") }
    if let list = value.arrayValue ?? value.objectValue?["repositories"]?.arrayValue { return try names(of: list) }
    throw .malformed("the repository list has no repositories")
  }

  private static func names(of list: [JSONValue]) throws(ScopedTokenError.Kind) -> [String] {
    var names: [String] = []
    for entry in list {
      guard let name = entry.objectValue?["full_name"]?.stringValue ?? entry.objectValue?["name"]?.stringValue
      else { throw .malformed("a repository without a name") }
      names.append(name)
    }
    return names
  }

  /// Why this answer is not exactly `narrowing` (R113), or nil when it is: a `selected`
  /// repository selection with exactly the requested repositories (`repositories`: the list
  /// read from the answer or its `repositories_url`), and, when permissions were asked for,
  /// exactly those plus the `metadata: read` GitHub adds.
  package func problem(for narrowing: Narrowing, repositories listed: [String]) -> String? {
    if !narrowing.permissions.isEmpty {
      var withMetadata = narrowing.permissions
      if withMetadata["metadata"] == nil { withMetadata["metadata"] = "read" }
      if permissions != narrowing.permissions && permissions != withMetadata {
        return "GitHub granted the permissions \(Narrowing.describe(permissions).shownSafely), "
          + "not \(Narrowing.describe(narrowing.permissions))"
      }
    }
    guard repositorySelection == "selected" else {
      return "GitHub granted the repository selection '\((repositorySelection ?? "none").shownSafely)', not 'selected'"
    }
    let wanted = Set(narrowing.repositories.map { "\(narrowing.owner)/\($0)".lowercased() })
    let got = listed.map { ($0.contains("/") ? $0 : "\(narrowing.owner)/\($0)").lowercased() }
    guard Set(got) == wanted, got.count == wanted.count else {
      let shown = got.prefix(5).joined(separator: ", ") + (got.count > 5 ? ", …" : "")
      return "GitHub granted the repositories [\(shown.shownSafely)], not the \(wanted.count) asked for"
    }
    return nil
  }
}

extension String {
  /// Text from an answer as a message may show it: terminal controls removed, at most 200
  /// characters.
  fileprivate var shownSafely: String { Sanitize.terminal(self, maxCharacters: 200) }
}

/// A scoped-token request GitHub did not answer with a token, or whose answer could not be read.
///
/// Messages name the host and the status, never a token, the secret or a response body.
package struct ScopedTokenError: EndpointAnswerError, HostScopedError, Equatable {
  package enum Kind: Error, HostErrorKind {
    /// 404: the login's token is not a GitHub App user token (or no longer valid).
    case notAppUserToken(Int)
    /// 422: GitHub refused the narrowing (a token that cannot be narrowed, a repository the
    /// login cannot see, a permission above its own), with GitHub's `message` if any.
    case refused(String?)
    /// 401: the client ID and secret were refused.
    case clientRejected(Int)
    /// 403 or 429 with a rate limit, and the seconds to wait.
    case rateLimited(status: Int, wait: Double)
    /// 403 without a rate limit.
    case forbidden(Int)
    /// A redirect: never followed with a token in the body.
    case redirect(Int)
    /// Any other status.
    case httpStatus(Int)
    /// A 200 whose body is not the documented answer.
    case malformed(String)
    /// `repositories_url` is not `https` on the API's origin: not read, the new token not sent.
    case repositoriesElsewhere(String)
    /// The repository list answered a status other than 200.
    case repositoryListStatus(Int)
    /// The login's token cannot be sent (R30); nothing was sent.
    case unusableToken
    /// The client ID is empty or contains ':'; nothing was sent.
    case unusableClientID

    package var exitStatus: ExitStatus {
      switch self {
      case .notAppUserToken, .clientRejected, .unusableClientID: .usage
      default: .failure
      }
    }

    package var errorKind: ErrorKind {
      switch self {
      case .notAppUserToken, .clientRejected, .unusableClientID: .configuration
      case .forbidden, .refused: .denied
      case .unusableToken: .tokenRejected
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
    switch kind {
    case .refused(let text):
      let said = text.map { " (GitHub said: \(Sanitize.terminal($0, maxCharacters: 200)))" } ?? ""
      return "\(subject) refused the narrowing (HTTP 422)\(said): the login's token may not be a GitHub App's "
        + "user token, or it cannot see those repositories or have those permissions"
    case .notAppUserToken(let status):
      return "\(subject) answered HTTP \(status): the login's token cannot be narrowed. Only a GitHub App's "
        + "user token can (not an OAuth app's token or a personal access token), and only while it is valid; "
        + "log in with a GitHub App whose client_secret is configured"
    case .clientRejected(let status):
      return "\(subject) refused the client_id and client_secret (HTTP \(status)); check them in the config"
    case .rateLimited(let status, let wait):
      return "\(subject) answered HTTP \(status): GitHub's rate limit is exhausted; try again in "
        + DurationText.spoken(wait)
    case .forbidden(let status):
      return "\(subject) refused the scoped token request (HTTP \(status))"
    case .redirect(let status):
      return "\(subject) answered with a redirect (HTTP \(status)), which is not followed with a token; "
        + "check the api_url setting"
    case .httpStatus(let status) where status >= 500:
      return "\(subject) answered HTTP \(status); try again later"
    case .httpStatus(let status):
      return "\(subject) answered HTTP \(status); check the host and api_url settings"
    case .malformed(let reason):
      return "\(subject) sent an answer that could not be read (\(reason))"
    case .repositoriesElsewhere(let url):
      return "GitHub's answer lists the token's repositories at \(Sanitize.terminal(url, maxCharacters: 120)), "
        + "which is not https on the api_url's origin; it was not read"
    case .repositoryListStatus(let status):
      return "\(subject) answered HTTP \(status) for the token's repository list"
    case .unusableToken:
      return "the stored token contains characters that cannot be sent"
    case .unusableClientID:
      return "the client_id is empty or contains ':', which HTTP Basic authentication cannot carry"
    }
  }
}
