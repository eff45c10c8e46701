import Foundation
import GHLoginKit
import Synchronization
import Testing
import WhoAmICore

/// The tool's login code, tested the way GHLoginKit lets any tool test its own: a scripted
/// GitHub as the library's transport, a clock that never waits, a private HOME for the store.
@Suite struct WhoAmITests {
  static let app = GitHubLoginConfiguration(clientID: "Iv1.example", scopes: ["read:user"])
  let home: String

  init() throws {
    home = FileManager.default.temporaryDirectory.appendingPathComponent("whoami-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
  }

  func github(_ transport: ScriptedGitHub) throws -> GitHubLogin {
    let environment = GitHubLoginEnvironment(
      variables: ["HOME": home], transport: transport, clock: InstantClock(), browser: NoBrowser())
    return try GitHubLogin(configuration: Self.app, environment: environment)
  }

  @Test func logsInWithACodeThenAsksTheAPIAtTheTokensBaseURL() async throws {
    let github = ScriptedGitHub()
    let api = RecordingAPI(answer: #"{"login":"octocat","name":"The Octocat"}"#)
    let shown = Lines()
    let tool = WhoAmI(github: try self.github(github), api: api) { shown.append($0) }

    #expect(try await tool.run() == "octocat (The Octocat)")
    #expect(shown.all.contains { $0.contains("WDJB-MJHT") }, "the one-time code was shown")
    #expect(
      github.requests.map { "\($0.method) \($0.url)" } == [
        "POST https://github.com/login/device/code",
        "POST https://github.com/login/oauth/access_token",
        "GET https://api.github.com/user",
      ])
    #expect(github.requests[0].bodyText.contains("client_id=Iv1.example"))
    #expect(api.calls == ["https://api.github.com/user with gho_example"])
  }

  @Test func aStoredLoginNeedsNoServer() async throws {
    let first = ScriptedGitHub()
    _ = try await WhoAmI(github: try github(first), api: RecordingAPI(answer: #"{"login":"octocat"}"#)) { _ in }.run()

    let second = ScriptedGitHub()
    let api = RecordingAPI(answer: #"{"login":"octocat"}"#)
    #expect(try await WhoAmI(github: try github(second), api: api) { _ in }.run() == "octocat")
    #expect(second.requests.isEmpty, "the token came from the store")
    #expect(api.calls == ["https://api.github.com/user with gho_example"])
  }

  @Test func aDeniedLoginIsDenied() async throws {
    let github = ScriptedGitHub(deny: true)
    let tool = WhoAmI(github: try self.github(github), api: RecordingAPI(answer: "{}")) { _ in }
    await #expect {
      _ = try await tool.run()
    } throws: { error in
      (error as? GitHubLoginError)?.kind == .denied
    }
  }
}

/// GitHub's device flow and `/user`, answered from a script; records every request.
final class ScriptedGitHub: GitHubLoginTransport {
  private let recorded = Mutex<[GitHubLoginRequest]>([])
  let deny: Bool
  init(deny: Bool = false) { self.deny = deny }

  var requests: [GitHubLoginRequest] { recorded.withLock { $0 } }

  func send(_ request: GitHubLoginRequest) throws -> GitHubLoginResponse {
    recorded.withLock { $0.append(request) }
    switch (request.method, request.url) {
    case ("POST", "https://github.com/login/device/code"):
      return .json(
        #"{"device_code":"dc-1","user_code":"WDJB-MJHT","verification_uri":"https://github.com/login/device","#
          + #""expires_in":900,"interval":5}"#)
    case ("POST", "https://github.com/login/oauth/access_token"):
      if deny { return .json(#"{"error":"access_denied","error_description":"denied"}"#) }
      return .json(#"{"access_token":"gho_example","token_type":"bearer","scope":"read:user"}"#)
    case ("GET", "https://api.github.com/user"):
      return .json(#"{"login":"octocat","id":1}"#, headers: [("X-OAuth-Scopes", "read:user")])
    default:
      return .json(#"{"message":"Not Found"}"#, status: 404)
    }
  }
}

/// A clock whose waits pass at once.
final class InstantClock: GitHubLoginClock {
  private let time = Mutex(1_700_000_000.0)
  func now() -> Double { time.withLock { $0 } }
  func sleep(seconds: Double) { time.withLock { $0 += seconds } }
}

/// No browser: the tests never open one.
struct NoBrowser: GitHubLoginBrowser {
  struct NotHere: Error {}
  func open(_ url: String) throws { throw NotHere() }
}

/// The tool's API client, recording what it was asked.
final class RecordingAPI: APIClient {
  private let recorded = Mutex<[String]>([])
  let answer: String
  init(answer: String) { self.answer = answer }
  var calls: [String] { recorded.withLock { $0 } }
  func get(_ url: String, bearer token: String) async throws -> Data {
    recorded.withLock { $0.append("\(url) with \(token)") }
    return Data(answer.utf8)
  }
}

/// Lines shown, collected.
final class Lines: Sendable {
  private let lines = Mutex<[String]>([])
  func append(_ line: String) { lines.withLock { $0.append(line) } }
  var all: [String] { lines.withLock { $0 } }
}
