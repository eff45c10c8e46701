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
    let events = TestLock<[LoginEvent]>([])
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

/// A keyring given in code (`GitHubLoginEnvironment.keyring`): a login kept in the keyring
/// writes its tokens there and none to the file, reads them back, and logout deletes them; a
/// keyring that cannot be used stops the login before anything is sent.
@Suite struct GitHubLoginKeyringTests {
  let directory: TemporaryDirectory
  init() throws { directory = try TemporaryDirectory() }

  var credentialsText: String {
    let path = directory.at("home") + "/.config/ghlogin/credentials.json"
    return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
  }

  func github(_ keyring: MemoryKeyring, _ transport: Script) throws -> GitHubLogin {
    var app = GitHubLoginConfiguration(clientID: "Iv1.seams")
    app.tokenStore = .keyring
    let environment = GitHubLoginEnvironment(
      variables: ["HOME": directory.at("home")], transport: transport, clock: StepClock(), keyring: keyring)
    return try GitHubLogin(configuration: app, environment: environment)
  }

  static let deviceLogin: [GitHubLoginResponse] = [
    .json(
      #"{"device_code":"dc","user_code":"ABCD-EFGH","verification_uri":"https://github.com/login/device","#
        + #""expires_in":900,"interval":5}"#),
    .json(#"{"access_token":"gho_inTheKeyring","token_type":"bearer","scope":"repo"}"#),
    .json(#"{"login":"octocat","id":7}"#, headers: [("X-OAuth-Scopes", "repo")]),
  ]

  @Test func aKeyringLoginKeepsItsTokensInTheGivenKeyring() async throws {
    let keyring = MemoryKeyring()
    let github = try github(keyring, Script(Self.deviceLogin))
    let outcome = try await github.login(LoginOptions(flow: .device, opensBrowser: false)) { _ in }
    #expect(outcome.token.value == "gho_inTheKeyring")
    let item = try #require(keyring.items.keys.first)
    #expect(keyring.items.count == 1)
    #expect(keyring.items[item] == "gho_inTheKeyring")
    #expect(item.kind == .accessToken && item.login == "octocat" && item.userID == 7 && item.host == "github.com")
    #expect(
      item.attributes == [
        "application": "ghlogin", "host": "github.com", "login": "octocat", "user_id": "7", "kind": "access_token",
        "client_id": "Iv1.seams",
      ])
    #expect(item.clientID == "Iv1.seams")
    #expect(item.label == "ghlogin: token for octocat on github.com")
    #expect(credentialsText.contains("\"store\": \"keyring\"") || credentialsText.contains("\"store\":\"keyring\""))
    #expect(!credentialsText.contains("gho_inTheKeyring"), "the token is in the file too")
    #expect(try github.freshToken()?.value == "gho_inTheKeyring")
    _ = try await github.logout(revoke: false)
    #expect(keyring.items.isEmpty)
  }

  @Test(arguments: [
    (GitHubLoginKeyringError.locked, "locked"), (.unavailable(reason: "no daemon here"), "no daemon here"),
    (.failed(reason: "disk full"), "disk full"),
  ])
  func aKeyringThatCannotBeUsedStopsTheLoginBeforeAnythingIsSent(
    _ failure: GitHubLoginKeyringError, _ said: String
  ) async throws {
    let keyring = MemoryKeyring(failing: failure)
    let transport = Script(Self.deviceLogin)
    let github = try github(keyring, transport)
    do {
      _ = try await github.login(LoginOptions(flow: .device, opensBrowser: false)) { _ in }
      Issue.record("the login went ahead")
    } catch let error as GitHubLoginError {
      #expect(error.kind == .keyring)
      #expect(error.message.contains(said), "\(error.message)")
    }
    #expect(transport.sent.isEmpty)
    #expect(keyring.items.isEmpty)
    #expect(credentialsText.isEmpty)
  }

  /// An error of the keyring's own type is a keyring failure naming the operation.
  @Test func anyOtherErrorIsAKeyringFailure() async throws {
    struct Broken: Error, CustomStringConvertible { var description: String { "the vault is on fire" } }
    let keyring = MemoryKeyring(failingWrites: Broken())
    let github = try github(keyring, Script(Self.deviceLogin))
    do {
      _ = try await github.login(LoginOptions(flow: .device, opensBrowser: false)) { _ in }
      Issue.record("the login went ahead")
    } catch let error as GitHubLoginError {
      #expect(error.kind == .keyring)
      #expect(error.message.contains("the vault is on fire"), "\(error.message)")
      #expect(error.message.contains("octocat"), "\(error.message)")
      #expect(!error.message.contains("gho_inTheKeyring"))
    }
    #expect(keyring.items.isEmpty)
    #expect(!credentialsText.contains("octocat"))
  }
}

/// A keyring in memory, as a tool's test would write one.
final class MemoryKeyring: GitHubLoginKeyring {
  private let state = TestLock<[GitHubLoginKeyringItem: String]>([:])
  let failure: GitHubLoginKeyringError?
  let writeFailure: (any Error)?
  init(failing failure: GitHubLoginKeyringError? = nil, failingWrites writeFailure: (any Error)? = nil) {
    self.failure = failure
    self.writeFailure = writeFailure
  }
  var items: [GitHubLoginKeyringItem: String] { state.withLock { $0 } }
  func checkUsable() throws { if let failure { throw failure } }
  func read(_ item: GitHubLoginKeyringItem) throws -> String? { state.withLock { $0[item] } }
  func write(_ secret: String, to item: GitHubLoginKeyringItem) throws {
    if let writeFailure { throw writeFailure }
    state.withLock { $0[item] = secret }
  }
  func delete(_ item: GitHubLoginKeyringItem, holding secret: String) throws {
    state.withLock { if $0[item] == secret { $0[item] = nil } }
  }
}

/// Answers requests in order from a script, recording them.
final class Script: GitHubLoginTransport {
  private let state: TestLock<(answers: [GitHubLoginResponse], sent: [GitHubLoginRequest])>
  init(_ answers: [GitHubLoginResponse]) { state = TestLock((answers, [])) }
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
  private let time = TestLock((now: 1_700_000_000.0, slept: 0.0))
  func now() -> Double { time.withLock { $0.now } }
  func sleep(seconds: Double) {
    time.withLock {
      $0.now += seconds
      $0.slept += seconds
    }
  }
  var slept: Double { time.withLock { $0.slept } }
}
