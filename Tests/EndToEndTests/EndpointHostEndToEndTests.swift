import Foundation
import Testing

/// R87 through the built binary: a config that points every endpoint at a
/// server but names no `host` logs in to that server, labelled with it, never as github.com.
@Suite struct EndpointHostEndToEndTests {
  @Test func loginIsLabelledWithTheEndpointsHost() async throws {
    let scenario = try await Scenario.start()
    try scenario.sandbox.writeConfig(["host": NSNull()])
    let host = "github.test:\(scenario.fake.port)"
    let (run, browser, _) = try await scenario.login()
    #expect(run.status == 0, "\(run)")
    #expect(
      run.stderr.hasSuffix("Logged in to \(host) as octocat\nTo let git use this login: ghlogin setup-git\n"), "\(run)")
    #expect(!run.stderr.contains("github.com"), "\(run)")
    #expect(browser.callbackBody?.contains("You are logged in to \(host) as octocat.") == true)
    let hosts = scenario.sandbox.credentialsJSON()?["hosts"] as? [String: Any]
    #expect(hosts.map { Array($0.keys) } == [host])
    let token = try await scenario.run(["token"])
    #expect(token.status == 0, "\(token)")
  }

  @Test func endpointsOnSeveralHostsStopBeforeAnythingIsSent() async throws {
    let scenario = try await Scenario.start()
    try scenario.sandbox.writeConfig([
      "host": NSNull(), "token_url": scenario.fake.gheBase + "/login/oauth/access_token",
    ])
    let run = try await scenario.run(["auth", "--no-browser"])
    let fake = scenario.fake
    #expect(run.status == 2, "\(run)")
    #expect(
      run.stderr
        == "ghlogin: \(scenario.sandbox.configFile): the endpoints are not on one host (authorize_url "
        + "github.test:\(fake.port), token_url ghe.test:\(fake.port), device_code_url github.test:\(fake.port), "
        + "api_url api.github.test:\(fake.port)), so the host this login is for is unclear; add \"host\": \"HOST\" "
        + "naming the server that issues the tokens\n")
    expectNothingStored(scenario)
    #expect(try fake.log().isEmpty)
  }
}
