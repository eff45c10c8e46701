import Testing

import GHLoginTestSupport

@testable import GHLoginCore

@Suite struct TokenErrorTests {
  static let endpoint = GitHubHost.gitHubDotCom.defaultEndpoints.token

  static let file = "/home/u/.config/ghlogin/config.json"

  private func error(_ kind: TokenError.Kind) -> TokenError {
    TokenError(kind, host: .gitHubDotCom, endpoint: Self.endpoint)
  }

  /// R27, R31, R80: the exit status for every code GitHub documents (the guidance, in the command
  /// line's words, is TokenErrorCLIVoiceTests.oauthCodes).
  @Test(
    arguments: [("bad_verification_code", 1), ("incorrect_device_code", 1), ("some_new_code", 1)] as [(String, Int32)])
  func oauthCodes(code: String, status: Int32) {
    let error = error(.oauth(OAuthErrorBody(code: code, description: "Described.")))
    #expect(error.exitStatus.rawValue == status)
    #expect(error.oauthCode == code)
  }

  @Test func unknownCodeAndDescriptionAreSanitized() {
    let error = error(.oauth(OAuthErrorBody(code: "x\u{1B}[2Jy", description: "line1\nline2\u{1B}]0;title\u{7}")))
    #expect(error.message == "github.com refused the token request: error 'x[2Jy': line1line2]0;title")
  }

  @Test func unknownCodeWithoutDescription() {
    #expect(
      error(.oauth(OAuthErrorBody(code: "weird"))).message == "github.com refused the token request: error 'weird'")
  }

  @Test func configPathFallsBackToAGenericName() {
    #expect(
      error(.oauth(OAuthErrorBody(code: "incorrect_client_credentials"))).message.contains(
        "in the config file (see the README)"))
  }

  /// The error names the config keys; the reporting layer names the file.
  @Test func rejectedClientCredentialsNameTheirConfigKeys() {
    #expect(
      error(.oauth(OAuthErrorBody(code: "incorrect_client_credentials"))).configKeys == ["client_id", "client_secret"])
    #expect(error(.oauth(OAuthErrorBody(code: "bad_verification_code"))).configKeys.isEmpty)
    #expect(error(.httpStatus(404)).configKeys.isEmpty)
  }

  /// The exit status of the other failures (their messages, in the command line's words, are
  /// TokenErrorCLIVoiceTests.otherFailures).
  @Test(arguments: [
    TokenError.Kind.httpStatus(503), .httpStatus(404), .redirect(302), .unsupportedContentType("application/xml"),
    .unsupportedContentType(nil), .unsupportedContentType("text/\u{1B}[31mhtml"),
    .malformed("invalid JSON at line 1, column 1"), .missingField("token_type"), .unsupportedTokenType("mac"),
    .invalidValue(field: "access_token"),
  ])
  func otherFailures(kind: TokenError.Kind) {
    #expect(error(kind).exitStatus == .failure)
    #expect(error(kind).oauthCode == nil)
  }
}
