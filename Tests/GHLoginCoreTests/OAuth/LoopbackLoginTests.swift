import Foundation
import Synchronization
import Testing

import GHLoginTestSupport

@testable import GHLoginCore

#if canImport(Glibc)
  import Glibc
#endif

/// The whole browser login in-process: a real ``LoopbackServer``, a fake GitHub
/// transport, and a thread that plays the browser with raw sockets.
@Suite(.verifiesFakes) struct LoopbackLoginTests {
  static let tokenURL = "https://github.com/login/oauth/access_token"
  static let userURL = "https://api.github.com/user"

  /// What the browser thread does with the authorize URL: one raw GET per step.
  enum Step: Sendable {
    /// The real callback with `code` and the pending state.
    case callback(code: String)
    /// `target` with the real Host header; `STATE` in it is replaced by the pending state.
    case get(String)
    /// The real callback sent with another Host header.
    case foreignHost(String)
  }

  /// The result of one login run and what the browser saw.
  struct Run {
    var result: Result<LoginResult, any Error>
    var announced: [String]
    var opened: [WebURL]
    /// The status line and body of each answer, in order ("" when the connection failed).
    var answers: [String]
    var port: Int
  }

  private func login(
    _ transport: FakeTransport, timeout: Double = 20, stopFD: Int32? = nil, expectedLogin: String? = nil,
    browserOpens: Bool = true, steps: [Step]
  ) -> Run {
    let context = LoginContext(
      host: .gitHubDotCom,
      app: OAuthApp(clientID: "Iv1.test", clientSecret: "app-secret", scopes: ["repo", "read:org"]),
      endpoints: GitHubHost.gitHubDotCom.defaultEndpoints, transport: transport, clock: SystemClock(), stopFD: stopFD,
      expectedLogin: expectedLogin)
    let login = LoopbackLogin(context, timeout: timeout)
    var announced: [String] = []
    var opened: [WebURL] = []
    var browser: Background<[String]>?
    var port = 0
    let result = Result {
      try login.run(
        announce: { announced.append($0) },
        openBrowser: { url in
          opened.append(url)
          let (redirectPort, state) = Self.portAndState(of: url)
          port = redirectPort
          if !steps.isEmpty { browser = Background { Self.browse(port: redirectPort, state: state, steps: steps) } }
          return browserOpens
        })
    }
    let answers = browser?.value(within: 30) ?? []
    return Run(result: result, announced: announced, opened: opened, answers: answers, port: port)
  }

  /// The port of `redirect_uri` and the `state` in an authorize URL.
  static func portAndState(of url: WebURL) -> (Int, String) { redirectPortAndState(of: url) }

  /// Plays the browser: each step on its own connection, waiting for the whole answer.
  static func browse(port: Int, state: String, steps: [Step]) -> [String] {
    steps.map { step in
      let (target, host): (String, String)
      switch step {
      case .callback(let code): (target, host) = ("/callback?code=\(code)&state=\(state)", "127.0.0.1:\(port)")
      case .get(let raw): (target, host) = (raw.replacingOccurrences(of: "STATE", with: state), "127.0.0.1:\(port)")
      case .foreignHost(let other): (target, host) = ("/callback?code=c&state=\(state)", other)
      }
      let answer = TestNetwork.exchange(
        port: port, "GET \(target) HTTP/1.1\r\nHost: \(host)\r\nAccept: text/html\r\n\r\n")
      return answer == "connect failed" ? "" : answer
    }
  }

