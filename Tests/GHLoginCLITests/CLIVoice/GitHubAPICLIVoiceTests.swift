import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// GitHubAPITests' messages in the command line's words (`cliMessage`): the remedies as
/// `ghlogin` commands. The requests, answers and exit statuses are GitHubAPITests'.
@Suite(.verifiesFakes) struct GitHubAPICLIVoiceTests {
  static let userURL = "https://api.github.com/user"

  /// The step `user(token:)` names in its errors.
  static let identityCheck = EndpointStep(
    "identity check", setting: .apiURL, url: GitHubHost.gitHubDotCom.defaultEndpoints.api)

  /// What `user(token:)` throws: the error, naming the identity check.
  private func error(_ kind: GitHubAPIError.Kind) -> GitHubAPIError {
    GitHubAPIError(kind, host: .gitHubDotCom, path: "/user", step: Self.identityCheck)
  }

  @Test func aRejectedTokenSaysToLogIn() {
    #expect(
      error(.tokenRejected).cliMessage
        == "the token for github.com was rejected (revoked or expired); run 'ghlogin auth'")
  }

  /// Issue 29 §2: off GitHub (django-oauth-toolkit answers 403 for a revoked token), a 403 may
  /// also mean a revoked token, with the login command.
  @Test func aForbiddenAnswerOffGitHubMayMeanARevokedToken() throws {
    let transport = FakeTransport()
    transport.on("GET", Self.userURL, respond: .json(#"{"message":"Forbidden"}"#, status: 403))
    var offGitHub = GitHubAPI(
      host: .gitHubDotCom, base: GitHubHost.gitHubDotCom.defaultEndpoints.api, transport: transport, timeout: 9)
    offGitHub.isGitHub = false
    let error = try #require(throws: GitHubAPIError.self) { try offGitHub.user(token: "t") }
    #expect(
      error.cliMessage
        == "identity check at api_url https://api.github.com/: the server refused /user (HTTP 403); the token may "
        + "lack a permission or have been revoked. To log in again, run 'ghlogin auth'")
  }

  @Test(arguments: [
    (
      GitHubAPIError.Kind.forbidden(status: 403, rateLimited: true),
      "the GitHub API rate limit for github.com is exhausted (HTTP 403 for /user); try again later"
    ),
    (
      .forbidden(status: 403, rateLimited: false),
      "the GitHub API of github.com refused /user (HTTP 403); the token may lack a permission or be blocked by an organization policy"
    ),
    (.httpStatus(503), "the GitHub API of github.com answered HTTP 503 for /user; try again later"),
    (.httpStatus(404), "the GitHub API of github.com answered HTTP 404 for /user; check the host and api_url settings"),
    (
      .crossOriginRedirect(to: "https://evil.test"),
      "the GitHub API of github.com redirected /user to https://evil.test; not followed, so the token was not sent there. Check the host and api_url settings"
    ),
    (
      .badRedirect,
      "the GitHub API of github.com answered /user with a redirect ghlogin cannot follow; check the api_url setting"
    ),
    (.tooManyRedirects, "the GitHub API of github.com redirected /user too many times; check the api_url setting"),
    (
      .unexpectedContentType("text/html"),
      "the GitHub API of github.com answered /user with 'text/html', not JSON; check the host and api_url settings"
    ),
    (
      .malformed("the JSON is not an object"),
      "the GitHub API of github.com sent an answer to /user that could not be read (the JSON is not an object)"
    ),
    (
      .unusableToken, "the token for github.com contains characters that cannot be sent in a header; run 'ghlogin auth'"
    ),
  ])
  func messagesWithoutAStep(kind: GitHubAPIError.Kind, message: String) {
    let error = GitHubAPIError(kind, host: .gitHubDotCom, path: "/user")
    #expect(error.cliMessage == message)
  }

  /// An answer the server should not have given names the step, the config key
  /// and the URL; a token problem does not (the fix is a new login, not a setting).
  @Test(arguments: [
    (
      GitHubAPIError.Kind.httpStatus(503),
      "identity check at api_url https://api.github.com/: the server answered HTTP 503 for /user; try again later"
    ),
    (
      .unexpectedContentType("text/html"),
      "identity check at api_url https://api.github.com/: the server answered /user with 'text/html', not JSON; "
        + "check the host and api_url settings"
    ),
    (
      .malformed("the JSON is not an object"),
      "identity check at api_url https://api.github.com/: the server sent an answer to /user that could not be read "
        + "(the JSON is not an object)"
    ),
    (.tokenRejected, "the token for github.com was rejected (revoked or expired); run 'ghlogin auth'"),
    (
      .forbidden(status: 429, rateLimited: true),
      "the GitHub API rate limit for github.com is exhausted (HTTP 429 for /user); try again later"
    ),
  ])
  func messagesNameTheStep(kind: GitHubAPIError.Kind, message: String) {
    #expect(error(kind).cliMessage == message)
  }
}
