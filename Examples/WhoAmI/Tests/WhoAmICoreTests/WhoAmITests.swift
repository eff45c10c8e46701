import Foundation
import GHLoginKit
import GHLoginKitTesting
import Synchronization
import Testing
import WhoAmICore

/// The tool's login code, tested the way GHLoginKit lets any tool test its own: GitHub's answers
/// scripted as the library's transport, a clock that never waits (both from GHLoginKitTesting),
/// a private HOME for the store.
@Suite struct WhoAmITests {
  static let app = GitHubLoginConfiguration(clientID: "Iv1.example", scopes: ["read:user"])
  let home: String

  init() throws {
    home = FileManager.default.temporaryDirectory.appendingPathComponent("whoami-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
  }

  func github(_ transport: ScriptedTransport) throws -> GitHubLogin {
    let environment = GitHubLoginEnvironment(variables: ["HOME": home], transport: transport, clock: InstantClock())
    return try GitHubLogin(configuration: Self.app, environment: environment)
  }

  /// GitHub's side of a device login: the code, the token, then `/user`.
  static let deviceLogin: [GitHubLoginResponse] = [
    .deviceCode(userCode: "WDJB-MJHT"), .accessToken("gho_example", scope: "read:user"),
    .user(login: "octocat", scopes: "read:user"),
  ]

  @Test func logsInWithACodeThenAsksTheAPIAtTheTokensBaseURL() async throws {
    let github = ScriptedTransport(Self.deviceLogin)
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
    let first = ScriptedTransport(Self.deviceLogin)
    _ = try await WhoAmI(github: try github(first), api: RecordingAPI(answer: #"{"login":"octocat"}"#)) { _ in }.run()

    let second = ScriptedTransport()
    let api = RecordingAPI(answer: #"{"login":"octocat"}"#)
    #expect(try await WhoAmI(github: try github(second), api: api) { _ in }.run() == "octocat")
    #expect(second.requests.isEmpty, "the token came from the store")
    #expect(api.calls == ["https://api.github.com/user with gho_example"])
  }

  @Test func aDeniedLoginIsDenied() async throws {
    let github = ScriptedTransport([.deviceCode(), .oauthError("access_denied", description: "denied")])
    let tool = WhoAmI(github: try self.github(github), api: RecordingAPI(answer: "{}")) { _ in }
    await #expect {
      _ = try await tool.run()
    } throws: { error in
      (error as? GitHubLoginError)?.kind == .denied
    }
  }
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
