import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// GHLoginCoreTests' `EndpointHostTests` through the commands: the host the endpoints derive.
@Suite struct EndpointHostCommandTests {
  /// Through the commands: the login stored for the derived host is the one `token` uses (not
  /// github.com's), `--host` still wins, and endpoints on several hosts stop with exit 2.
  @Test func commandsUseTheDerivedHost() throws {
    let fixture = try LifecycleFixture(
      config: #"{"client_id": "x", "authorize_url": "https://ghe.test/a", "token_url": "https://ghe.test/t"}"#)
    try fixture.seed(sampleCredentials(host: "github.com", sampleCredential(token: "gho_dotcom0123456789")))
    try fixture.store.store().update { $0.save(sampleCredential(token: "gho_enterprise0123456789"), on: "ghe.test") }
    let run = fixture.run(["token"])
    #expect(run.status == .success, "\(run.stderr)")
    #expect(run.stdout == "gho_enterprise0123456789\n")
    #expect(fixture.run(["token", "--host", "github.com"]).stdout == "gho_dotcom0123456789\n")
  }

  @Test func commandsStopWhenTheEndpointsShareNoHost() throws {
    let fixture = try LifecycleFixture(
      config: #"{"client_id": "x", "authorize_url": "https://a.test/a", "token_url": "https://b.test/t"}"#)
    try fixture.seed(sampleCredential())
    let before = fixture.fileBytes
    for command in [["token"], ["auth", "--no-browser"], ["setup-git"], ["whoami"]] {
      let run = fixture.run(command)
      #expect(run.status == .usage, "\(command): \(run.stderr)")
      #expect(run.stdout.isEmpty)
      #expect(
        run.stderr
          == "ghlogin: \(fixture.store.paths.configFile): the endpoints are not on one host (authorize_url a.test, "
          + "token_url b.test), so the host this login is for is unclear; add \"host\": \"HOST\" naming the server "
          + "that issues the tokens\n", "\(command)")
    }
    #expect(fixture.fileBytes == before)
  }
}
