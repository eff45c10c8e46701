import GHLoginKit
import GHLoginTestSupport
import Synchronization
import Testing

/// The library's public seams (`GitHubLoginEnvironment`: variables, transport, clock, browser)
/// and the keyring chosen in code, used as a tool would: `import GHLoginKit` only, no
/// `@testable`.
@Suite struct GitHubLoginEnvironmentTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  var variables: [String: String] { ["HOME": directory.at("home")] }

  /// A device login through a scripted transport and a clock that never waits; the browser is
  /// never asked (the device flow opens none when told not to).
  @Test func aDeviceLoginRunsOnTheInjectedTransportAndClock() async throws {
    let transport = Script([
      .json(
        #"{"device_code":"dc","user_code":"ABCD-EFGH","verification_uri":"https://github.com/login/device","#
          + #""expires_in":900,"interval":5}"#),
      .json(#"{"error":"authorization_pending"}"#),
      .json(#"{"access_token":"gho_injected","token_type":"bearer","scope":"repo"}"#),
      .json(#"{"login":"octocat","id":7}"#, headers: [("X-OAuth-Scopes", "repo")]),
    ])
    let clock = StepClock()
    let environment = GitHubLoginEnvironment(variables: variables, transport: transport, clock: clock)
    let github = try GitHubLogin(
      configuration: GitHubLoginConfiguration(clientID: "Iv1.seams"), environment: environment)
    let outcome = try await github.login(LoginOptions(flow: .device, opensBrowser: false)) { _ in }
    #expect(outcome.token.value == "gho_injected")
    #expect(outcome.token.apiURL == "https://api.github.com")
    #expect(
      transport.sent.map { "\($0.method) \($0.url)" } == [
        "POST https://github.com/login/device/code", "POST https://github.com/login/oauth/access_token",
        "POST https://github.com/login/oauth/access_token", "GET https://api.github.com/user",
      ])
    #expect(transport.sent[3].header("Authorization") == "Bearer gho_injected")
    #expect(clock.slept >= 5, "the poll interval was waited on the injected clock")
    // Stored where the variables say, and read back without the network.
    #expect(try github.freshToken()?.value == "gho_injected")
    #expect(transport.sent.count == 4)
  }

  /// A transport that throws is a network failure, with the request's host in the message.
  @Test func aTransportFailureIsANetworkError() async throws {
    let environment = GitHubLoginEnvironment(variables: variables, transport: Failing(), clock: StepClock())
    let github = try GitHubLogin(
      configuration: GitHubLoginConfiguration(clientID: "Iv1.seams"), environment: environment)
    do {
      _ = try await github.login(LoginOptions(flow: .device, opensBrowser: false)) { _ in }
      Issue.record("a login without a network succeeded")
    } catch let error as GitHubLoginError {
      #expect(error.kind == .network)
      #expect(error.message.contains("github.com"), "\(error.message)")
    }
  }

  /// `tokenStore: .keyring` chosen in code: with no keyring reachable the login stops before
  /// anything is sent or shown, as a config file's `"store": "keyring"` does.
  @Test func theKeyringChosenInCodeIsCheckedBeforeTheLogin() async throws {
    var app = GitHubLoginConfiguration(clientID: "Iv1.seams")
    app.tokenStore = .keyring
    let transport = Script([])
    var variables = variables
    variables["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + directory.at("no-bus")
    let environment = GitHubLoginEnvironment(variables: variables, transport: transport, clock: StepClock())
    let github = try GitHubLogin(configuration: app, environment: environment)
    let events = Mutex<[LoginEvent]>([])
    do {
      _ = try await github.login(LoginOptions(flow: .device, opensBrowser: false)) { event in
        events.withLock { $0.append(event) }
      }
      Issue.record("a keyring login without a keyring went ahead")
    } catch let error as GitHubLoginError {
      #expect(error.kind == .keyring)
    }
    #expect(transport.sent.isEmpty)
    #expect(events.withLock { $0 }.isEmpty)
  }
}

/// Answers requests in order from a script, recording them.
final class Script: GitHubLoginTransport {
  private let state: Mutex<(answers: [GitHubLoginResponse], sent: [GitHubLoginRequest])>
  init(_ answers: [GitHubLoginResponse]) { state = Mutex((answers, [])) }
  var sent: [GitHubLoginRequest] { state.withLock { $0.sent } }
  func send(_ request: GitHubLoginRequest) throws -> GitHubLoginResponse {
    try state.withLock { state in
      state.sent.append(request)
      guard !state.answers.isEmpty else { throw Exhausted() }
      return state.answers.removeFirst()
    }
  }
  struct Exhausted: Error {}
}

/// A transport with no network.
struct Failing: GitHubLoginTransport {
  struct Unplugged: Error {}
  func send(_ request: GitHubLoginRequest) throws -> GitHubLoginResponse { throw Unplugged() }
}

/// A clock that moves only when slept on.
final class StepClock: GitHubLoginClock {
  private let time = Mutex((now: 1_700_000_000.0, slept: 0.0))
  func now() -> Double { time.withLock { $0.now } }
  func sleep(seconds: Double) {
    time.withLock {
      $0.now += seconds
      $0.slept += seconds
    }
  }
  var slept: Double { time.withLock { $0.slept } }
}
