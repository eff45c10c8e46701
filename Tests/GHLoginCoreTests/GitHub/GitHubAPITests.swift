import Testing

import GHLoginTestSupport

@testable import GHLoginCore

@Suite(.verifiesFakes) struct GitHubAPITests {
  static let userURL = "https://api.github.com/user"
  static let body = #"{"login":"octocat","id":583231,"name":"The Octocat","email":null,"type":"User"}"#

  private func api(_ transport: FakeTransport, host: GitHubHost = .gitHubDotCom) -> GitHubAPI {
    GitHubAPI(host: host, base: host.defaultEndpoints.api, transport: transport, timeout: 9)
  }

  /// The step `user(token:)` names in its errors.
  static let identityCheck = EndpointStep(
    "identity check", setting: .apiURL, url: GitHubHost.gitHubDotCom.defaultEndpoints.api)

  /// What `user(token:)` throws: the error, naming the identity check.
  private func error(_ kind: GitHubAPIError.Kind) -> GitHubAPIError {
    GitHubAPIError(kind, host: .gitHubDotCom, path: "/user", step: Self.identityCheck)
  }

  @Test func fetchesTheUserWithTheRightHeaders() throws {
    let transport = FakeTransport()
    transport.on("GET", Self.userURL, respond: .json(Self.body, headers: [("X-OAuth-Scopes", "repo, read:org, gist")]))
    let user = try api(transport).user(token: "gho_token")
    #expect(
      user
        == GitHubUser(
          login: "octocat", id: 583231, name: "The Octocat", grantedScopes: ["repo", "read:org", "gist"],
          rawJSON: Array(Self.body.utf8)))
    let sent = try #require(transport.requests.first)
    #expect(sent.method == "GET")
    #expect(sent.headers["Authorization"] == "Bearer gho_token")
    #expect(sent.headers["Accept"] == "application/vnd.github+json")
    #expect(sent.headers["X-GitHub-Api-Version"] == "2022-11-28")
    // The transport adds User-Agent (HTTPClient, HTTPWriterTests): the API layer knows no version.
    #expect(sent.headers["User-Agent"] == nil)
    #expect(sent.body.isEmpty)
    #expect(transport.timeoutsSent == [9])
  }

  /// R48: the Enterprise Server API lives under /api/v3.
  @Test func enterpriseServerUserURL() throws {
    let transport = FakeTransport()
    transport.on("GET", "https://ghe.test/api/v3/user", respond: .json(Self.body))
    let user = try api(transport, host: try GitHubHost(validating: "ghe.test")).user(token: "t")
    #expect(user.login == "octocat")
    #expect(user.grantedScopes == nil)
  }

  @Test func emptyScopesHeaderMeansNoScopes() throws {
    let transport = FakeTransport()
    transport.on("GET", Self.userURL, respond: .json(Self.body, headers: [("X-OAuth-Scopes", "")]))
    #expect(try api(transport).user(token: "t").grantedScopes == [])
  }

  /// R83: control characters never reach the terminal.
  @Test func sanitizesLoginAndName() throws {
    let transport = FakeTransport()
    let body = #"{"login":"oct\u001b[31mocat","id":1,"name":"Evil\u001b]0;x\u0007 Name","email":"a@b.c"}"#
    transport.on("GET", Self.userURL, respond: .json(body))
    let user = try api(transport).user(token: "t")
    #expect(user.login == "oct[31mocat")
    #expect(user.name == "Evil]0;x Name")
    #expect(user.email == "a@b.c")
    #expect(user.rawJSON == Array(body.utf8))
  }

  @Test func tokenRejectedIsExitFour() throws {
    let transport = FakeTransport()
    transport.on("GET", Self.userURL, respond: .json(#"{"message":"Bad credentials"}"#, status: 401))
    #expect(throws: error(.tokenRejected)) { try api(transport).user(token: "t") }
    #expect(error(.tokenRejected).exitStatus == .notLoggedIn)
  }

  /// R74: a token that cannot be a header value is never sent.
  @Test(arguments: ["a\r\nX: y", "a b", "", "tök"])
  func unusableTokenIsNotSent(token: String) {
    let transport = FakeTransport()
    #expect(throws: error(.unusableToken)) { try api(transport).user(token: token) }
    #expect(transport.requests.isEmpty)
  }

  /// R75: same-origin redirects are followed with the token.
  @Test func followsSameOriginRedirects() throws {
    let transport = FakeTransport()
    transport.on("GET", Self.userURL, respond: .json("", status: 301, headers: [("Location", "/user2")]))
    transport.on(
      "GET", "https://api.github.com/user2",
      respond: .json("", status: 307, headers: [("Location", "https://api.github.com:443/user3")]))
    transport.on(
      "GET", "https://api.github.com/user3",
      respond: .json("", status: 302, headers: [("Location", "//api.github.com/user4")]))
    transport.on("GET", "https://api.github.com/user4", respond: .json(Self.body))
    #expect(try api(transport).user(token: "t").login == "octocat")
    #expect(transport.requests.allSatisfy { $0.headers["Authorization"] == "Bearer t" })
  }

  @Test func stopsAfterThreeRedirects() {
    let transport = FakeTransport()
    transport.on("GET", Self.userURL, times: 4, respond: .json("", status: 302, headers: [("Location", "/user")]))
    #expect(throws: error(.tooManyRedirects)) { try api(transport).user(token: "t") }
    #expect(transport.requests.count == 4)
  }

  /// R75: a redirect to another host, port or scheme is not followed; nothing is sent there.
  @Test(arguments: [
    ("https://evil.test/user", "https://evil.test"),
    ("https://api.github.com:8443/user", "https://api.github.com:8443"),
    ("http://api.github.com/user", "http://api.github.com"),
    ("//evil.test/user", "https://evil.test"),
    ("https://github.com/user", "https://github.com"),
  ])
  func crossOriginRedirectIsNotFollowed(location: String, shown: String) {
    let transport = FakeTransport()
    transport.on("GET", Self.userURL, respond: .json("", status: 302, headers: [("Location", location)]))
    #expect(throws: error(.crossOriginRedirect(to: shown))) { try api(transport).user(token: "t") }
    #expect(transport.requests.count == 1)
    #expect(transport.unexpected.isEmpty)
  }

  @Test(arguments: [
    [], [("Location", "")], [("Location", "user2")], [("Location", "https://x y/")],
    [("Location", "javascript:alert(1)")],
  ])
  func unusableRedirects(headers: [(String, String)]) {
    let transport = FakeTransport()
    transport.on("GET", Self.userURL, respond: .json("", status: 302, headers: headers))
    #expect(throws: error(.badRedirect)) { try api(transport).user(token: "t") }
  }

  @Test(arguments: [
    (
      HTTPResponse.json(
        #"{"message":"API rate limit exceeded"}"#, status: 403, headers: [("x-ratelimit-remaining", "0")]),
      GitHubAPIError.Kind.forbidden(status: 403, rateLimited: true)
    ),
    (.json(#"{}"#, status: 429), .forbidden(status: 429, rateLimited: true)),
    (.json(#"{}"#, status: 403, headers: [("Retry-After", "60")]), .forbidden(status: 403, rateLimited: true)),
    (
      .json(#"{}"#, status: 403, headers: [("x-ratelimit-remaining", "4999")]),
      .forbidden(status: 403, rateLimited: false)
    ),
    (.json(#"{}"#, status: 404), .httpStatus(404)),
    (.typed("text/html", "<html>", status: 502), .httpStatus(502)),
    (.json(#"{}"#, status: 304), .httpStatus(304)),
    (.typed("text/html", "<html>login</html>"), .unexpectedContentType("text/html")),
    (.typed(nil, Self.body), .unexpectedContentType(nil)),
    (.json("<html>"), .malformed("invalid JSON at line 1, column 1")),
    (.json("[]"), .malformed("the JSON is not an object")),
    (.json(#"{"id":1}"#), .malformed("login is missing or not a string")),
    (.json(#"{"login":7,"id":1}"#), .malformed("login is missing or not a string")),
    (.json(#"{"login":"","id":1}"#), .malformed("login is empty or has spaces")),
    (.json(#"{"login":"\u001b","id":1}"#), .malformed("login is empty or has spaces")),
    (.json(#"{"login":"a b","id":1}"#), .malformed("login is empty or has spaces")),
    (.json(#"{"login":"a"}"#), .malformed("id is missing or not a positive integer")),
    (.json(#"{"login":"a","id":"1"}"#), .malformed("id is missing or not a positive integer")),
    (.json(#"{"login":"a","id":0}"#), .malformed("id is missing or not a positive integer")),
    (.json(#"{"login":"a","id":1.5}"#), .malformed("id is missing or not a positive integer")),
    (.json(#"{"login":"a","id":1,"name":3}"#), .malformed("name is not a string")),
    (.json(#"{"login":"a","id":1,"email":{}}"#), .malformed("email is not a string")),
  ])
  func failures(response: HTTPResponse, kind: GitHubAPIError.Kind) {
    let transport = FakeTransport()
    transport.on("GET", Self.userURL, respond: response)
    #expect(throws: error(kind)) { try api(transport).user(token: "gho_secret") }
  }

  @Test func acceptsVendorJSONMediaType() throws {
    let transport = FakeTransport()
    transport.on("GET", Self.userURL, respond: .typed("application/vnd.github+json", Self.body))
    #expect(try api(transport).user(token: "t").id == 583231)
  }

  /// Issue 29 §2: off GitHub (django-oauth-toolkit answers 403 for a revoked token), a 403 may
  /// also mean a revoked token, with the login command; on GitHub it keeps its reading.
  @Test func aForbiddenAnswerOffGitHubMayMeanARevokedToken() throws {
    let transport = FakeTransport()
    transport.on("GET", Self.userURL, respond: .json(#"{"message":"Forbidden"}"#, status: 403))
    var offGitHub = api(transport)
    offGitHub.isGitHub = false
    let error = try #require(throws: GitHubAPIError.self) { try offGitHub.user(token: "t") }
    #expect(
      error.message.contains(
        "the server refused /user (HTTP 403); the token may lack a permission or have been revoked"))
    transport.on("GET", Self.userURL, respond: .json(#"{"message":"Forbidden"}"#, status: 403))
    let onGitHub = try #require(throws: GitHubAPIError.self) { try api(transport).user(token: "t") }
    #expect(onGitHub.message.hasSuffix("the token may lack a permission or be blocked by an organization policy"))
  }

  @Test func plainHTTPAPIIsRefusedUnlessLoopback() throws {
    let transport = FakeTransport()
    let base = try WebURL(parsing: "http://api.github.test")
    #expect(throws: InsecureEndpointError(url: base)) {
      try GitHubAPI(host: .gitHubDotCom, base: base, transport: transport).user(token: "t")
    }
    #expect(transport.requests.isEmpty)
  }

  /// The exit status of each kind (its message, in the command line's words, is
  /// GitHubAPICLIVoiceTests.messagesWithoutAStep).
  @Test(arguments: [
    GitHubAPIError.Kind.forbidden(status: 403, rateLimited: true), .forbidden(status: 403, rateLimited: false),
    .httpStatus(503), .httpStatus(404), .crossOriginRedirect(to: "https://evil.test"), .badRedirect,
    .tooManyRedirects, .unexpectedContentType("text/html"), .malformed("the JSON is not an object"), .unusableToken,
  ])
  func exitStatuses(kind: GitHubAPIError.Kind) {
    let error = GitHubAPIError(kind, host: .gitHubDotCom, path: "/user")
    #expect(error.exitStatus == (kind == .unusableToken ? .notLoggedIn : .failure))
  }
}
