import Testing

import GHLoginTestSupport
@testable import GHLoginCore

@Suite(.verifiesFakes) struct LoginSessionTests {
  static let tokenURL = "https://github.com/login/oauth/access_token"
  static let userURL = "https://api.github.com/user"
  static let port = 53117
  let request = AuthorizationRequest(
    state: "pending-state-0123456789", verifier: "verifier-0123456789-abcdefghijklmnopqrstuvw")
  let host = HTTPHeaders([("Host", "127.0.0.1:\(port)")])
  let clock = ManualClock(now: 1_800_000_000)

  private func session(_ transport: FakeTransport, expectedLogin: String? = nil) -> LoginSession {
    let endpoints = GitHubHost.gitHubDotCom.defaultEndpoints
    let context = LoginContext(
      host: .gitHubDotCom, app: OAuthApp(clientID: "Iv1.id", clientSecret: "app-secret", scopes: ["repo"]),
      endpoints: endpoints, transport: transport, clock: clock, expectedLogin: expectedLogin)
    return LoginSession(context, request: request, port: Self.port)
  }

  private func stubSuccess(_ transport: FakeTransport, login: String = "octocat") {
    transport.on(
      "POST", Self.tokenURL,
      respond: .json(#"{"access_token":"gho_tok","token_type":"bearer","scope":"repo","expires_in":28800}"#))
    transport.on(
      "GET", Self.userURL, respond: .json(#"{"login":"\#(login)","id":42}"#, headers: [("X-OAuth-Scopes", "repo")]))
  }

  private func callback(_ code: String = "thecode", state: String? = nil) -> String {
    "/callback?code=\(code)&state=\(state ?? request.state)"
  }

  private func body(_ reply: LoopbackReply) -> String { String(decoding: reply.body, as: UTF8.self) }

  @Test func successExchangesOnceAndFetchesTheUser() throws {
    let transport = FakeTransport()
    stubSuccess(transport)
    let session = session(transport)
    let reply = session.handle(method: "GET", target: callback(), headers: host)
    #expect(reply.finish)
    #expect(reply.status == 200)
    #expect(body(reply).contains("You are logged in to github.com as octocat."))
    #expect(!body(reply).contains("thecode"))
    #expect(!body(reply).contains(request.state))
    let result = try #require(try session.outcome?.get())
    #expect(result.token == TokenResponse(accessToken: "gho_tok", scopes: ["repo"], expiresIn: 28800))
    #expect(result.user.login == "octocat")
    #expect(result.user.id == 42)
    #expect(result.user.grantedScopes == ["repo"])
    #expect(result.receivedAt == 1_800_000_000)
    #expect(result.accessTokenExpiresAt == 1_800_028_800)
    #expect(result.refreshTokenExpiresAt == nil)
    let exchange = transport.requests[0].formParameters
    #expect(exchange.first { $0.name == "code" }?.value == "thecode")
    #expect(exchange.first { $0.name == "redirect_uri" }?.value == "http://127.0.0.1:\(Self.port)/callback")
    #expect(exchange.first { $0.name == "code_verifier" }?.value == request.verifier)
    #expect(transport.requests[1].headers["Authorization"] == "Bearer gho_tok")
  }

  /// R7–R10 in sequence: none of them consumes the login, then the real callback works.
  @Test func invalidRequestsDoNotConsumeTheLogin() throws {
    let transport = FakeTransport()
    stubSuccess(transport)
    let session = session(transport)
    let rejections: [(String, String, HTTPHeaders, Int)] = [
      ("GET", "/favicon.ico", host, 404),
      ("GET", callback(state: "wrong"), host, 400),
      ("GET", "/callback?code=x", host, 400),
      ("GET", "/callback?error=access_denied&state=wrong", host, 400),
      ("GET", callback(), HTTPHeaders([("Host", "evil.test:\(Self.port)")]), 400),
      ("GET", callback() + "&code=again", host, 400),
      ("POST", callback(), host, 405),
    ]
    for (method, target, headers, status) in rejections {
      let reply = session.handle(method: method, target: target, headers: headers)
      #expect(reply.status == status, "\(method) \(target)")
      #expect(!reply.finish)
      #expect(session.outcome == nil)
    }
    #expect(transport.requests.isEmpty)
    let reply = session.handle(method: "GET", target: callback(), headers: host)
    #expect(reply.finish)
    #expect(try session.outcome?.get().user.login == "octocat")
  }

  /// R22: a redelivered code after success is refused and never exchanged.
  @Test func secondCallbackIsNeverExchanged() throws {
    let transport = FakeTransport()
    stubSuccess(transport)
    let session = session(transport)
    #expect(session.handle(method: "GET", target: callback(), headers: host).finish)
    let again = session.handle(method: "GET", target: callback(), headers: host)
    #expect(again.status == 400)
    #expect(!again.finish)
    #expect(body(again).contains("This login has already finished"))
    let other = session.handle(method: "GET", target: callback("othercode"), headers: host)
    #expect(other.status == 400)
    #expect(transport.requests.count == 2)
    #expect(transport.unexpected.isEmpty)
    #expect(try session.outcome?.get().user.login == "octocat")
  }

  /// R12, R21, R83: an error redirect with the right state ends the login; page escaped, no
  /// exchange.
  @Test func accessDeniedEndsTheLogin() throws {
    let transport = FakeTransport()
    let session = session(transport)
    let reply = session.handle(
      method: "GET",
      target:
        "/callback?error=access_denied&error_description=%3Cscript%3Ex%3C%2Fscript%3E%1B%5B31m&state=\(request.state)",
      headers: host)
    #expect(reply.finish)
    #expect(body(reply).contains("The login failed: access_denied: &lt;script&gt;x&lt;/script&gt;[31m"))
    #expect(!body(reply).contains("<script>"))
    let error = try #require(throws: LoginError.self) { try session.outcome?.get() }
    #expect(
      error
        == LoginError(
          .authorizationError(
            AuthorizationErrorResponse(error: "access_denied", description: "<script>x</script>\u{1B}[31m")),
          host: .gitHubDotCom))
    #expect(
      error.message.hasPrefix(
        "the login to github.com was denied in the browser (access_denied: <script>x</script>[31m)"))
    #expect(error.exitStatus == .failure)
    #expect(transport.requests.isEmpty)
  }

  /// R24: another account than --user asked for: failure, no result.
  @Test func userMismatchFails() throws {
    let transport = FakeTransport()
    stubSuccess(transport, login: "octocat")
    let session = session(transport, expectedLogin: "hubot")
    let reply = session.handle(method: "GET", target: callback(), headers: host)
    #expect(reply.finish)
    #expect(body(reply).contains("you logged in as octocat, but hubot was asked for. Nothing was stored."))
    let error = try #require(throws: LoginError.self) { try session.outcome?.get() }
    #expect(error == LoginError(.userMismatch(expected: "hubot", actual: "octocat"), host: .gitHubDotCom))
    #expect(error.message.hasPrefix("logged in to github.com as octocat, but hubot was asked for; nothing was stored."))
  }

  @Test func expectedLoginComparesCaseInsensitively() throws {
    let transport = FakeTransport()
    stubSuccess(transport, login: "OctoCat")
    let session = session(transport, expectedLogin: "octocat")
    #expect(session.handle(method: "GET", target: callback(), headers: host).finish)
    #expect(try session.outcome?.get().user.login == "OctoCat")
  }

  /// R27, R31: a token error ends the login with its guidance; no /user call; nothing returned.
  @Test func tokenErrorEndsTheLogin() throws {
    let transport = FakeTransport()
    transport.on(
      "POST", Self.tokenURL,
      respond: .json(
        #"{"error":"bad_verification_code","error_description":"The code passed is incorrect or expired."}"#))
    let session = session(transport)
    let reply = session.handle(method: "GET", target: callback(), headers: host)
    #expect(reply.finish)
    #expect(
      body(reply).contains("The login failed: the authorization code was rejected by github.com (incorrect or expired)")
    )
    let error = try #require(throws: TokenError.self) { try session.outcome?.get() }
    #expect(error.oauthCode == "bad_verification_code")
    #expect(transport.requests.count == 1)
    // And the code is not tried again.
    #expect(session.handle(method: "GET", target: callback(), headers: host).status == 400)
    #expect(transport.requests.count == 1)
  }

  @Test func userLookupFailureEndsTheLogin() throws {
    let transport = FakeTransport()
    transport.on("POST", Self.tokenURL, respond: .json(#"{"access_token":"gho_tok","token_type":"bearer"}"#))
    transport.on("GET", Self.userURL, respond: .json(#"{"message":"Bad credentials"}"#, status: 401))
    let session = session(transport)
    let reply = session.handle(method: "GET", target: callback(), headers: host)
    #expect(reply.finish)
    #expect(!body(reply).contains("gho_tok"))
    let identityCheck = EndpointStep(
      "identity check", setting: .apiURL, url: GitHubHost.gitHubDotCom.defaultEndpoints.api)
    #expect(throws: GitHubAPIError(.tokenRejected, host: .gitHubDotCom, path: "/user", step: identityCheck)) {
      try session.outcome?.get()
    }
  }

  @Test func transportFailureEndsTheLoginWithoutDetailsOnThePage() throws {
    struct Opaque: Error {}
    let transport = FakeTransport()
    transport.on("POST", Self.tokenURL) { _ in throw Opaque() }
    let session = session(transport)
    let reply = session.handle(method: "GET", target: callback(), headers: host)
    #expect(reply.finish)
    #expect(body(reply).contains("The login failed: the login could not be completed"))
    #expect(throws: Opaque.self) { try session.outcome?.get() }
  }
}