  private func stubSuccess(_ transport: FakeTransport) {
    transport.on(
      "POST", Self.tokenURL,
      respond: .json(#"{"access_token":"gho_tok","token_type":"bearer","scope":"repo,read:org"}"#))
    transport.on(
      "GET", Self.userURL,
      respond: .json(#"{"login":"octocat","id":1}"#, headers: [("X-OAuth-Scopes", "repo, read:org")]))
  }

  /// R2, R4, R15, R19, R20, R26: the URL is announced alone on its line and opened; the exchange
  /// uses the same redirect_uri.
  @Test func successfulLogin() throws {
    let transport = FakeTransport()
    stubSuccess(transport)
    let run = login(transport, steps: [.callback(code: "code1")])
    let result = try run.result.get()
    #expect(result.user.login == "octocat")
    #expect(result.token.accessToken == "gho_tok")
    #expect(result.token.scopes == ["repo", "read:org"])

    let url = try #require(run.opened.first)
    #expect(run.announced.count >= 2)
    #expect(run.announced.first == "Open this URL in your browser to log in to github.com:")
    #expect(run.announced.dropFirst().first == url.description)
    #expect(
      url.description.hasPrefix(
        "https://github.com/login/oauth/authorize?response_type=code&client_id=Iv1.test&redirect_uri=http%3A%2F%2F127.0.0.1%3A\(run.port)%2Fcallback&scope=repo%20read%3Aorg&state="
      ))
    #expect(url.description.contains("&code_challenge_method=S256"))
    #expect(run.port > 0)

    let answer = try #require(run.answers.first)
    #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
    #expect(answer.contains("\r\nReferrer-Policy: no-referrer\r\n"))
    #expect(answer.contains("You are logged in to github.com as octocat."))
    #expect(!answer.contains("code1"))

    let exchange = transport.requests[0].formParameters
    #expect(exchange.first { $0.name == "redirect_uri" }?.value == "http://127.0.0.1:\(run.port)/callback")
    #expect(exchange.first { $0.name == "code" }?.value == "code1")
    let (_, state) = Self.portAndState(of: url)
    #expect(!transport.requests.contains { String(decoding: $0.body, as: UTF8.self).contains(state) })
    // The listener is closed once the login is over (R4).
    #expect(TestNetwork.connect(port: run.port) == -1)
  }

  /// R7, R8, R10: rejected requests do not consume the login; the real callback still works.
  @Test func wrongRequestsFirstThenTheRealCallback() throws {
    let transport = FakeTransport()
    stubSuccess(transport)
    let run = login(
      transport,
      steps: [
        .get("/favicon.ico"), .get("/callback?code=x&state=WRONG"), .get("/callback?code=x"),
        .get("/callback?error=access_denied&state=WRONG"), .foreignHost("evil.test"), .get("/callback/../x"),
        .get("/callback?code=a&code=b&state=STATE"), .callback(code: "good"),
      ])
    #expect(try run.result.get().user.login == "octocat")
    let statuses = run.answers.map { $0.split(separator: "\r\n").first.map(String.init) ?? "" }
    #expect(
      statuses == [
        "HTTP/1.1 404 Not Found", "HTTP/1.1 400 Bad Request", "HTTP/1.1 400 Bad Request", "HTTP/1.1 400 Bad Request",
        "HTTP/1.1 400 Bad Request", "HTTP/1.1 404 Not Found", "HTTP/1.1 400 Bad Request", "HTTP/1.1 200 OK",
      ])
    #expect(transport.requests.count == 2)
    #expect(transport.requests[0].formParameters.first { $0.name == "code" }?.value == "good")
  }

  /// R12, R21, R83: an error redirect with the right state ends the login; nothing is exchanged.
  @Test func accessDenied() throws {
    let transport = FakeTransport()
    let run = login(
      transport, steps: [.get("/callback?error=access_denied&error_description=%3Cb%3Eno%3C%2Fb%3E&state=STATE")])
    #expect(
      throws: LoginError(
        .authorizationError(AuthorizationErrorResponse(error: "access_denied", description: "<b>no</b>")),
        host: .gitHubDotCom)
    ) {
      try run.result.get()
    }
    let answer = try #require(run.answers.first)
    #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
    #expect(answer.contains("The login failed: access_denied: &lt;b&gt;no&lt;/b&gt;"))
    #expect(transport.requests.isEmpty)
  }

  /// R22: once the login is over, a redelivered callback is never exchanged.
  @Test func secondCallbackIsNeverExchanged() throws {
    let transport = FakeTransport()
    stubSuccess(transport)
    let run = login(transport, steps: [.callback(code: "once"), .callback(code: "once")])
    #expect(try run.result.get().user.login == "octocat")
    #expect(run.answers.count == 2)
    #expect(!run.answers[1].contains("200 OK"))
    #expect(transport.requests.count == 2)
    #expect(transport.unexpected.isEmpty)
  }

  /// R24 through the listener: another account fails and nothing is returned.
  @Test func otherAccountThanExpected() throws {
    let transport = FakeTransport()
    stubSuccess(transport)
    let run = login(transport, expectedLogin: "hubot", steps: [.callback(code: "c")])
    #expect(throws: LoginError(.userMismatch(expected: "hubot", actual: "octocat"), host: .gitHubDotCom)) {
      try run.result.get()
    }
    #expect(run.opened.first?.description.hasSuffix("&login=hubot") == true)
    #expect(run.answers.first?.contains("Login failed") == true)
  }

  /// R4, R11: no callback before the deadline: a timeout error, and the port is closed.
  @Test func timesOut() throws {
    let transport = FakeTransport()
    let run = login(transport, timeout: 0.3, steps: [])
    #expect(throws: LoginError(.timedOut(seconds: 1), host: .gitHubDotCom)) { try run.result.get() }
    #expect(transport.requests.isEmpty)
    #expect(TestNetwork.connect(port: run.port) == -1)
  }

  @Test func interruptedByTheStopDescriptor() throws {
    let stop = try TestPipe(signalled: true)
    let run = login(FakeTransport(), stopFD: stop.read, steps: [])
    let error = try #require(throws: LoginError.self) { try run.result.get() }
    #expect(error == LoginError(.interrupted, host: .gitHubDotCom))
    #expect(error.exitStatus == .interrupted)
  }

  @Test func saysWhetherTheBrowserWasOpened() {
    let closed = login(FakeTransport(), timeout: 0.1, browserOpens: false, steps: [])
    #expect(closed.announced.contains("Waiting up to 1 second for the browser (Ctrl-C to cancel)..."))
    let opened = login(FakeTransport(), timeout: 0.1, browserOpens: true, steps: [])
    #expect(
      opened.announced.contains("Opened your browser. Waiting up to 1 second for the browser (Ctrl-C to cancel)..."))
  }
}
