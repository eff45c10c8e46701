import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// A refused connection names the step, the config key and the URL, and its
/// exit status is the network error's (1), for every step that talks to an endpoint.
@Suite(.verifiesFakes) struct RefusedConnectionTests {
  /// One step: the request it makes, the host refused, the message it must give and the call.
  struct Step: Sendable, CustomTestStringConvertible {
    var name: String
    var method: String
    var url: String
    var host: String
    var message: String
    var run: @Sendable (FakeTransport) throws -> Void
    var testDescription: String { name }
  }

  static let steps: [Step] = [
    Step(
      name: "identity check", method: "GET", url: "https://api.github.com/user", host: "api.github.com",
      message:
        "identity check at api_url https://api.github.com/: could not connect to api.github.com:443: Connection refused"
    ) { transport in
      let host = GitHubHost.gitHubDotCom
      _ = try GitHubAPI(host: host, base: host.defaultEndpoints.api, transport: transport, timeout: 9).user(token: "t")
    },
    Step(
      name: "token revocation", method: "DELETE", url: "https://api.github.com/applications/Iv1.client/token",
      host: "api.github.com",
      message:
        "token revocation at api_url https://api.github.com/: could not connect to api.github.com:443: Connection refused"
    ) { transport in
      _ = try Revocation(
        host: .gitHubDotCom, api: try WebURL(parsing: "https://api.github.com"), clientID: "Iv1.client",
        clientSecret: "the-secret", transport: transport, timeout: 7
      ).revoke(token: "gho_16C7e42F292c6912E7710c838347Ae178B4a")
    },
    Step(
      name: "device code request", method: "POST", url: DeviceStub.codeURL, host: "github.com",
      message:
        "device code request at device_code_url \(DeviceStub.codeURL): could not connect to github.com:443: Connection refused"
    ) { transport in
      let endpoint = TokenEndpoint(
        url: GitHubHost.gitHubDotCom.defaultEndpoints.deviceCode, host: .gitHubDotCom, transport: transport)
      _ = try DeviceFlow.requestCode(app: DeviceStub.app, endpoint: endpoint)
    },
    Step(
      name: "token exchange", method: "POST", url: "https://github.com/login/oauth/access_token", host: "github.com",
      message:
        "token exchange at token_url https://github.com/login/oauth/access_token: could not connect to github.com:443: Connection refused"
    ) { transport in
      _ = try TokenExchange.exchange(
        code: "c",
        request: AuthorizationRequest(state: "state-value", verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
        redirectURI: AuthorizeURL.redirectURI(port: 50123), app: OAuthApp(clientID: "id"),
        endpoint: TokenEndpoint(
          url: try WebURL(parsing: "https://github.com/login/oauth/access_token"), host: .gitHubDotCom,
          transport: transport, timeout: 12))
    },
  ]

  @Test(arguments: steps)
  func aRefusedConnectionNamesTheStepTheKeyAndTheURL(_ step: Step) throws {
    let transport = FakeTransport()
    let refused = HTTPError.connect(host: step.host, port: 443, reason: "Connection refused")
    transport.on(step.method, step.url) { _ in throw refused }
    let error = try #require(throws: EndpointRequestError.self) { try step.run(transport) }
    #expect(error.message == step.message)
    #expect(error.underlying == refused)
    #expect(error.exitStatus == .failure)
    #expect(transport.requests.map { "\($0.method) \($0.url)" } == ["\(step.method) \(step.url)"])
  }
}
