/// A finished browser login: the token and the account it belongs to.
///
/// The caller stores it; nothing here touches the disk.
struct LoginResult: Sendable, Equatable {
  var token: TokenResponse
  var user: GitHubUser
  /// Wall-clock seconds (Unix) when the token arrived; expiries count from here (R40).
  var receivedAt: Double

  init(token: TokenResponse, user: GitHubUser, receivedAt: Double) {
    self.token = token
    self.user = user
    self.receivedAt = receivedAt
  }

  /// The end every login shares, whatever gave the token (browser or device flow): `GET /user`
  /// says whose token it is, and another account than `expectedLogin` fails the login (R24).
  ///
  /// Throws ``LoginError`` (`userMismatch`), ``GitHubAPIError`` or the transport's error.
  static func identify(
    token: TokenResponse, receivedAt: Double, api: GitHubAPI, expectedLogin: String?, host: GitHubHost
  ) throws -> LoginResult {
    let user = try api.user(token: token.accessToken)
    if let expectedLogin, expectedLogin.lowercased() != user.login.lowercased() {
      throw LoginError(.userMismatch(expected: expectedLogin, actual: user.login), host: host)
    }
    return LoginResult(token: token, user: user, receivedAt: receivedAt)
  }

  /// When the access token expires (Unix seconds), for expiring tokens.
  var accessTokenExpiresAt: Double? { token.expiresIn.map { receivedAt + Double($0) } }
  /// When the refresh token expires (Unix seconds), when there is one with an expiry.
  var refreshTokenExpiresAt: Double? { token.refreshTokenExpiresIn.map { receivedAt + Double($0) } }
}

/// What the listener should send back for one request.
struct SessionReply: Sendable, Equatable {
  var page: ResultPage
  /// Whether the login is over and the listener should close after sending.
  var finish: Bool
}

/// The pending state of one browser login, fed every request the listener parses (R7–R10, R22, R24).
///
/// Invalid requests get 4xx and the login keeps waiting. The first valid
/// callback ends it: an `error=` redirect fails the login; a code is exchanged
/// exactly once, then `/user` is fetched and checked against the expected login.
/// After that every request is refused, so a redelivered code is never
/// exchanged again (T31). Used from the one thread that serves the listener.
final class LoginSession {
  let host: GitHubHost
  let app: OAuthApp
  let request: AuthorizationRequest
  let redirectURI: String
  let validator: CallbackValidator
  let tokenEndpoint: TokenEndpoint
  let api: GitHubAPI
  let expectedLogin: String?
  let clock: any TimeSource

  /// Set once, by the first valid callback.
  private(set) var outcome: Result<LoginResult, any Error>?

  init(
    host: GitHubHost, app: OAuthApp, request: AuthorizationRequest, port: Int, tokenEndpoint: TokenEndpoint,
    api: GitHubAPI, clock: any TimeSource, expectedLogin: String? = nil
  ) {
    self.host = host
    self.app = app
    self.request = request
    self.redirectURI = AuthorizeURL.redirectURI(port: port)
    self.validator = CallbackValidator(port: port, state: request.state)
    self.tokenEndpoint = tokenEndpoint
    self.api = api
    self.clock = clock
    self.expectedLogin = expectedLogin
  }

  /// Decides the answer to one parsed request, doing the exchange when it is the callback.
  func handle(method: String, target: String, headers: HTTPHeaders) -> SessionReply {
    let decision = validator.decide(method: method, target: target, headers: headers)
    if case .reject(let status, let reason) = decision {
      return SessionReply(page: .rejection(status: status, reason: reason), finish: false)
    }
    guard outcome == nil else {
      return SessionReply(
        page: .rejection(status: 400, reason: "This login has already finished; nothing more is accepted."),
        finish: false)
    }
    switch decision {
    case .reject: preconditionFailure("handled above")
    case .authorizationError(let response):
      return fail(LoginError(.authorizationError(response), host: host, configPath: tokenEndpoint.configPath))
    case .accept(let code):
      do {
        let token = try TokenExchange.exchange(
          code: code, request: request, redirectURI: redirectURI, app: app, endpoint: tokenEndpoint)
        let result = try LoginResult.identify(
          token: token, receivedAt: clock.now(), api: api, expectedLogin: expectedLogin, host: host)
        outcome = .success(result)
        return SessionReply(page: .success(host: host, login: result.user.login), finish: true)
      } catch {
        return fail(error)
      }
    }
  }

  private func fail(_ error: any Error) -> SessionReply {
    outcome = .failure(error)
    let reason: String
    if let login = error as? LoginError {
      reason = login.pageReason
    } else if let reportable = error as? any ReportableError {
      reason = reportable.message
    } else {
      reason = "the login could not be completed"
    }
    return SessionReply(page: .failure(reason: reason), finish: true)
  }
}
