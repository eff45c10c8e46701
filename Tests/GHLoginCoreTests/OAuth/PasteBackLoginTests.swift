import Testing

import GHLoginTestSupport

@testable import GHLoginCore

#if canImport(Glibc)
  import Glibc
#endif

/// Paste-back through the real listener: a pipe stands in for the terminal.
@Suite(.verifiesFakes) struct PasteBackLoginTests {
  let transport = FakeTransport()

  func stubSuccess() {
    transport.on(
      "POST", LoopbackLoginTests.tokenURL, respond: .json(#"{"access_token":"gho_pasted","token_type":"bearer"}"#))
    transport.on("GET", LoopbackLoginTests.userURL, respond: .json(#"{"login":"octocat","id":1}"#))
  }

  /// Runs a login whose paste input is `pipe`; `paste` gets the redirect port and state once the
  /// authorize URL is known and returns the lines to type.
  func login(
    _ pipe: TestPipe?, timeout: Double = 20, paste: @escaping (Int, String) -> [String]
  ) -> (result: Result<LoginResult, any Error>, announced: [String], port: Int) {
    let context = LoginContext(
      host: .gitHubDotCom, app: OAuthApp(clientID: "Iv1.test", scopes: ["repo"]),
      endpoints: GitHubHost.gitHubDotCom.defaultEndpoints, transport: transport, clock: SystemClock())
    let login = LoopbackLogin(context, timeout: timeout, pasteInput: pipe?.read)
    var announced: [String] = []
    var port = 0
    let result = Result {
      try login.run(
        announce: { announced.append($0) },
        openBrowser: { url in
          let (redirectPort, state) = LoopbackLoginTests.portAndState(of: url)
          port = redirectPort
          for line in paste(redirectPort, state) { pipe?.type(line) }
          return false
        })
    }
    return (result, announced, port)
  }

  static func complaint(_ reason: String) -> String {
    "That address was not accepted: \(reason). Paste the whole address from the browser's address bar, "
      + "or wait for the browser:"
  }

  /// A malformed paste and one with the wrong state each say why; the good one then wins and
  /// the listener is closed.
  @Test func badPastesThenAGoodOne() throws {
    stubSuccess()
    let pipe = try TestPipe()
    let run = login(pipe) { port, state in
      [
        "notaurl", "http://127.0.0.1:\(port)/callback?code=wrong&state=nope", "",
        "http://127.0.0.1:\(port)/callback?code=pasted&state=\(state)",
      ]
    }
    let result = try run.result.get()
    #expect(result.token.accessToken == "gho_pasted")
    #expect(run.announced.count == 6)
    #expect(run.announced[3] == PasteBack.prompt)
    #expect(
      Array(run.announced[4...]) == [
        Self.complaint("it is not a URL (it is not an absolute URL (expected https://HOST/...))"),
        Self.complaint("the callback's state does not match this login"),
      ])
    #expect(transport.requests.first?.formParameters.first { $0.name == "code" }?.value == "pasted")
    #expect(TestNetwork.connect(port: run.port) == -1)
  }

  /// The browser's callback wins when it comes first; the paste input is simply no longer read.
  @Test func theBrowserCanStillWin() throws {
    stubSuccess()
    let pipe = try TestPipe()
    var browser: Background<String>?
    let run = login(pipe) { port, state in
      browser = Background {
        TestNetwork.exchange(
          port: port, "GET /callback?code=browser&state=\(state) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
      }
      return []
    }
    #expect(try run.result.get().token.accessToken == "gho_pasted")
    #expect(browser?.value(within: 30)?.hasPrefix("HTTP/1.1 200 OK") == true)
    #expect(transport.requests.first?.formParameters.first { $0.name == "code" }?.value == "browser")
  }

  /// A pasted error redirect with the right state ends the login like the browser's would.
  @Test func pastedDenial() throws {
    let pipe = try TestPipe()
    let run = login(pipe) { port, state in ["http://127.0.0.1:\(port)/callback?error=access_denied&state=\(state)"] }
    #expect(
      throws: LoginError(.authorizationError(AuthorizationErrorResponse(error: "access_denied")), host: .gitHubDotCom)
    ) {
      try run.result.get()
    }
    #expect(transport.requests.isEmpty)
  }

  /// Without a paste input there is no prompt.
  @Test func noPromptWithoutInput() {
    let run = login(nil, timeout: 0.2) { _, _ in [] }
    #expect(!run.announced.contains(PasteBack.prompt))
  }
}
