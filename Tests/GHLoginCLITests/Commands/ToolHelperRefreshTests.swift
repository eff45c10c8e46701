import Testing

import GHLoginTestSupport
@testable import GHLoginCLI

/// `docker-credential-ghlogin get` and `goauth` go through the same refresh as `token`: a token
/// about to expire is renewed and stored before it is handed out; a dead session is "not found"
/// (R104, R40–R44).
@Suite(.verifiesFakes) struct ToolHelperRefreshTests {
  typealias Fixture = LifecycleFixture
  let fixture: LifecycleFixture

  init() throws { fixture = try LifecycleFixture() }

  func run(_ arguments: [String], stdin: String, viaLink: Bool, transport: any HTTPTransport) -> CommandRun {
    let out = BufferOutput()
    let err = BufferOutput()
    var environment = Environment(
      arguments: arguments, variables: EnvironmentVariables(fixture.variables), stdout: out, stderr: err,
      stdin: BufferInput(stdin),
      clock: fixture.clock, browser: RecordingBrowser(), transport: { _ in transport })
    if viaLink { environment.programName = "docker-credential-ghlogin" }
    return CommandRun(status: GHLogin.main(environment: environment), stdout: out.text, stderr: err.text)
  }

  @Test func dockerGetRefreshesATokenAboutToExpire() throws {
    try fixture.seed(Fixture.expiring(expiresIn: 60))
    let transport = FakeTransport()
    transport.on("POST", Fixture.tokenURL, respond: Fixture.renewal())
    let result = run(["get"], stdin: "ghcr.io", viaLink: true, transport: transport)
    #expect(result.status == .success)
    #expect(result.stdout == #"{"ServerURL":"ghcr.io","Username":"octocat","Secret":"ghu_new"}"# + "\n")
    #expect(try fixture.account()?.token == "ghu_new")
  }

  @Test func dockerGetWithADeadSessionIsNotFound() throws {
    try fixture.seed(Fixture.expiring(expiresIn: -30))
    let transport = FakeTransport()
    transport.on("POST", Fixture.tokenURL, respond: .json(#"{"error":"bad_refresh_token"}"#))
    let result = run(["get"], stdin: "ghcr.io", viaLink: true, transport: transport)
    #expect(result.status == .failure)
    #expect(result.stdout == "credentials not found in native keychain\n")
    #expect(result.stderr.contains("the session for github.com expired; run 'ghlogin auth'"))
    #expect(!result.stderr.contains("ghu_old"))
  }

  @Test func goauthRefreshesToo() throws {
    try fixture.seed(Fixture.expiring(expiresIn: 60))
    let transport = FakeTransport()
    transport.on("POST", Fixture.tokenURL, respond: Fixture.renewal())
    let result = run(
      ["goauth", "https://github.com/octocat/private/@v/list"], stdin: "", viaLink: false, transport: transport)
    let basic = Crypto.base64(Array("octocat:ghu_new".utf8))
    #expect(result.stdout == "https://github.com/\n\nAuthorization: Basic \(basic)\n\n")
    #expect(result.status == .success)
  }
}
