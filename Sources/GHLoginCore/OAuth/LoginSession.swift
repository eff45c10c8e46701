/// A finished browser login: the token and the account it belongs to.
///
/// The caller stores it; nothing here touches the disk.
package struct LoginResult: Sendable, Equatable {
  package var token: TokenResponse
  package var user: GitHubUser
  /// Wall-clock seconds (Unix) when the token arrived; expiries count from here (R40).
  var receivedAt: Double

  package init(token: TokenResponse, user: GitHubUser, receivedAt: Double) {
    self.token = token
    self.user = user
    self.receivedAt = receivedAt
  }

  /// The end every login shares, whatever gave the token (browser or device flow): `GET /user`
  /// says whose token it is, and another account than `expectedLogin` fails the login (R24).
  ///
  /// Throws ``LoginError`` (`userMismatch`), ``GitHubAPIError`` or the transport's error.
  static func identify(token: TokenResponse, in context: LoginContext) throws -> LoginResult {
    let receivedAt = context.clock.now()
    let user = try context.api.user(token: token.accessToken)
    if let expected = context.expectedLogin, expected.lowercased() != user.login.lowercased() {
      throw LoginError(.userMismatch(expected: expected, actual: user.login), host: context.host)
    }
    return LoginResult(token: token, user: user, receivedAt: receivedAt)
  }

  /// When the access token expires (Unix seconds), for expiring tokens.
  var accessTokenExpiresAt: Double? { token.expiresIn.map { receivedAt + Double($0) } }
  /// When the refresh token expires (Unix seconds), when there is one with an expiry.
  package var refreshTokenExpiresAt: Double? { token.refreshTokenExpiresIn.map { receivedAt + Double($0) } }
}

/// The pending state of one browser login, fed every request the listener parses (R7–R10, R22, R24).
///
/// Invalid requests get 4xx and the login keeps waiting. The first valid
/// callback ends it: an `error=` redirect fails the login; a code is exchanged
/// exactly once, then `/user` is fetched and checked against the expected login.
/// After that every request is refused, so a redelivered code is never
/// exchanged again (R22). Used from the one thread that serves the listener.
final class LoginSession {
  package let context: LoginContext
  package let request: AuthorizationRequest
  /// `http://127.0.0.1:PORT/callback`: the one place it is computed; the authorize URL and the
  /// code exchange both send this string (R20).
  let redirectURI: String
  let validator: CallbackValidator

  /// Set once, by the first valid callback.
  package private(set) var outcome: Result<LoginResult, any Error>?

  /// A session for a login whose listener is on `port`, with a fresh state and PKCE verifier
  /// unless `request` is given.
  package init(_ context: LoginContext, request: AuthorizationRequest, port: Int) {
    self.context = context
    self.request = request
    self.redirectURI = AuthorizeURL.redirectURI(port: port)
    self.validator = CallbackValidator(port: port, state: request.state)
  }

  /// A session with a fresh state and PKCE verifier (from OpenSSL's CSPRNG).
  package convenience init(_ context: LoginContext, port: Int) throws {
    self.init(context, request: try AuthorizationRequest(), port: port)
  }

  /// ``handle(_:)`` on the parts of a request.
  func handle(method: String, target: String, headers: HTTPHeaders) -> LoopbackReply {
    handle(LoopbackRequest(method: method, target: target, headers: headers))
  }

  /// The answer to one request the listener parsed (what the server sends), doing the
  /// exchange when it is the callback.
  func handle(_ incoming: LoopbackRequest) -> LoopbackReply {
    let host = context.host
    let decision = validator.decide(method: incoming.method, target: incoming.target, headers: incoming.headers)
    if case .reject(let status, let reason) = decision {
      return ResultPage.rejection(status: status, reason: reason, product: context.product).reply(finish: false)
    }
    guard outcome == nil else {
      return ResultPage.rejection(
        status: 400, reason: "This login has already finished; nothing more is accepted.", product: context.product
      ).reply(finish: false)
    }
    switch decision {
    case .reject: preconditionFailure("handled above")
    case .authorizationError(let response):
      return fail(LoginError(.authorizationError(response), host: host))
    case .accept(let code):
      do {
        let token = try TokenExchange.exchange(
          code: code, request: request, redirectURI: redirectURI, app: context.app, endpoint: context.tokenEndpoint)
        let result = try LoginResult.identify(token: token, in: context)
        outcome = .success(result)
        return ResultPage.success(host: host, login: result.user.login, product: context.product).reply(finish: true)
      } catch {
        return fail(error)
      }
    }
  }

  private func fail(_ error: any Error) -> LoopbackReply {
    outcome = .failure(error)
    let reason: String
    if let login = error as? LoginError {
      reason = login.pageReason
    } else if let reportable = error as? any ReportableError {
      reason = reportable.message
    } else {
      reason = "the login could not be completed"
    }
    return ResultPage.failure(reason: reason, product: context.product).reply(finish: true)
  }
}
