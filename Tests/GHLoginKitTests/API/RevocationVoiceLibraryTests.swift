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

  /// The app on github.com with a client secret: logout revokes at GitHub's route.
  static let withSecret = GitHubLoginConfiguration(clientID: "Iv1.voice", clientSecret: "s3cret")
  /// A server that is not GitHub, with a client secret and no `revocationURL`.
  static let notGitHub = GitHubLoginConfiguration(
    clientID: "Iv1.voice", clientSecret: "s3cret", host: "git.example.com",
    authorizeURL: "https://git.example.com/oauth/authorize", tokenURL: "https://git.example.com/oauth/token",
    deviceCodeURL: "https://git.example.com/oauth/device", apiURL: "https://git.example.com/api")
  /// A public client revoking at an RFC 7009 endpoint.
  static let rfc7009 = GitHubLoginConfiguration(clientID: "Iv1.voice", revocationURL: "https://github.com/oauth/revoke")

  /// The server's answer to the revocation, and the reason the outcome gives, naming the settings
  /// as the tool sets them: GitHub refusing the app's client ID and secret; a server that is not
  /// GitHub without GitHub's route (the advice names `revocationURL`); an RFC 7009 endpoint's
  /// refusal without a plain error code.
  @Test(arguments: [
    (
      withSecret, 401,
      "token revocation at apiURL https://api.github.com/: github.com refused the clientID and clientSecret "
        + "(HTTP 401); check them in the config"
    ),
    (
      notGitHub, 404,
      "token revocation at apiURL https://git.example.com/api: git.example.com answered HTTP 404: it does not "
        + "offer GitHub's token revocation; for a server with an RFC 7009 revocation endpoint, set revocationURL"
    ),
    (
      rfc7009, 400,
      "token revocation at revocationURL https://github.com/oauth/revoke: github.com refused the revocation "
        + "(HTTP 400); check the revocationURL setting"
    ),
  ])
  func aFailedRevocationNamesTheSettingsByTheirProperties(
    _ configuration: GitHubLoginConfiguration, _ status: Int, _ reason: String
  ) async throws {
    let transport = ScriptedTransport(Self.login)
    let github = try await loggedIn(configuration, transport)
    transport.enqueue(GitHubLoginResponse(status: status))

    let outcome = try await github.logout()
    #expect(outcome.revocation == .failed(reason))
    #expect(VoiceCheck.commandLineWords(inLibraryMessage: reason) == [])
    #expect(!reason.contains("ghlogin"))
    #expect(transport.requests.count == Self.login.count + 1)
    #expect(transport.requests.last?.method != "GET")
  }
}
