import GHLoginKit
import GHLoginTestSupport
import Testing

/// Issue 29 §3: an injected clock bounds every wait, the loopback browser wait included. The
/// wait polls in slices of at most 100 ms and ends once the injected clock passes its deadline,
/// so a tool's test whose fake browser never answers fails as timed out within a second of real
/// time, not after the 5 real minutes of the default timeout. Public API only (`import
/// GHLoginKit`, no `@testable`), as a tool's test would be written.
@Suite struct InjectedClockWaitTests {
  let directory: TemporaryDirectory
  init() throws { directory = try TemporaryDirectory() }

  @Test func aBrowserThatNeverAnswersTimesOutOnTheInjectedClock() async throws {
    let clock = JumpClock()
    let browser = SilentBrowser()
    let transport = Script([])
    let environment = GitHubLoginEnvironment(
      variables: ["HOME": directory.at("home")], transport: transport, clock: clock, browser: browser)
    let github = try GitHubLogin(
      configuration: GitHubLoginConfiguration(clientID: "Iv1.waits"), environment: environment)

    async let login = github.login(LoginOptions(flow: .browser)) { _ in }
    // The browser was asked to open the page; the login now waits on the loopback listener,
    // for the default 300 s of the injected clock. Once that wait has read the clock (it polls
    // in slices, reading it between them), the clock jumps past the deadline.
    for _ in 0..<6000 where browser.opened.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
    try #require(browser.opened.count == 1, "the browser was not asked to open the page")
    let readsAtOpen = clock.reads
    for _ in 0..<6000 where clock.reads == readsAtOpen { try await Task.sleep(for: .milliseconds(5)) }
    try #require(clock.reads > readsAtOpen, "the wait never read the clock")
    clock.jump(by: 301)

    do {
      _ = try await login
      Issue.record("a login whose browser never answered succeeded")
    } catch let error as GitHubLoginError {
      #expect(error.kind == .timedOut)
      #expect(
        error.message
          == "timed out after 5 minutes waiting for the browser; nothing was stored. If the browser showed a "
          + "redirect_uri error, the app's callback URL must be http://127.0.0.1/callback")
    }
    // Timed from the jump to the wait's first look at the clock after it, so a loaded machine
    // resuming this task late does not count; a wait blocked until its real deadline never looks.
    let reaction = try #require(clock.reaction, "the wait never read the clock after the jump")
    #expect(reaction < .seconds(1), "the wait outlasted the injected clock's deadline: \(reaction)")
    #expect(browser.opened.count == 1)
    #expect(browser.opened.first?.hasPrefix("https://github.com/login/oauth/authorize?") == true)
    #expect(transport.sent.isEmpty, "nothing was sent: no code ever came")
  }
}

/// A browser that opens the page and never comes back (a user who walked away).
final class SilentBrowser: GitHubLoginBrowser {
  private let urls = TestLock<[String]>([])
  var opened: [String] { urls.withLock { $0 } }
  func open(_ url: String) throws { urls.withLock { $0.append(url) } }
}

/// An injected clock that jumps when told, and records in real time when the login first read it
/// after the jump: the moment the wait saw its deadline had passed.
final class JumpClock: GitHubLoginClock {
  private struct State {
    var now = 1_700_000_000.0
    var jumped: ContinuousClock.Instant?
    var noticed: ContinuousClock.Instant?
    var reads = 0
  }
  private let state = TestLock(State())
  /// How many times the login has read the clock.
  var reads: Int { state.withLock { $0.reads } }
  func now() -> Double {
    state.withLock {
      $0.reads += 1
      if $0.jumped != nil, $0.noticed == nil { $0.noticed = .now }
      return $0.now
    }
  }
  func sleep(seconds: Double) { state.withLock { $0.now += seconds } }
  func jump(by seconds: Double) {
    state.withLock {
      $0.now += seconds
      $0.jumped = .now
    }
  }
  /// Real time from the jump to the first read after it.
  var reaction: Duration? {
    state.withLock { state in state.noticed.flatMap { noticed in state.jumped.map { noticed - $0 } } }
  }
}
