import Synchronization
#if canImport(Glibc)
  import Glibc
#endif
import Testing

import GHLoginTestSupport
@testable import GHLoginKit

/// The library's public entry points, in-process with a fake transport and a temporary store.
@Suite(.verifiesFakes) struct GitHubLoginTests {
  let fixture: StoreFixture
  let transport = FakeTransport()

  init() throws { fixture = try StoreFixture() }

  func environment(
    clock: any GHLoginKit.TimeSource = ManualClock(), variables extra: [String: String] = [:]
  ) -> Environment {
    var variables = ["HOME": fixture.home]
    variables.merge(extra) { _, new in new }
    let transport = transport
    return Environment(
      arguments: [], variables: EnvironmentVariables(variables), stdout: BufferOutput(), stderr: BufferOutput(),
      stdin: BufferInput(""),
      clock: clock, browser: RecordingBrowser(), transport: { _ in transport })
  }

  static let app = GitHubLoginConfiguration(clientID: "Iv1.device", scopes: ["repo"])

  @Test func tokenWithoutALoginSaysWhatToDo() async throws {
    let github = try GitHubLogin(environment: environment())
    #expect(try github.host == "github.com")
    do {
      _ = try await github.token()
      Issue.record("a token without a login")
    } catch let error as GitHubLoginError {
      #expect(error.kind == .notLoggedIn)
      #expect(error.exitStatus == .notLoggedIn)
      #expect(error.message == "not logged in to github.com; log in first")
      #expect(ExitStatus(for: error) == .notLoggedIn)
    }
  }

  /// A tool that names its login command has it in the message; ghlogin's never is.
  @Test func tokenWithoutALoginNamesTheToolsLoginCommand() async throws {
    var github = try GitHubLogin(environment: environment())
    github.loginCommand = "mytool login"
    do {
      _ = try await github.token()
      Issue.record("a token without a login")
    } catch let error as GitHubLoginError {
      #expect(error.kind == .notLoggedIn)
      #expect(error.message == "not logged in to github.com; run 'mytool login'")
    }
    #expect(throws: GitHubLoginError.self) { _ = try github.freshToken(host: "ghe.example.com") }
    do { _ = try github.freshToken(host: "ghe.example.com") } catch let error as GitHubLoginError {
      #expect(error.message == "not logged in to ghe.example.com; run 'mytool login'")
    }
  }

  @Test func tokenReadsTheStoreWithoutTheNetwork() async throws {
    _ = try fixture.store().update { $0.save(sampleCredential(), on: "github.com") }
    let token = try await GitHubLogin(environment: environment()).token()
    #expect(token.value == "gho_16C7e42F292c6912E7710c838347Ae178B4a")
    #expect(token.login == "octocat")
    #expect(token.host == "github.com")
    #expect(token.refreshWarning == nil)
    #expect(!"\(token)".contains("gho_"))
    #expect(transport.requests.isEmpty)
  }

  /// A configuration in code goes through the config file's checks; nothing is touched.
  @Test func configurationInCodeIsChecked() throws {
    var app = Self.app
    app.tokenURL = "http://ghe.example.com/login/oauth/access_token"
    do {
      _ = try GitHubLogin(environment: environment(), configuration: app)
      Issue.record("plain http to a remote host was accepted")
    } catch let error as GitHubLoginError {
      #expect(error.kind == .configuration)
      #expect(error.exitStatus == .usage)
      #expect(error.message.contains("tokenURL uses http://"), "\(error.message)")
      #expect(error.message.contains(GitHubLoginConfiguration.sourceName), "\(error.message)")
    }
    #expect(access(fixture.configDirectory, F_OK) != 0)
  }

