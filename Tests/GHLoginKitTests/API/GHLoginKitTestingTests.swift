import GHLoginKit
import GHLoginKitTesting
import GHLoginTestSupport
import Testing

/// GHLoginKitTesting (issue 29 §3): the fakes a tool's tests use, driven through GHLoginKit's
/// public API only, as a tool's test would. A browser login approved, denied and never
/// answered; a device login on the canned answers; an unscripted request.
@Suite struct GHLoginKitTestingTests {
  let directory: TemporaryDirectory
  init() throws { directory = try TemporaryDirectory() }

  func github(_ transport: ScriptedTransport, _ clock: any GitHubLoginClock, _ browser: ScriptedBrowser? = nil) throws
    -> GitHubLogin
  {
    let environment = GitHubLoginEnvironment(
      variables: ["HOME": directory.at("home")], transport: transport, clock: clock, browser: browser)
    return try GitHubLogin(
      configuration: GitHubLoginConfiguration(clientID: "Iv1.testing", scopes: ["repo"]), environment: environment)
  }

  @Test func anApprovingBrowserCompletesABrowserLogin() async throws {
    let transport = ScriptedTransport([.accessToken("gho_browser", scope: "repo"), .user(login: "octocat", id: 7)])
    let browser = ScriptedBrowser.approving(code: "code-1")
    let github = try github(transport, InstantClock(), browser)

    let outcome = try await github.login(LoginOptions(flow: .browser)) { _ in }

    #expect(outcome.token.value == "gho_browser")
    #expect(outcome.token.login == "octocat")
    #expect(
      transport.requests.map { "\($0.method) \($0.url)" } == [
        "POST https://github.com/login/oauth/access_token", "GET https://api.github.com/user",
      ])
    let exchange = transport.requests[0].bodyText
    #expect(exchange.contains("code=code-1"), "\(exchange)")
    #expect(exchange.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A"), "\(exchange)")
    #expect(exchange.contains("code_verifier="), "\(exchange)")
    #expect(transport.requests[1].header("Authorization") == "Bearer gho_browser")
    #expect(transport.remaining == 0)
    #expect(browser.openedURLs.count == 1)
    let pages = browser.pagesShown()
    #expect(pages.count == 1)
    #expect(pages.first?.status == 200)
    #expect(try github.freshToken()?.value == "gho_browser", "the login was stored")
  }

  @Test func aDenyingBrowserEndsTheLoginAsDenied() async throws {
    let transport = ScriptedTransport()
    let browser = ScriptedBrowser.denying()
    let github = try github(transport, InstantClock(), browser)
    do {
      _ = try await github.login(LoginOptions(flow: .browser)) { _ in }
      Issue.record("a denied login succeeded")
    } catch let error as GitHubLoginError {
      #expect(error.kind == .denied)
      #expect(
        error.message == "the login to github.com was denied in the browser (access_denied); log in again to retry")
    }
    #expect(transport.requests.isEmpty, "no code to exchange")
    let pages = browser.pagesShown()
    #expect(pages.map(\.status) == [200], "the listener's page saying the login did not happen")
    #expect(pages.first?.body.contains("access_denied") == true)
    #expect(throws: GitHubLoginError.self) { _ = try github.freshToken() }
  }

  /// The user walks away; the clock jumps past the timeout when the page opens.
  @Test func aBrowserThatNeverAnswersTimesOutWhenTheClockIsMoved() async throws {
    let clock = NoticingClock()
    let browser = ScriptedBrowser.neverAnswering { _ in clock.advance(by: 3600) }
    let github = try github(ScriptedTransport(), clock, browser)
    do {
      _ = try await github.login(LoginOptions(flow: .browser, timeout: 120)) { _ in }
      Issue.record("a login whose browser never answered succeeded")
    } catch let error as GitHubLoginError {
      #expect(error.kind == .timedOut)
      #expect(error.message.hasPrefix("timed out after 2 minutes waiting for the browser; nothing was stored."))
    }
    // Timed from the jump to the login's last look at the clock: on a loaded machine this task
    // may resume much later, which is not the wait's doing. A wait whose deadline counted the
    // jump would go on reading the clock for 120 real seconds.
    let reaction = try #require(clock.reaction, "the login never read the clock after it moved")
    #expect(reaction < .seconds(1), "\(reaction)")
    #expect(browser.openedURLs.count == 1)
    #expect(browser.pagesShown().isEmpty)
  }

  @Test func aDeviceLoginOnTheCannedAnswers() async throws {
    let transport = ScriptedTransport([
      .deviceCode(userCode: "ABCD-EFGH", interval: 5), .oauthError("authorization_pending"),
      .accessToken("ghu_device", refreshToken: "ghr_device", expiresIn: 28_800), .user(login: "hubot", id: 9),
    ])
    let clock = InstantClock()
    let github = try github(transport, clock)
    let shown = TestLock<[String]>([])
    let outcome = try await github.login(LoginOptions(flow: .device, opensBrowser: false)) { event in
      shown.withLock { $0 += event.lines }
    }
    #expect(outcome.token.value == "ghu_device")
    #expect(clock.sleeps == [6, 6], "the 5 s interval and a second's margin, twice, on the instant clock")
    #expect(clock.now() == 1_700_000_012)
    #expect(outcome.token.expiresAt == clock.now() + 28_800)
    #expect(shown.withLock { $0 }.contains { $0.contains("ABCD-EFGH") })
    #expect(transport.requests.count == 4)
  }

  /// A request the script has no answer for fails as a network error that names it.
  @Test func anUnscriptedRequestIsANetworkFailureNamingIt() async throws {
    struct Unplugged: Error, CustomStringConvertible { var description: String { "the cable is out" } }
    let transport = ScriptedTransport()
    transport.enqueueFailure(Unplugged())
    let github = try github(transport, InstantClock())
    for expected in ["the cable is out", "no scripted response for POST https://github.com/login/device/code"] {
      do {
        _ = try await github.login(LoginOptions(flow: .device, opensBrowser: false)) { _ in }
        Issue.record("a login without answers succeeded")
      } catch let error as GitHubLoginError {
        #expect(error.kind == .network)
        #expect(error.message.contains(expected), "\(error.message)")
      }
    }
    #expect(transport.requests.count == 2)
  }

  /// What the article says of `refreshWarning`: a due refresh that fails while the token is still
  /// valid returns the current token with the reason; once it has expired, the failure is thrown.
  @Test func aFailedRefreshReturnsTheCurrentTokenWithAWarningUntilItExpires() async throws {
    struct Unplugged: Error, CustomStringConvertible { var description: String { "the cable is out" } }
    let transport = ScriptedTransport([
      .deviceCode(interval: 5), .accessToken("ghu_1", refreshToken: "ghr_1", expiresIn: 28_800), .user(),
    ])
    transport.enqueueFailure(Unplugged())
    transport.enqueueFailure(Unplugged())
    let clock = InstantClock()
    let github = try github(transport, clock)
    _ = try await github.login(LoginOptions(flow: .device, opensBrowser: false)) { _ in }

    clock.advance(by: 28_800 - 240)  // 4 minutes left: due for a refresh
    let token = try await github.token()
    #expect(token.value == "ghu_1")
    let warning = try #require(token.refreshWarning)
    #expect(warning.hasPrefix("could not refresh the token for github.com: "), "\(warning)")
    #expect(warning.contains("the cable is out"), "\(warning)")
    #expect(warning.hasSuffix("; using the current token, which expires in 4m"), "\(warning)")

    clock.advance(by: 300)  // expired
    do {
      _ = try await github.token()
      Issue.record("an expired token was handed out")
    } catch let error as GitHubLoginError {
      #expect(error.kind == .network)
      #expect(
        error.message.hasPrefix("the token for github.com has expired and could not be refreshed: "), "\(error.message)"
      )
    }
    #expect(transport.requests.count == 5)
    #expect(transport.requests[3...].allSatisfy { $0.bodyText.contains("grant_type=refresh_token") })
  }

  /// A URL without a loopback `redirect_uri` and a `state` is not followed: the browser throws
  /// (the login then says to open the URL by hand) and visits nothing.
  @Test func anApprovingBrowserRefusesAURLWithoutALoopbackRedirect() throws {
    let browser = ScriptedBrowser.approving()
    for url in [
      "https://github.com/login/oauth/authorize?client_id=Iv1&state=s",
      "https://github.com/login/oauth/authorize?redirect_uri=https%3A%2F%2Fexample.com%2Fcallback&state=s",
    ] {
      #expect(throws: ScriptedBrowser.NotAnAuthorizeURL.self) { try browser.open(url) }
      do { try browser.open(url) } catch {
        #expect("\(error)" == "not an authorize URL with a loopback redirect_uri and a state: \(url)")
      }
    }
    #expect(browser.openedURLs.count == 4)
    #expect(browser.pagesShown().isEmpty)
  }
}

/// GHLoginKitTesting's ``InstantClock``, noting in real time the login's last look at it after
/// ``advance(by:)``: when the wait saw its deadline had passed and stopped.
final class NoticingClock: GitHubLoginClock {
  private let clock = InstantClock()
  private let moved = TestLock<(at: ContinuousClock.Instant?, noticed: ContinuousClock.Instant?)>((nil, nil))
  func now() -> Double {
    moved.withLock { if $0.at != nil { $0.noticed = .now } }
    return clock.now()
  }
  func sleep(seconds: Double) { clock.sleep(seconds: seconds) }
  func advance(by seconds: Double) {
    clock.advance(by: seconds)
    moved.withLock { $0.at = .now }
  }
  /// Real time from ``advance(by:)`` to the last read after it.
  var reaction: Duration? {
    moved.withLock { moved in moved.noticed.flatMap { noticed in moved.at.map { noticed - $0 } } }
  }
}
