import Testing

import GHLoginTestSupport

@testable import GHLoginCLI

/// Issue 31: a revocation failure keeps its error, and the command line says it in its own voice:
/// the settings by their config keys (`client_id`, `client_secret`), as before the library got
/// its own words for them (RevocationVoiceLibraryTests).
@Suite(.verifiesFakes) struct LogoutRevocationVoiceTests {
  static let token = LogoutRevocationTests.token
  static let gitHubRouteURL = LogoutRevocationTests.gitHubRouteURL

  @Test func aRefusedAppIsNamedByItsConfigKeys() throws {
    let fixture = try LogoutRevocationTests().loggedIn(config: LogoutRevocationTests.config(revocation: false))
    let transport = FakeTransport()
    transport.on("DELETE", Self.gitHubRouteURL, respond: HTTPResponse(status: 401))
    let run = fixture.run(["logout"], transport: transport)
    #expect(run.status == .success)
    #expect(
      run.stderr
        == "ghlogin: warning: could not revoke the token at auth.example.org: token revocation at api_url "
        + "https://auth.example.org/api: auth.example.org refused the client_id and client_secret (HTTP 401); "
        + "check them in the config. The token may still be valid; \(LogoutRevocationTests.byHand)\n"
        + "Logged out of auth.example.org as octocat\n")
    #expect(!run.stderr.contains(Self.token) && !run.stderr.contains("s3cret"))
    #expect(try fixture.load().hosts.isEmpty)
  }

  /// Every revocation failure that names a setting names its config key on the command line.
  @Test(arguments: [
    (
      RevocationError.Kind.clientRejected(403),
      "token revocation at api_url https://api.github.com/: github.com refused the client_id and client_secret "
        + "(HTTP 403); check them in the config"
    ),
    (
      .unusableClientID,
      "the client_id is empty or contains ':', which HTTP Basic authentication cannot carry"
    ),
    (
      .redirect(301),
      "token revocation at api_url https://api.github.com/: github.com answered with a redirect (HTTP 301), which "
        + "is not followed with a token; check the api_url setting"
    ),
    (
      .notOffered,
      "token revocation at api_url https://api.github.com/: github.com answered HTTP 404: it does not offer "
        + "GitHub's token revocation; for a server with an RFC 7009 revocation endpoint, set revocation_url"
    ),
  ])
  func settingsAreNamedByTheirConfigKeys(_ kind: RevocationError.Kind, _ message: String) {
    let step = EndpointStep("token revocation", setting: .apiURL, url: GitHubHost.gitHubDotCom.defaultEndpoints.api)
    #expect(RevocationError(kind, host: .gitHubDotCom, step: step).cliMessage == message)
  }
}