  /// The device flow through the async API, returning the token without storing it.
  @Test func asyncDeviceLoginWithoutStoring() async throws {
    let clock = ManualClock()
    transport.on("POST", DeviceStub.codeURL, respond: DeviceStub.codeAnswer())
    PollScript(clock: clock, [.pending, .token]).install(on: transport)
    transport.on("GET", DeviceStub.userURL, respond: DeviceStub.user)
    let github = try GitHubLogin(environment: environment(clock: clock), configuration: Self.app)
    let seen = TestLock<[LoginEvent]>([])
    let outcome = try await github.login(LoginOptions(flow: .device, opensBrowser: false, storesLogin: false)) {
      event in seen.withLock { $0.append(event) }
    }
    #expect(outcome.token.value == "gho_device")
    #expect(outcome.token.login == "octocat")
    #expect(outcome.token.apiURL == "https://api.github.com")
    #expect(outcome.flow == .device)
    #expect(!outcome.stored)
    let events = seen.withLock { $0 }
    #expect(
      events.first
        == .enterUserCode("WDJB-MJHT", verificationURL: "https://github.com/login/device", host: "github.com"))
    #expect(events.contains(.waiting(flow: .device, seconds: 900, browserOpened: false)))
    #expect(events.last == .loggedIn(host: "github.com", login: "octocat"))
    #expect(try fixture.store().load().hosts.isEmpty)
  }

  /// Cancelling the task stops a browser login waiting for its callback at once: exit 130,
  /// nothing stored, the listener closed.
  @Test func cancellingTheTaskStopsTheLogin() async throws {
    let github = try GitHubLogin(environment: environment(clock: SystemClock()), configuration: Self.app)
    let port = TestLock(0)
    let waiting = Atomic(false)
    let task = Task {
      try await github.login(LoginOptions(flow: .browser, timeout: 600, opensBrowser: false)) { event in
        if case .openAuthorizationPage(let url, _) = event, let parsed = try? WebURL(parsing: url) {
          port.withLock { $0 = redirectPortAndState(of: parsed).0 }
        }
        if case .waiting = event { waiting.store(true, ordering: .sequentiallyConsistent) }
      }
    }
    try await eventually { waiting.load(ordering: .sequentiallyConsistent) }
    let started = SystemClock().monotonic()
    task.cancel()
    do {
      _ = try await task.value
      Issue.record("a cancelled login finished")
    } catch let error as GitHubLoginError {
      #expect(error.kind == .cancelled)
      #expect(error.exitStatus == .interrupted)
      #expect(error.message == "interrupted; nothing was stored")
    }
    #expect(SystemClock().monotonic() - started < 5)
    #expect(try fixture.store().load().hosts.isEmpty)
    let fd = TestNetwork.connect(port: port.withLock { $0 })
    #expect(fd == -1, "the listener is still open")
    if fd >= 0 { close(fd) }
  }

  /// Logins waiting on people hold no thread of the cooperative pool: with more logins waiting
  /// than the pool has threads, other tasks still run.
  @Test func waitingLoginsDoNotBlockThePool() async throws {
    let github = try GitHubLogin(environment: environment(clock: SystemClock()), configuration: Self.app)
    let waiting = Counter()
    var tasks: [Task<LoginOutcome, any Error>] = []
    for _ in 0..<6 {
      tasks.append(
        Task {
          try await github.login(LoginOptions(flow: .browser, timeout: 600, opensBrowser: false, storesLogin: false)) {
            if case .waiting = $0 { waiting.increment() }
          }
        })
    }
    try await eventually { waiting.value == 6 }
    #expect(await Task { 42 }.value == 42)
    for task in tasks { task.cancel() }
    for task in tasks { _ = try? await task.value }
  }

  @Test func exitStatusForAnyError() {
    #expect(ExitStatus(for: CancellationError()) == .interrupted)
    #expect(ExitStatus(for: NotLoggedIn(host: "github.com")) == .notLoggedIn)
    struct Other: Error {}
    #expect(ExitStatus(for: Other()) == .failure)
  }

  /// Logout through the library: removed locally, not revoked without a client secret.
  @Test func logoutRemovesTheAccount() async throws {
    _ = try fixture.store().update { $0.save(sampleCredential(), on: "github.com") }
    let github = try GitHubLogin(environment: environment(), configuration: Self.app)
    let outcome = try await github.logout()
    #expect(outcome.login == "octocat")
    #expect(outcome.revocation == .notConfigured)
    #expect(try fixture.store().load().hosts["github.com"]?.accounts.isEmpty ?? true)
    #expect(transport.requests.isEmpty)
  }

  @Test func identityAsksGitHub() async throws {
    _ = try fixture.store().update { $0.save(sampleCredential(), on: "github.com") }
    transport.on("GET", DeviceStub.userURL, respond: DeviceStub.user)
    let identity = try await GitHubLogin(environment: environment()).identity()
    #expect(identity.login == "octocat")
    #expect(identity.id == 1)
    #expect(identity.scopes == ["repo"])
  }
}

/// Waits until `condition` holds, up to 240 s: the end-to-end suites' synchronous tests run on
/// the cooperative pool too and block in `waitpid` for up to two minutes each, so on a 2-core
/// machine this task may not be resumed for a long while (a 60 s bound failed under load).
func eventually(_ condition: () -> Bool) async throws {
  let clock = SystemClock()
  let deadline = clock.monotonic() + 240
  while !condition() {
    guard clock.monotonic() < deadline else {
      Issue.record("condition not met within 240 s")
      return
    }
    try await Task.sleep(for: .milliseconds(10))
  }
}

/// A thread-safe count.
final class Counter: Sendable {
  private let count = TestLock(0)
  func increment() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}
