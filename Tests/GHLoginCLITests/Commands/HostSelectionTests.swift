import Testing

import GHLoginTestSupport

@testable import GHLoginCLI

/// `--host` on every command: validation (R47), where the default comes from, and exact host
/// matching with no fallback to another host's token (R49).
@Suite struct HostSelectionTests {
  static let commands = [["token"], ["whoami"], ["logout"], ["refresh"], ["switch"], ["status"]]

  /// R47: a bad `--host` is a usage error (exit 2) for every command, before anything is read
  /// or sent.
  @Test(arguments: [
    "github.test@evil.test", "evil.test/github.test", "ghe.test#x", "GHE.test.", "gh\u{0435}.test", "ghe.test\n",
    "https://ghe.test", "ghe test",
  ])
  func invalidHostsAreRefusedEverywhere(host: String) throws {
    let fixture = try LifecycleFixture()
    try fixture.seed(sampleCredential())
    let before = fixture.fileBytes
    for command in Self.commands {
      let run = fixture.run(command + ["--host", host])
      #expect(run.status == .usage, "\(command)")
      #expect(run.stdout.isEmpty)
      #expect(run.stderr.contains("is not a valid GitHub host"), "\(command): \(run.stderr)")
      #expect(!run.stderr.contains("\n\n\n"))
    }
    #expect(fixture.fileBytes == before)
  }

  @Test func anInvalidGHHostIsRefusedToo() throws {
    let fixture = try LifecycleFixture()
    try fixture.seed(sampleCredential())
    let run = fixture.run(["token"], extra: ["GH_HOST": "github.com/evil"])
    #expect(run.status == .usage)
    #expect(run.stdout.isEmpty)
  }

  /// R47: case and the default port are normalised, so they find the same login.
  @Test(arguments: ["GitHub.COM", "github.com:443", "GITHUB.com:443"])
  func normalisedHostsFindTheLogin(host: String) throws {
    let fixture = try LifecycleFixture()
    try fixture.seed(sampleCredential(token: "gho_dotcom"))
    #expect(fixture.run(["token", "--host", host]).stdout == "gho_dotcom\n")
  }

  /// R49: logged in to github.com only; a subdomain or an unrelated host gets nothing, from
  /// any command, and nothing is sent anywhere.
  @Test(arguments: ["tuf-repo.github.com", "gist.evil.test", "github.com:8443", "api.github.com"])
  func noFallbackToAnotherHost(host: String) throws {
    let fixture = try LifecycleFixture()
    try fixture.seed(sampleCredential(token: "gho_dotcom"))
    for command in [["token"], ["whoami"], ["refresh"], ["logout"]] {
      let run = fixture.run(command + ["--host", host], extra: ["GH_TOKEN": "gho_env", "GITHUB_TOKEN": "gho_env"])
      #expect(run.status == .notLoggedIn, "\(command)")
      #expect(run.stdout.isEmpty)
      #expect(!run.stderr.contains("gho_"))
    }
    #expect(try fixture.account()?.token == "gho_dotcom")
  }

  /// The host comes from --host, else GH_HOST, else the config's host, else the one host
  /// logged in to, else github.com.
  @Test func theHostDefaultsInOrder() throws {
    let fixture = try LifecycleFixture(config: #"{"client_id": "Iv1.client", "host": "ghe.test"}"#)
    var credentials = sampleCredentials(sampleCredential(token: "gho_dotcom"))
    credentials.save(sampleCredential(token: "gho_ghe"), on: "ghe.test")
    credentials.save(sampleCredential(token: "gho_other"), on: "other.test:8443")
    try fixture.seed(credentials)
    #expect(fixture.run(["token"]).stdout == "gho_ghe\n")
    #expect(fixture.run(["token"], extra: ["GH_HOST": "other.test:8443"]).stdout == "gho_other\n")
    #expect(
      fixture.run(["token", "--host", "github.com"], extra: ["GH_HOST": "other.test:8443"]).stdout == "gho_dotcom\n")
  }

  @Test func withoutAnyChoiceTheOnlyHostOrGitHubDotComIsUsed() throws {
    let fixture = try LifecycleFixture()
    try fixture.seed(sampleCredential(token: "gho_ghe"), host: "ghe.test")
    #expect(fixture.run(["token"]).stdout == "gho_ghe\n")
    try fixture.seed(Credentials())
    #expect(fixture.run(["token"]).stderr == "ghlogin: not logged in to github.com; run 'ghlogin auth'\n")
  }

  /// An empty GH_HOST counts as unset.
  @Test func anEmptyGHHostIsUnset() throws {
    let fixture = try LifecycleFixture()
    try fixture.seed(sampleCredential(token: "gho_dotcom"))
    #expect(fixture.run(["token"], extra: ["GH_HOST": ""]).stdout == "gho_dotcom\n")
  }

  @Test(arguments: ["auth", "whoami", "token", "status", "logout", "refresh", "switch"])
  func everyLoginCommandTakesHost(command: String) throws {
    let configuration = try #require(GHLogin.command(named: command)).configuration
    #expect(configuration.options.contains { $0.name == "host" })
  }
}
