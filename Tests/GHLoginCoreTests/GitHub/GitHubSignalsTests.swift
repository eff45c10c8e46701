import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// The parsers of GitHub's `GitHub-Authentication-Token-Expiration` and
/// `X-GitHub-SSO` headers.
@Suite struct GitHubSignalsTests {
  /// 2026-12-20 10:00:00 UTC.
  static let moment: Double = 1_797_760_800

  @Test(arguments: [
    ("2026-12-20 10:00:00 UTC", moment),
    ("2026-12-20 12:00:00 +0200", moment),
    ("2026-12-20 04:30:00 -0530", moment),
    ("2026-12-20 10:00:00 +0000", moment),
    ("1970-01-01 00:00:00 UTC", 0),
    ("2024-02-29 00:00:00 UTC", 1_709_164_800),
    ("2000-03-01 00:00:00 UTC", 951_868_800),
  ])
  func goodValuesParse(_ text: String, _ expected: Double) {
    #expect(TokenExpirationHeader.parse(text) == expected)
  }

  @Test(arguments: [
    "", "2026-12-20", "2026-12-20 10:00:00", "2026-12-20 10:00:00 utc", "2026-12-20 10:00:00 GMT",
    "2026-12-20T10:00:00Z", "2026-12-20 10:00:00 UTC ", " 2026-12-20 10:00:00 UTC", "2026-13-20 10:00:00 UTC",
    "2026-00-20 10:00:00 UTC", "2026-02-29 10:00:00 UTC", "2026-04-31 10:00:00 UTC", "2026-12-20 24:00:00 UTC",
    "2026-12-20 10:60:00 UTC", "2026-12-20 10:00:60 UTC", "2026-12-20 10:00:00 +2500", "2026-12-20 10:00:00 +0260",
    "2026-12-20 10:00:00 +02:00", "2026-12-20 10:00:00 0200", "2026/12/20 10:00:00 UTC", "２026-12-20 10:00:00 UTC",
    "-026-12-20 10:00:00 UTC", "2026-12-20 10:00:00 +02000",
  ])
  func badValuesAreRefused(_ text: String) {
    #expect(TokenExpirationHeader.parse(text) == nil)
  }

  @Test func formatAndRemaining() {
    #expect(TokenExpirationHeader.format(Self.moment) == "2026-12-20 10:00:00 UTC")
    #expect(TokenExpirationHeader.format(0) == "1970-01-01 00:00:00 UTC")
    #expect(TokenExpirationHeader.remaining(Self.moment, now: Self.moment - 3.5 * 86_400) == "in 3 days")
    #expect(TokenExpirationHeader.remaining(Self.moment, now: Self.moment - 1.5 * 86_400) == "in 1 day")
    #expect(TokenExpirationHeader.remaining(Self.moment, now: Self.moment - 7200) == "in 2h 0m")
    #expect(TokenExpirationHeader.remaining(Self.moment, now: Self.moment + 1) == "has passed")
    #expect(
      TokenExpirationHeader.warning(expiration: Self.moment, login: "o", host: "h", now: Self.moment - 8 * 86_400)
        == nil)
    #expect(
      TokenExpirationHeader.warning(expiration: Self.moment, login: "o", host: "h", now: Self.moment - 6 * 86_400)
        != nil)
    #expect(TokenExpirationHeader.warning(expiration: nil, login: "o", host: "h", now: 0) == nil)
  }

  static let host = GitHubHost.gitHubDotCom

  @Test func ssoHeaders() throws {
    let url = "https://github.com/orgs/acme/sso?authorization_request=ABC"
    #expect(SSOHeader.parse("required; url=\(url)", host: Self.host) == .required(url: url))
    #expect(SSOHeader.parse("required;url=\(url)", host: Self.host) == .required(url: url))
    #expect(SSOHeader.parse("required", host: Self.host) == .required(url: nil))
    #expect(
      SSOHeader.parse("partial-results; organizations=21955855,20582480", host: Self.host)
        == .partialResults(organizations: [21_955_855, 20_582_480]))
    #expect(SSOHeader.parse("partial-results; organizations=1,x", host: Self.host) == nil)
    #expect(SSOHeader.parse("something", host: Self.host) == nil)
    for hostile in [
      "http://github.com/orgs/acme/sso", "https://evil.example/orgs/acme/sso", "https://github.com.evil.example/x",
      "https://github.com/\u{1B}[2J", "https://user@github.com/x", "javascript:alert(1)",
      "https://github.com/" + String(repeating: "a", count: 2000),
    ] {
      #expect(SSOHeader.parse("required; url=\(hostile)", host: Self.host) == .required(url: nil), "\(hostile)")
    }
  }
}

/// The credential's own field for GitHub's expiry: optional, so files without it keep reading.
@Suite struct GitHubExpirationCodingTests {
  static func file(_ extra: String) -> [UInt8] {
    Array(
      """
      {"version": 1, "hosts": {"github.com": {"active": "octocat", "accounts": [{"login": "octocat", "user_id": 1,
      "token": "github_pat_abc", "token_type": "bearer", "scopes": [], "created_at": 1700000000\(extra)}]}}}
      """.utf8)
  }

  @Test func readsWritesAndKeepsOldFilesReading() throws {
    let old = try CredentialCoding.decode(Self.file(""))
    #expect(old.hosts["github.com"]?.accounts.first?.gitHubExpiration == nil)
    #expect(!String(decoding: CredentialCoding.encode(old), as: UTF8.self).contains("github_token_expiration"))

    let new = try CredentialCoding.decode(Self.file(#", "github_token_expiration": 1797760800"#))
    let account = try #require(new.hosts["github.com"]?.accounts.first)
    #expect(account.gitHubExpiration == 1_797_760_800)
    #expect(account.expiresAt == nil)
    #expect(try CredentialCoding.decode(CredentialCoding.encode(new)) == new)

    #expect(
      throws: CredentialCoding.Failure.invalid(
        "\"hosts.github.com.accounts[0].github_token_expiration\" must be a number")
    ) {
      try CredentialCoding.decode(Self.file(#", "github_token_expiration": "soon""#))
    }
  }
}
