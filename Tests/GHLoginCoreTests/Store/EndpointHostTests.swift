import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// R87: the host a login is for is explicit or the one its endpoints share,
/// never github.com by default when the endpoints say otherwise.
@Suite struct EndpointHostTests {
  private func config(_ text: String) throws -> Config {
    try Config.parse(bytes: Array(text.utf8), file: "FILE", variables: [:])
  }

  @Test func sharedHostWithPortIsTheHost() throws {
    let config = try config(
      #"{"client_id": "x", "authorize_url": "https://sso.example:8443/oauth/authorize", "token_url": "https://sso.example:8443/oauth/token"}"#
    )
    #expect(config.endpointHost == .success("sso.example:8443"))
    #expect(config.defaultHost == "sso.example:8443")
    let settings = config.settings(for: "sso.example:8443")
    #expect(settings.tokenURL?.description == "https://sso.example:8443/oauth/token", "top-level endpoints apply to it")
  }

  /// Endpoints derived for the host come from that host, never from github.com.
  @Test func derivedEndpointsComeFromTheDerivedHost() throws {
    let config = try config(
      #"{"client_id": "x", "authorize_url": "https://ghe.test/login/oauth/authorize", "token_url": "https://ghe.test/login/oauth/access_token"}"#
    )
    let host = try GitHubHost(validating: config.defaultHost)
    let settings = config.settings(for: host.name)
    let endpoints = Endpoints(
      host: host, authorize: settings.authorizeURL, token: settings.tokenURL, deviceCode: settings.deviceCodeURL,
      api: settings.apiURL)
    #expect(endpoints.deviceCode.description == "https://ghe.test/login/device/code")
    #expect(endpoints.api.description == "https://ghe.test/api/v3")
  }

  @Test(arguments: [
    #"{"authorize_url": "https://ghe.test/a", "token_url": "https://ghe.test/t", "api_url": "https://api.ghe.test"}"#,
    #"{"authorize_url": "https://ghe.test/a", "token_url": "https://ghe.test/t", "api_url": "https://ghe.test/api/v3"}"#,
    #"{"authorize_url": "https://ghe.test/a", "token_url": "https://ghe.test/t", "device_code_url": "https://ghe.test/d"}"#,
  ])
  func apiOnTheHostOrItsAPISubdomainFits(text: String) throws {
    #expect(try config(text).endpointHost == .success("ghe.test"))
  }

  @Test(arguments: [
    (
      #"{"authorize_url": "https://a.test/a", "token_url": "https://b.test/t"}"#,
      "authorize_url a.test, token_url b.test"
    ),
    (
      #"{"token_url": "https://ghe.test/t"}"#,
      "authorize_url github.com (github.com's default), token_url ghe.test"
    ),
    (
      #"{"authorize_url": "https://ghe.test/a", "token_url": "https://ghe.test:8443/t"}"#,
      "authorize_url ghe.test, token_url ghe.test:8443"
    ),
    (
      #"{"authorize_url": "https://ghe.test/a", "token_url": "https://ghe.test/t", "device_code_url": "https://x.test/d"}"#,
      "authorize_url ghe.test, token_url ghe.test, device_code_url x.test"
    ),
    (
      #"{"authorize_url": "https://ghe.test/a", "token_url": "https://ghe.test/t", "api_url": "https://api.github.com"}"#,
      "authorize_url ghe.test, token_url ghe.test, api_url api.github.com"
    ),
  ])
  func endpointsOnSeveralHostsNeedAHost(text: String, endpoints: String) throws {
    let config = try config(text)
    guard case .failure(let error)? = config.endpointHost, case .ambiguousHost(let file, _) = error else {
      Issue.record("no ambiguous host: \(String(describing: config.endpointHost))")
      return
    }
    #expect(file == "FILE")
    #expect(
      error.message
        == "FILE: the endpoints are not on one host (\(endpoints)), so the host this login is for is unclear; "
        + "add \"host\": \"HOST\" naming the server that issues the tokens")
    #expect(error.exitStatus == .usage)
  }

  @Test func anExplicitHostWins() throws {
    let config = try config(
      #"{"host": "github.com", "authorize_url": "https://a.test/a", "token_url": "https://b.test/t"}"#)
    #expect(config.endpointHost == nil)
    #expect(config.defaultHost == "github.com")
    #expect(try self.config(#"{"client_id": "x"}"#).endpointHost == nil, "no endpoint overridden")
  }

}
