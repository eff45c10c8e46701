import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// `&` and `=` separate form fields as bytes, never as Swift `Character`s: a combining mark after
/// a separator forms one grapheme cluster with it (`"&\u{301}"`), which `Character` splitting
/// does not split at. Regression cases for the `callback` fuzz target's crash-82d052b8 (an `&`
/// followed by U+065A hid the next field inside the `error` value).
@Suite struct FormEncodingSeparatorTests {
  @Test func separatorsFollowedByCombiningMarksStillSeparate() throws {
    let pairs = try FormEncoding.decode("error=a&\u{65A}x=1&b=\u{301}2")
    #expect(pairs.map(\.name) == ["error", "\u{65A}x", "b"])
    #expect(pairs.map(\.value) == ["a", "1", "\u{301}2"])
    let equals = try FormEncoding.decode("k=\u{301}v&\u{301}=w")
    #expect(equals.map(\.name) == ["k", "\u{301}"])
    #expect(equals.map(\.value) == ["\u{301}v", "w"])
  }

  /// The fuzz input, shortened: an error redirect whose `&` is followed by U+065A.
  @Test func callbackErrorEndsAtTheNextAmpersand() {
    let state = "st4te-0123456789abcdefABCDEF_xyz"
    let validator = CallbackValidator(port: 4711, state: state)
    let decision = validator.decide(
      method: "GET", target: "/callback?error=access_denied&\u{65A}x=1&state=\(state)",
      headers: HTTPHeaders([("Host", "127.0.0.1:4711")]))
    #expect(decision == .authorizationError(AuthorizationErrorResponse(error: "access_denied")))
  }

  @Test func callbackStateAfterACombiningMarkIsStillFound() {
    let validator = CallbackValidator(port: 4711, state: "S")
    let decision = validator.decide(
      method: "GET", target: "/callback?code=c&\u{301}x=1&state=S", headers: HTTPHeaders([("Host", "127.0.0.1:4711")]))
    #expect(decision == .accept(code: "c"))
  }

  @Test func formTokenAnswerIsSplitAtEveryAmpersand() throws {
    let body = "access_token=gho_abc&\u{301}x=1&token_type=bearer"
    let response = HTTPResponse(
      status: 200, headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")]), body: Array(body.utf8)
    )
    let endpoint = WebURL(scheme: .https, host: "github.com", pathAndQuery: "/login/oauth/access_token")
    let token = try TokenResponse.parse(response, host: .gitHubDotCom, endpoint: endpoint)
    #expect(token.accessToken == "gho_abc")
  }
}
