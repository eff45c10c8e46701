import Testing

import GHLoginTestSupport

@testable import GHLoginCore

@Suite struct AuthorizeURLTests {
  let request = AuthorizationRequest(state: "STATE-_abc", verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")

  /// R2, R15, R19: every parameter present, percent-encoded, redirect on 127.0.0.1 with the exact
  /// port.
  @Test func containsEveryParameterEncoded() throws {
    let app = OAuthApp(clientID: "Iv1.abc", scopes: ["repo", "read:org", "gist"])
    let url = try AuthorizeURL.build(
      endpoint: GitHubHost.gitHubDotCom.defaultEndpoints.authorize, app: app,
      redirectURI: AuthorizeURL.redirectURI(port: 54321), request: request)
    #expect(
      url.description
        == "https://github.com/login/oauth/authorize?response_type=code&client_id=Iv1.abc"
        + "&redirect_uri=http%3A%2F%2F127.0.0.1%3A54321%2Fcallback&scope=repo%20read%3Aorg%20gist"
        + "&state=STATE-_abc&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256")
    let query = try #require(url.pathAndQuery.split(separator: "?", maxSplits: 1).last)
    let pairs = try FormEncoding.decode(query)
    #expect(
      pairs.map(\.name) == [
        "response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge", "code_challenge_method",
      ])
    #expect(pairs[0].value == "code", "R85: RFC 6749 §4.1.1 makes response_type required")
    #expect(pairs.first { $0.name == "redirect_uri" }?.value == "http://127.0.0.1:54321/callback")
    #expect(!url.description.contains("localhost"))
    #expect(!url.description.contains(request.verifier))
  }

  /// R19: values that try to add parameters stay inside their own parameter.
  @Test(arguments: ["evil&redirect_uri=https://evil.test", "a b#c", "x%26y=z", "\r\nHost: evil"])
  func injectionAttemptsStayEncoded(value: String) throws {
    let app = OAuthApp(clientID: "id&scope=admin", scopes: ["repo&x=y"])
    let url = try AuthorizeURL.build(
      endpoint: GitHubHost.gitHubDotCom.defaultEndpoints.authorize, app: app,
      redirectURI: AuthorizeURL.redirectURI(port: 1), request: request, login: value)
    let query = try #require(url.pathAndQuery.split(separator: "?", maxSplits: 1).last)
    let pairs = try FormEncoding.decode(query)
    #expect(
      pairs.map(\.name) == [
        "response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge", "code_challenge_method",
        "login",
      ])
    #expect(pairs[1].value == "id&scope=admin")
    #expect(pairs[3].value == "repo&x=y")
    #expect(pairs[7].value == value)
    #expect(!url.pathAndQuery.contains("#"))
    #expect(!url.pathAndQuery.contains(" "))
  }

  @Test func noScopeParameterWhenNoScopes() throws {
    let url = try AuthorizeURL.build(
      endpoint: GitHubHost.gitHubDotCom.defaultEndpoints.authorize, app: OAuthApp(clientID: "x"),
      redirectURI: AuthorizeURL.redirectURI(port: 1), request: request)
    #expect(!url.pathAndQuery.contains("scope="))
  }

  @Test func keepsAQueryInTheConfiguredEndpoint() throws {
    let endpoint = try WebURL(parsing: "https://ghe.test/login/oauth/authorize?tenant=a")
    let url = try AuthorizeURL.build(
      endpoint: endpoint, app: OAuthApp(clientID: "x"), redirectURI: AuthorizeURL.redirectURI(port: 1), request: request
    )
    #expect(url.pathAndQuery.hasPrefix("/login/oauth/authorize?tenant=a&response_type=code&client_id=x&"))
  }

  @Test func plainHTTPAllowedOnlyForLoopback() throws {
    let loopback = try WebURL(parsing: "http://127.0.0.1:9999/login/oauth/authorize")
    let url = try AuthorizeURL.build(
      endpoint: loopback, app: OAuthApp(clientID: "x"), redirectURI: AuthorizeURL.redirectURI(port: 1), request: request
    )
    #expect(url.description.hasPrefix("http://127.0.0.1:9999/login/oauth/authorize?response_type=code&client_id=x"))
    let remote = try WebURL(parsing: "http://github.test/login/oauth/authorize")
    #expect(throws: InsecureEndpointError(url: remote)) {
      try AuthorizeURL.build(
        endpoint: remote, app: OAuthApp(clientID: "x"), redirectURI: AuthorizeURL.redirectURI(port: 1), request: request
      )
    }
  }

  /// R14: schemes other than http(s) can never become an authorize endpoint.
  @Test(arguments: ["javascript:alert(1)", "file:///etc/passwd", "ftp://github.test/x", "data:text/html,x", "HTTPS//x"])
  func nonWebSchemesDoNotParse(text: String) {
    #expect(throws: WebURL.ParseError.self) { try WebURL(parsing: text) }
  }
}
