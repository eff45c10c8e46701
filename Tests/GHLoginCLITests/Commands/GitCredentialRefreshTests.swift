import Testing

import GHLoginTestSupport
@testable import GHLoginCLI

/// `git-credential get` and `env` go through the shared refresh: a token about to expire is
/// renewed and stored before it is handed out (R55, R40–R44).
@Suite(.verifiesFakes) struct GitCredentialRefreshTests {
  typealias Fixture = LifecycleFixture
  let fixture: LifecycleFixture

  init() throws { fixture = try LifecycleFixture() }

  func get(transport: any HTTPTransport = NoNetwork()) -> CommandRun {
    fixture.gitCredentialGet(transport: transport)
  }

  @Test func getRefreshesATokenAboutToExpireAndAnswersTheNewOne() throws {
    try fixture.seed(Fixture.expiring(expiresIn: 60))
    let transport = FakeTransport()
    transport.on("POST", Fixture.tokenURL, respond: Fixture.renewal())
    let run = get(transport: transport)
    #expect(run.status == .success)
    #expect(run.stdout == "username=octocat\npassword=ghu_new\npassword_expiry_utc=1700028800\n")
    #expect(run.stderr.isEmpty)
    #expect(try fixture.account()?.token == "ghu_new")
    #expect(!fixture.fileText.contains("ghu_old"))
  }

  @Test func getUsesATokenWithTimeLeftAsItIs() throws {
    try fixture.seed(Fixture.expiring(expiresIn: 301))
    let run = get()
    #expect(run.stdout == "username=octocat\npassword=ghu_old\npassword_expiry_utc=1700000301\n")
  }

  @Test func getWithADeadRefreshTokenAnswersNothingAndSaysWhy() throws {
    try fixture.seed(Fixture.expiring(expiresIn: -30))
    let transport = FakeTransport()
    transport.on("POST", Fixture.tokenURL, respond: .json(#"{"error":"bad_refresh_token"}"#))
    let run = get(transport: transport)
    #expect(run.status == .success)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == "ghlogin: the session for github.com expired; run 'ghlogin auth'\n")
    #expect(try fixture.account()?.isExpired == true)
  }

  @Test func envRefreshesToo() throws {
    try fixture.seed(Fixture.expiring(expiresIn: 60))
    let transport = FakeTransport()
    transport.on("POST", Fixture.tokenURL, respond: Fixture.renewal())
    let run = fixture.run(["env"], transport: transport)
    #expect(run.status == .success)
    #expect(run.stdout == "export GH_TOKEN='ghu_new'\nexport GITHUB_TOKEN='ghu_new'\n")
  }
}
