import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// TokenErrorTests' messages in the command line's words (`cliMessage`, `message(configFile:)`):
/// the remedies as `ghlogin` commands. The exit statuses and OAuth codes are TokenErrorTests'.
@Suite struct TokenErrorCLIVoiceTests {
  static let endpoint = GitHubHost.gitHubDotCom.defaultEndpoints.token

  static let file = "/home/u/.config/ghlogin/config.json"

  private func error(_ kind: TokenError.Kind) -> TokenError {
    TokenError(kind, host: .gitHubDotCom, endpoint: Self.endpoint)
  }

  /// R27, R31, R80: guidance for every code GitHub documents.
  @Test(arguments: [
    (
      "bad_verification_code", 1,
      "the authorization code was rejected by github.com (incorrect or expired); run 'ghlogin auth' again"
    ),
    (
      "incorrect_client_credentials", 1,
      "github.com rejected the client_id and/or client_secret; check client_id and client_secret in /home/u/.config/ghlogin/config.json (see the README)"
    ),
    (
      "redirect_uri_mismatch", 1,
      "github.com rejected the redirect URI; the OAuth app's callback URL must be http://127.0.0.1/callback (any port is allowed on loopback). Fix the app's settings, then run 'ghlogin auth' again"
    ),
    (
      "unverified_user_email", 1,
      "github.com requires a verified primary email address on your account; verify it at https://github.com/settings/emails, then run 'ghlogin auth' again"
    ),
    (
      "bad_refresh_token", 4,
      "the refresh token for github.com was rejected (expired, revoked or already used); run 'ghlogin auth' to log in again"
    ),
    ("access_denied", 1, "the login to github.com was denied; run 'ghlogin auth' again to retry"),
    (
      "expired_token", 1,
      "the device code for github.com expired before the login was approved; run 'ghlogin auth' again"
    ),
    (
      "token_expired", 1,
      "the device code for github.com expired before the login was approved; run 'ghlogin auth' again"
    ),
    (
      "device_flow_disabled", 1,
      "the device flow is not enabled for this app on github.com; enable it in the app's settings, or log in with the browser"
    ),
    ("incorrect_device_code", 1, "github.com did not recognise the device code; run 'ghlogin auth' again"),
    ("some_new_code", 1, "github.com refused the token request: error 'some_new_code': Described."),
  ])
  func oauthCodes(code: String, status: Int32, message: String) {
    let error = error(.oauth(OAuthErrorBody(code: code, description: "Described.")))
    #expect(error.message(configFile: Self.file) == message)
  }

  @Test(arguments: [
    (
      TokenError.Kind.httpStatus(503),
      "github.com answered HTTP 503 from https://github.com/login/oauth/access_token; try again later"
    ),
    (
      .httpStatus(404),
      "the token endpoint https://github.com/login/oauth/access_token answered HTTP 404; check the host and token_url settings"
    ),
    (
      .redirect(302),
      "the token endpoint https://github.com/login/oauth/access_token answered with a redirect (HTTP 302), which ghlogin never follows for token requests; check the host and token_url settings"
    ),
    (
      .unsupportedContentType("application/xml"),
      "the token endpoint https://github.com/login/oauth/access_token answered with 'application/xml'; expected JSON or form data. Check the host and token_url settings"
    ),
    (
      .unsupportedContentType(nil),
      "the token endpoint https://github.com/login/oauth/access_token answered with no content type; expected JSON or form data. Check the host and token_url settings"
    ),
    (
      .unsupportedContentType("text/\u{1B}[31mhtml"),
      "the token endpoint https://github.com/login/oauth/access_token answered with 'text/[31mhtml'; expected JSON or form data. Check the host and token_url settings"
    ),
    (
      .malformed("invalid JSON at line 1, column 1"),
      "the token endpoint https://github.com/login/oauth/access_token sent an answer that could not be read (invalid JSON at line 1, column 1); nothing was stored"
    ),
    (
      .missingField("token_type"),
      "the token endpoint https://github.com/login/oauth/access_token answered without token_type; nothing was stored"
    ),
    (
      .unsupportedTokenType("mac"),
      "the token endpoint issued a token of type 'mac'; ghlogin can only use bearer tokens. Nothing was stored"
    ),
    (
      .invalidValue(field: "access_token"),
      "the token endpoint answered with an unusable access_token (empty, too long, or not an RFC 6750 token: only letters, digits, '-._~+/' and trailing '=' are allowed); nothing was stored"
    ),
  ])
  func otherFailures(kind: TokenError.Kind, message: String) {
    #expect(error(kind).cliMessage == message)
  }
}
