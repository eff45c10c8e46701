import GHLoginKit
import GHLoginKitTesting
import GHLoginTestSupport
import Testing

/// Issue 31: a logout whose revocation failed says why in the library's voice: the settings by
/// their `GitHubLoginConfiguration` names (`clientID`, `apiURL`, `revocationURL`), never the
/// config file's keys. Driven through the public API, as a tool would.
@Suite struct RevocationVoiceLibraryTests {
  let directory: TemporaryDirectory
  init() throws { directory = try TemporaryDirectory() }

  static let login: [GitHubLoginResponse] = [.deviceCode(interval: 5), .accessToken("ghu_1"), .user()]

  /// A tool logged in with `configuration`; its logout's requests answered by `transport`.
  func loggedIn(_ configuration: GitHubLoginConfiguration, _ transport: ScriptedTransport) async throws
    -> GitHubLogin
  {
    let environment = GitHubLoginEnvironment(
      variables: ["HOME": directory.at("home")], transport: transport, clock: InstantClock())
    let github = try GitHubLogin(configuration: configuration, environment: environment)
    _ = try await github.login(LoginOptions(flow: .device, opensBrowser: false)) { _ in }
    return github
  }

  /// The reason a failed revocation gives, which must name no config key.
  func failure(_ outcome: LogoutOutcome) -> String? {
    guard case .failed(let reason) = outcome.revocation else { return nil }
    #expect(VoiceCheck.commandLineWords(inLibraryMessage: reason) == [], "\(reason)")
    #expect(!reason.contains("ghlogin") && !reason.contains("ghu_") && !reason.contains("s3cret"), "\(reason)")
    return reason
  }

  /// GitHub refuses the app's client ID and secret: the reason names them as the tool sets them.
  @Test func aRefusedAppIsNamedByItsProperties() async throws {
    let transport = ScriptedTransport(Self.login)
    let github = try await loggedIn(GitHubLoginConfiguration(clientID: "Iv1.voice", clientSecret: "s3cret"), transport)
    transport.enqueue(GitHubLoginResponse(status: 401))

    let outcome = try await github.logout()
    #expect(
      failure(outcome)
        == "token revocation at apiURL https://api.github.com/: github.com refused the clientID and clientSecret "
        + "(HTTP 401); check them in the config")
    #expect(transport.requests.last?.method == "DELETE")
  }

  /// A server that is not GitHub has no GitHub revocation route: the advice names `revocationURL`.
  @Test func aServerWithoutGitHubsRouteIsToldOfRevocationURL() async throws {
    let transport = ScriptedTransport(Self.login)
    let configuration = GitHubLoginConfiguration(
      clientID: "Iv1.voice", clientSecret: "s3cret", host: "git.example.com",
      authorizeURL: "https://git.example.com/oauth/authorize", tokenURL: "https://git.example.com/oauth/token",
      deviceCodeURL: "https://git.example.com/oauth/device", apiURL: "https://git.example.com/api")
    let github = try await loggedIn(configuration, transport)
    transport.enqueue(GitHubLoginResponse(status: 404))

    let outcome = try await github.logout()
    #expect(
      failure(outcome)
        == "token revocation at apiURL https://git.example.com/api: git.example.com answered HTTP 404: it does not "
        + "offer GitHub's token revocation; for a server with an RFC 7009 revocation endpoint, set revocationURL")
  }

  /// An RFC 7009 endpoint's refusal without a plain error code: check `revocationURL`.
  @Test func aRefusingRevocationEndpointIsNamedByItsProperty() async throws {
    let transport = ScriptedTransport(Self.login)
    var configuration = GitHubLoginConfiguration(clientID: "Iv1.voice")
    configuration.revocationURL = "https://github.com/oauth/revoke"
    let github = try await loggedIn(configuration, transport)
    transport.enqueue(GitHubLoginResponse(status: 400))

    let outcome = try await github.logout()
    #expect(
      failure(outcome)
        == "token revocation at revocationURL https://github.com/oauth/revoke: github.com refused the revocation "
        + "(HTTP 400); check the revocationURL setting")
  }
}
