import Testing

import GHLoginTestSupport
@testable import GHLoginKit

/// ``AccessToken/apiURL`` is the REST API base the library itself calls for the token's host
/// (``Workspace/endpoints(for:)``): the host's default, or the configured `api_url`.
@Suite(.verifiesFakes) struct AccessTokenAPIURLTests {
  let fixture: StoreFixture
  let transport = FakeTransport()

  init() throws { fixture = try StoreFixture() }

  func environment(_ extra: [String: String] = [:]) -> Environment {
    var variables = ["HOME": fixture.home]
    variables.merge(extra) { _, new in new }
    let transport = transport
    return Environment(
      arguments: [], variables: EnvironmentVariables(variables), stdout: BufferOutput(), stderr: BufferOutput(),
      stdin: BufferInput(""),
      clock: ManualClock(), browser: RecordingBrowser(), transport: { _ in transport })
  }

  /// The stored token of `host`, read through `github`.
  func token(on host: String, with github: GitHubLogin) async throws -> AccessToken {
    _ = try fixture.store().update { $0.save(sampleCredential(), on: host) }
    return try await github.token(host: host)
  }

  @Test(arguments: [
    ("github.com", "https://api.github.com"),
    ("ghe.example.com", "https://ghe.example.com/api/v3"),
    ("octocorp.ghe.com", "https://api.octocorp.ghe.com"),
  ])
  func defaultAPIOfTheHost(host: String, api: String) async throws {
    let token = try await token(on: host, with: GitHubLogin(environment: environment()))
    #expect(token.host == host)
    #expect(token.apiURL == api)
    #expect(transport.requests.isEmpty)
  }

  /// A config file's `api_url` for the host, given with a trailing slash, is what the token says.
  @Test func configuredAPIURL() async throws {
    let config = fixture.home + "/config.json"
    let host = #""ghe.example.com": {"client_id": "Iv1.0123456789abcdef", "api_url": "https://ghe.example.com/rest/"}"#
    try writeFile(config, #"{"hosts": {"# + host + "}}")
    let github = try GitHubLogin(environment: environment(["GHLOGIN_CONFIG": config]))
    #expect(try await token(on: "ghe.example.com", with: github).apiURL == "https://ghe.example.com/rest")
    #expect(try await token(on: "github.com", with: github).apiURL == "https://api.github.com")
  }

  /// A library configuration's `apiURL` is used for its host.
  @Test func apiURLOfALibraryConfiguration() async throws {
    let app = GitHubLoginConfiguration(
      clientID: "Iv1.0123456789abcdef", host: "ghe.example.com", apiURL: "https://api.ghe.example.com/v3")
    let github = try GitHubLogin(environment: environment(), configuration: app)
    #expect(try await token(on: "ghe.example.com", with: github).apiURL == "https://api.ghe.example.com/v3")
  }
}
