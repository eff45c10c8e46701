import Testing

import GHLoginTestSupport
@testable import GHLoginCore

/// The whole device login against stubs: what is printed, when the browser opens, what comes back.
@Suite(.verifiesFakes) struct DeviceFlowLoginTests {
  let clock = ManualClock()
  let transport = FakeTransport()

  struct Run {
    var result: Result<LoginResult, any Error>
    var announced: [String]
    var opened: [WebURL]
  }

  func login(
    code: HTTPResponse = DeviceStub.codeAnswer(), polls: [PollScript.Answer] = [.pending, .token],
    user: HTTPResponse? = DeviceStub.user, expectedLogin: String? = nil, browserOpens: Bool = true,
    endpoints: Endpoints = GitHubHost.gitHubDotCom.defaultEndpoints
  ) -> Run {
    transport.on("POST", DeviceStub.codeURL, respond: code)
    PollScript(clock: clock, polls).install(on: transport)
    if let user { transport.on("GET", DeviceStub.userURL, respond: user) }
    let login = DeviceFlowLogin(
      LoginContext(
        host: .gitHubDotCom, app: DeviceStub.app, endpoints: endpoints, transport: transport, clock: clock,
        expectedLogin: expectedLogin))
    var announced: [String] = []
    var opened: [WebURL] = []
    let result = Result {
      try login.run(
        announce: { announced.append($0) },
        openBrowser: { url in
          opened.append(url)
          return browserOpens
        })
    }
    return Run(result: result, announced: announced, opened: opened)
  }

  /// The code, then the URL alone on its line, the host named, the browser opened (R39).
  @Test func successfulLogin() throws {
    let run = login()
    let result = try run.result.get()
    #expect(result.user.login == "octocat")
    #expect(result.token.accessToken == "gho_device")
    #expect(result.receivedAt == clock.now())
    #expect(
      run.announced == [
        "First copy your one-time code: WDJB-MJHT",
        "https://github.com/login/device",
        "Open that page on any device, enter the code, and approve the login to github.com.",
        "Opened your browser. Waiting up to 15 minutes for the approval (Ctrl-C to cancel)...",
      ])
    #expect(run.opened.map(\.description) == ["https://github.com/login/device"])
  }

  @Test func sayNothingAboutABrowserThatDidNotOpen() throws {
    let run = login(browserOpens: false)
    #expect(run.announced.last == "Waiting up to 15 minutes for the approval (Ctrl-C to cancel)...")
  }

  /// R39: a verification URL on another host is shown but never opened, with a warning.
  @Test func foreignVerificationHostIsNotOpened() throws {
    let run = login(code: DeviceStub.codeAnswer(["verification_uri": "\"https://evil.test/login/device\""]))
    #expect(try run.result.get().user.login == "octocat")
    #expect(run.opened.isEmpty)
    #expect(run.announced.contains("https://evil.test/login/device"))
    #expect(
      run.announced.contains(
        "Warning: not opening a browser: that page is on evil.test, not on github.com. "
          + "Make sure you trust it before you enter the code."))
  }

  /// R39: a look-alike subdomain is another host.
  @Test(arguments: ["https://github.com.evil.test/login/device", "https://gist.github.com/login/device"])
  func lookAlikeHostsAreNotOpened(_ uri: String) throws {
    let run = login(code: DeviceStub.codeAnswer(["verification_uri": "\"\(uri)\""]), polls: [.token])
    #expect(try run.result.get().user.login == "octocat")
    #expect(run.opened.isEmpty)
    #expect(run.announced.contains { $0.hasPrefix("Warning: not opening a browser") })
  }

  /// The configured host's port does not matter (a test server's verification page has none).
  @Test func sameHostOtherPortMayOpen() throws {
    let configured = try WebURL(parsing: "https://github.test:4443/login/oauth/authorize")
    #expect(DeviceFlowLogin.mayOpen(try WebURL(parsing: "https://github.test/login/device"), configured: configured))
    #expect(!DeviceFlowLogin.mayOpen(try WebURL(parsing: "http://github.test/login/device"), configured: configured))
  }

  /// R37 through the login: no poll after "unavailable".
  @Test func unavailableStopsBeforePolling() {
    let run = login(code: .json(#"{"message":"Not Found"}"#, status: 404), polls: [], user: nil)
    #expect(throws: DeviceFlowError.self) { try run.result.get() }
    #expect(transport.requests.count == 1)
    #expect(run.announced.isEmpty)
    #expect(run.opened.isEmpty)
  }

  /// R24 shared with the browser flow: another account than `--user` fails.
  @Test func otherAccountThanExpected() {
    let run = login(expectedLogin: "hubot")
    #expect(throws: LoginError(.userMismatch(expected: "hubot", actual: "octocat"), host: .gitHubDotCom)) {
      try run.result.get()
    }
  }

  @Test func userCodeAndURLAreShownAsReceivedOnlyWhenClean() throws {
    let run = login(code: DeviceStub.codeAnswer(["user_code": "\"AB\\u001b[2JCD\""]), polls: [], user: nil)
    #expect(throws: DeviceFlowError.self) { try run.result.get() }
    #expect(run.announced.isEmpty)
  }

  @Test func durations() {
    #expect(DeviceFlowLogin.duration(900) == "15 minutes")
    #expect(DeviceFlowLogin.duration(90) == "90 seconds")
    #expect(DeviceFlowLogin.duration(2.5) == "3 seconds")
    #expect(DeviceFlowLogin.duration(1) == "1 second")
    #expect(DeviceFlowLogin.duration(60) == "1 minute")
    #expect(DeviceFlowLogin.duration(300) == "5 minutes")
    #expect(DeviceFlowLogin.duration(200) == "3 minutes 20 seconds")
    #expect(DeviceFlowLogin.duration(181) == "3 minutes 1 second")
    #expect(DurationText.clock(299.2) == "5:00")
    #expect(DurationText.clock(65) == "1:05")
    #expect(DurationText.clock(3723) == "1:02:03")
    #expect(LoginEvent.duration(900) == "15 minutes")
    #expect(LoginEvent.duration(121) == "2 minutes 1 second")
  }
}
