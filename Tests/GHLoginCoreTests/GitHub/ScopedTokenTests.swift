import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// What `ScopedTokenClient` reads from GitHub's answers, and R113's check of them.
@Suite struct ScopedTokenTests {
  static let narrowing: Narrowing = {
    do {
      return try Narrowing(repositories: ["acme/api", "acme/web"], permissions: ["contents:read"])
    } catch {
      preconditionFailure("\(error)")
    }
  }()

  static func answer(_ permissions: [String: String], selection: String? = "selected") -> ScopedTokenAnswer {
    ScopedTokenAnswer(token: "ghu_x", permissions: permissions, repositorySelection: selection)
  }

  @Test func exactlyWhatWasAskedWithOrWithoutMetadata() {
    let repositories = ["acme/api", "ACME/web"]
    #expect(
      Self.answer(["contents": "read", "metadata": "read"]).problem(for: Self.narrowing, repositories: repositories)
        == nil)
    #expect(Self.answer(["contents": "read"]).problem(for: Self.narrowing, repositories: ["api", "web"]) == nil)
  }

  @Test(arguments: [
    (
      ["contents": "read", "metadata": "write"],
      "GitHub granted the permissions contents:read,metadata:write, not contents:read"
    ),
    (
      ["contents": "read", "metadata": "read", "issues": "read"],
      "GitHub granted the permissions contents:read,issues:read,metadata:read, not contents:read"
    ),
    ([String: String](), "GitHub granted the permissions none, not contents:read"),
  ])
  func widerOrOtherPermissionsAreProblems(_ permissions: [String: String], _ problem: String) {
    #expect(Self.answer(permissions).problem(for: Self.narrowing, repositories: ["acme/api", "acme/web"]) == problem)
  }

  @Test func repositoriesMustBeExactlyThoseAsked() {
    let answer = Self.answer(["contents": "read"])
    #expect(
      answer.problem(for: Self.narrowing, repositories: ["acme/api"])
        == "GitHub granted the repositories [acme/api], not the 2 asked for")
    #expect(
      answer.problem(for: Self.narrowing, repositories: ["acme/api", "acme/web", "acme/api"])
        == "GitHub granted the repositories [acme/api, acme/web, acme/api], not the 2 asked for")
    #expect(
      answer.problem(for: Self.narrowing, repositories: ["other/api", "acme/web"])
        == "GitHub granted the repositories [other/api, acme/web], not the 2 asked for")
  }

  /// Without --permission only the repositories are compared.
  @Test func withoutPermissionsOnlyRepositoriesCount() throws {
    let narrowing = try Narrowing(repositories: ["acme/api"], permissions: [])
    #expect(Self.answer(["administration": "write"]).problem(for: narrowing, repositories: ["acme/api"]) == nil)
    #expect(
      Self.answer([:], selection: "all").problem(for: narrowing, repositories: ["acme/api"])
        == "GitHub granted the repository selection 'all', not 'selected'")
  }

  /// Once a token is in the answer, parsing never throws: the check refuses what is odd and the
  /// caller revokes it.
  @Test func anAnswerWithATokenButNothingElseParses() throws {
    let parsed = try ScopedTokenAnswer.parse(
      Array(#"{"token":"ghu_abc","installation":{"permissions":{"contents":1}}}"#.utf8))
    #expect(parsed.token == "ghu_abc")
    #expect(parsed.permissions == ["contents": "(not text)"])
    #expect(parsed.repositorySelection == nil)
    #expect(throws: ScopedTokenError.Kind.malformed("no token")) {
      try ScopedTokenAnswer.parse(Array(#"{"installation":{}}"#.utf8))
    }
    #expect(throws: ScopedTokenError.Kind.malformed("the token holds characters that cannot be sent")) {
      try ScopedTokenAnswer.parse(Array(#"{"token":"a b"}"#.utf8))
    }
  }

  @Test func rateLimitWaits() {
    func response(_ status: Int, _ headers: [(String, String)]) -> HTTPResponse {
      HTTPResponse(status: status, headers: HTTPHeaders(headers.map { (name: $0.0, value: $0.1) }))
    }
    #expect(ScopedTokenClient.rateLimitWait(response(403, [("Retry-After", "30")]), now: 0) == 30)
    #expect(
      ScopedTokenClient.rateLimitWait(
        response(403, [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "1000")]), now: 900) == 100)
    #expect(ScopedTokenClient.rateLimitWait(response(429, [("X-RateLimit-Reset", "1000")]), now: 2000) == 0)
    // A 403 that is not a rate limit (the reset header alone, with requests left).
    #expect(
      ScopedTokenClient.rateLimitWait(
        response(403, [("X-RateLimit-Remaining", "10"), ("X-RateLimit-Reset", "1000")]), now: 900) == nil)
    #expect(ScopedTokenClient.rateLimitWait(response(403, [("Retry-After", "soon")]), now: 0) == nil)
  }

  @Test func nextLinks() {
    #expect(
      ScopedTokenClient.nextLink(
        #"<https://api.github.com/x?page=2>; rel="next", <https://api.github.com/x?page=5>; rel="last""#)
        == "https://api.github.com/x?page=2")
    #expect(ScopedTokenClient.nextLink(#"<https://api.github.com/x?page=1>; rel="prev""#) == nil)
    #expect(ScopedTokenClient.nextLink(nil) == nil)
  }
}
