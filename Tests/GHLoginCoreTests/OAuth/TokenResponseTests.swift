import Testing

import GHLoginTestSupport

@testable import GHLoginCore

@Suite struct TokenResponseTests {
  static let endpoint = GitHubHost.gitHubDotCom.defaultEndpoints.token

  private func parse(_ response: HTTPResponse)
    throws(TokenError) -> TokenResponse
  {
    try TokenResponse.parse(response, host: .gitHubDotCom, endpoint: Self.endpoint)
  }

  private func error(_ kind: TokenError.Kind) -> TokenError {
    TokenError(kind, host: .gitHubDotCom, endpoint: Self.endpoint)
  }

  @Test func parsesGitHubsJSONAnswer() throws {
    let token = try parse(
      .json(#"{"access_token":"gho_16C7e42F292c6912E7710c838347Ae178B4a","scope":"repo,gist","token_type":"bearer"}"#))
    #expect(token == TokenResponse(accessToken: "gho_16C7e42F292c6912E7710c838347Ae178B4a", scopes: ["repo", "gist"]))
  }

  /// R28, R29.
  @Test func parsesFormEncodedAnswer() throws {
    let token = try parse(
      .typed(
        "application/x-www-form-urlencoded; charset=utf-8", "access_token=gho_x&scope=repo%2Cgist&token_type=bearer"))
    #expect(token == TokenResponse(accessToken: "gho_x", scopes: ["repo", "gist"]))
  }

  /// R29.
  @Test(arguments: ["Bearer", "BEARER", "bearer", "bEaReR"])
  func tokenTypeIsCaseInsensitive(type: String) throws {
    let token = try parse(.json(#"{"access_token":"gho_x","token_type":"\#(type)"}"#))
    #expect(token.tokenType == "bearer")
    #expect(token.scopes == [])
  }

  @Test func gitHubAppUserTokenWithExpiries() throws {
    let body =
      #"{"access_token":"ghu_abc","expires_in":28800,"refresh_token":"ghr_def","refresh_token_expires_in":"15811200","scope":"","token_type":"bearer"}"#
    #expect(
      try parse(.json(body))
        == TokenResponse(
          accessToken: "ghu_abc", expiresIn: 28800, refreshToken: "ghr_def", refreshTokenExpiresIn: 15_811_200))
    let form =
      "access_token=ghu_abc&expires_in=28800&refresh_token=ghr_def&refresh_token_expires_in=15811200&scope=&token_type=bearer"
    #expect(
      try parse(.typed("application/x-www-form-urlencoded", form))
        == TokenResponse(
          accessToken: "ghu_abc", expiresIn: 28800, refreshToken: "ghr_def", refreshTokenExpiresIn: 15_811_200))
  }

  @Test func nullMembersCountAsAbsent() throws {
    #expect(
      try parse(
        .json(#"{"access_token":"t","token_type":"bearer","refresh_token":null,"expires_in":null,"scope":null}"#))
        == TokenResponse(accessToken: "t"))
  }

  @Test(arguments: [
    ("repo, gist", ["repo", "gist"]), ("repo gist", ["repo", "gist"]), (" read:org,,user ", ["read:org", "user"]),
    ("", []),
  ])
  func scopeSeparators(scope: String, expected: [String]) throws {
    #expect(try parse(.json(#"{"access_token":"t","token_type":"bearer","scope":"\#(scope)"}"#)).scopes == expected)
  }

  /// R30: long opaque tokens with `.`, `-` and `_` are kept verbatim.
  @Test func acceptsA600CharacterToken() throws {
    let token = "ghs_" + String(repeating: "aZ9.-_", count: 99) + "xy"
    #expect(token.count == 600)
    #expect(try parse(.json(#"{"access_token":"\#(token)","token_type":"bearer"}"#)).accessToken == token)
    let longest = String(repeating: "a", count: BearerToken.maxLength)
    #expect(try parse(.json(#"{"access_token":"\#(longest)","token_type":"bearer"}"#)).accessToken == longest)
  }

  /// R30: RFC 6750's b64token allows trailing `=` padding; such tokens are kept as
  /// they are (access and refresh tokens alike).
  @Test(arguments: ["dGVzdA==", "a=", "A-._~+/9=", "x" + String(repeating: "=", count: 10)])
  func acceptsPaddedTokens(token: String) throws {
    let response = try parse(
      .json(#"{"access_token":"\#(token)","token_type":"bearer","refresh_token":"\#(token)"}"#))
    #expect(response.accessToken == token)
    #expect(response.refreshToken == token)
    #expect(BearerToken.isValid(token))
  }

  /// R30, R74: tokens that cannot go into a header are refused.
  @Test(arguments: [
    #"gho_a\r\nX-Evil: 1"#, "gho_a b", "gho_a=b", "=", "==", #"gho_\"x"#, "gho_a,b", "gho_a!", #"gho_a=\u0000"#,
    #"gho_\u0000"#, #"gho_\u001b[0m"#, "gho_é", #"gho_\t"#, "",
    String(repeating: "a", count: 4097), #"gho_\u007f"#,
  ])
  func refusesUnusableTokens(token: String) {
    #expect(throws: error(.invalidValue(field: "access_token"))) {
      try parse(.json(#"{"access_token":"\#(token)","token_type":"bearer"}"#))
    }
  }

  @Test func refusesUnusableTokensInFormAnswers() {
    #expect(throws: error(.invalidValue(field: "access_token"))) {
      try parse(.typed("application/x-www-form-urlencoded", "access_token=gho_a%0D%0Ab&token_type=bearer"))
    }
    #expect(throws: error(.invalidValue(field: "refresh_token"))) {
      try parse(.typed("application/x-www-form-urlencoded", "access_token=gho_a&refresh_token=a%20b&token_type=bearer"))
    }
  }

  /// R31, R80 and the other codes: an error member fails whatever the status (R27).
  @Test(arguments: [200, 400, 401, 500])
  func errorMemberFailsWhateverTheStatus(status: Int) {
    #expect(
      throws: error(
        .oauth(
          OAuthErrorBody(
            code: "bad_verification_code", description: "The code passed is incorrect or expired.", uri: "https://docs")
        ))
    ) {
      try parse(
        .json(
          #"{"error":"bad_verification_code","error_description":"The code passed is incorrect or expired.","error_uri":"https://docs","access_token":"gho_partial","token_type":"bearer"}"#,
          status: status))
    }
  }

  @Test func errorInFormAnswer() {
    #expect(
      throws: error(
        .oauth(
          OAuthErrorBody(
            code: "incorrect_client_credentials",
            description: "The client_id and/or client_secret passed are incorrect.")))
    ) {
      try parse(
        .typed(
          "application/x-www-form-urlencoded",
          "error=incorrect_client_credentials&error_description=The+client_id+and%2For+client_secret+passed+are+incorrect."
        ))
    }
  }

  @Test func slowDownCarriesTheInterval() {
    #expect(throws: error(.oauth(OAuthErrorBody(code: "slow_down", interval: 10)))) {
      try parse(.json(#"{"error":"slow_down","interval":10}"#))
    }
    #expect(throws: error(.oauth(OAuthErrorBody(code: "slow_down", interval: 15)))) {
      try parse(.typed("application/x-www-form-urlencoded", "error=slow_down&interval=15"))
    }
  }

  @Test(arguments: [#"{"error":null}"#, #"{"error":1,"access_token":"t","token_type":"bearer"}"#, #"{"error":{}}"#])
  func nonStringErrorStillFails(body: String) throws {
    let thrown = try #require(throws: TokenError.self) { try parse(.json(body)) }
    #expect(thrown.oauthCode == "(not a string)")
  }

  @Test func emptyErrorStillFails() throws {
    let thrown = try #require(throws: TokenError.self) {
      try parse(.json(#"{"error":"","access_token":"t","token_type":"bearer"}"#))
    }
    #expect(thrown.oauthCode == "(empty)")
  }

  /// R28, R29 and other malformed answers: the exact error for each.
  @Test(arguments: [
    (HTTPResponse.json(#"{"access_token":"t"}"#), TokenError.Kind.missingField("token_type")),  // R29
    (.json(#"{"access_token":"t","token_type":"mac"}"#), .unsupportedTokenType("mac")),  // R29
    (.json(#"{"access_token":"t","token_type":1}"#), .invalidValue(field: "token_type")),
    (.json(#"{"token_type":"bearer"}"#), .missingField("access_token")),
    (.json(#"{"access_token":42,"token_type":"bearer"}"#), .invalidValue(field: "access_token")),
    (.json(#"{"access_token":"t","token_type":"bearer","scope":["repo"]}"#), .invalidValue(field: "scope")),
    (.json(#"{"access_token":"t","token_type":"bearer","expires_in":-1}"#), .invalidValue(field: "expires_in")),
    (.json(#"{"access_token":"t","token_type":"bearer","expires_in":1.5}"#), .invalidValue(field: "expires_in")),
    (.json(#"{"access_token":"t","token_type":"bearer","expires_in":"8h"}"#), .invalidValue(field: "expires_in")),
    (
      .json(#"{"access_token":"t","token_type":"bearer","refresh_token_expires_in":true}"#),
      .invalidValue(field: "refresh_token_expires_in")
    ),
    (.json(#"{"access_token":"t","token_type":"bearer","refresh_token":""}"#), .invalidValue(field: "refresh_token")),
    (
      .typed("application/xml", "<OAuth><access_token>t</access_token><token_type>bearer</token_type></OAuth>"),
      .unsupportedContentType("application/xml")
    ),  // R28
    (.typed("text/html", "<html>access_token=t</html>"), .unsupportedContentType("text/html")),
    (.typed(nil, "access_token=t&token_type=bearer"), .unsupportedContentType(nil)),
    (.typed("text/plain", "access_token=t&token_type=bearer"), .unsupportedContentType("text/plain")),
    (.json("access_token=t&token_type=bearer"), .malformed("invalid JSON at line 1, column 1")),
    (.json(#"["access_token"]"#), .malformed("the JSON is not an object")),
    (
      .json(#"{"access_token":"t","access_token":"u","token_type":"bearer"}"#),
      .malformed("invalid JSON at line 1, column 21")
    ),
    (.json(""), .malformed("invalid JSON at line 1, column 1")),
    (
      .typed("application/x-www-form-urlencoded", "access_token=t&access_token=u&token_type=bearer"),
      .malformed("a member is repeated")
    ),
    (
      .typed("application/x-www-form-urlencoded", "access_token=%ZZ&token_type=bearer"),
      .malformed("invalid form encoding")
    ),
    (
      HTTPResponse(
        status: 200, headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")]), body: [0x61, 0xFF]),
      .malformed("invalid UTF-8")
    ),
    (
      .json(#"{"access_token":"t","token_type":"bearer"}"#, status: 302, headers: [("Location", "https://evil.test/")]),
      .redirect(302)
    ),  // R75
    (.typed("text/html", "<html>Service Unavailable</html>", status: 503), .httpStatus(503)),
    (.json(#"{"message":"Not Found"}"#, status: 404), .httpStatus(404)),
    (.json(#"{"access_token":"t","token_type":"bearer"}"#, status: 500), .httpStatus(500)),
    (.typed("application/xml", "<x/>", status: 502), .httpStatus(502)),
  ])
  func refusesMalformedAnswers(response: HTTPResponse, kind: TokenError.Kind) {
    #expect(throws: error(kind)) { try parse(response) }
  }

  @Test func descriptionHidesTokens() {
    let token = TokenResponse(accessToken: "gho_SECRET1", refreshToken: "ghr_SECRET2")
    #expect(!token.description.contains("SECRET"))
    #expect(!String(describing: token).contains("SECRET"))
  }
}
