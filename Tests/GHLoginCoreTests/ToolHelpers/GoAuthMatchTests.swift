import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// The GOAUTH URL matcher and answer (R104, R105).
@Suite struct GoAuthMatchTests {
  static let hosts = ["ghe.example.com", "127.0.0.1:8443", "github.com"]

  @Test(arguments: [
    ("https://ghe.example.com/mod/@v/list", "ghe.example.com"), ("https://GHE.example.com/x", "ghe.example.com"),
    ("https://ghe.example.com:443/x", "ghe.example.com"), ("https://ghe.example.com", "ghe.example.com"),
    ("https://ghe.example.com?go-get=1", "ghe.example.com"),
    ("https://127.0.0.1:8443/a/@v/v1.0.0.zip", "127.0.0.1:8443"),
  ])
  func matchesExactHosts(url: String, host: String) {
    #expect(GoAuthMatch.host(forURL: url, among: Self.hosts) == host)
  }

  @Test(arguments: [
    "http://ghe.example.com/x", "HTTPS://ghe.example.com/x", "https://ghe.example.com.evil.test/x",
    "https://evilghe.example.com/x", "https://x.ghe.example.com/x", "https://ghe.example.com@evil.test/x",
    "https://user@ghe.example.com/x", "https://ghe.example.com:444/x", "https://127.0.0.1/x",
    "https://127.0.0.1:8444/x", "https://ghe.example.com./x", "https://ghе.example.com/x" /* Cyrillic е */,
    "https://ghe.example.com\n/x", "https:///x", "https://", "", "ghe.example.com", "https://[::1]:8443/",
    "https://ghe.example.com:/x", "https://ghe.example.com%2f/x",
  ])
  func answersNothingForOtherURLs(url: String) {
    #expect(GoAuthMatch.host(forURL: url, among: Self.hosts) == nil)
  }

  @Test func answerFormat() {
    // base64("octocat:gho_abc") = b2N0b2NhdDpnaG9fYWJj
    #expect(
      GoAuthMatch.answer(host: "127.0.0.1:8443", login: "octocat", token: "gho_abc")
        == "https://127.0.0.1:8443/\n\nAuthorization: Basic b2N0b2NhdDpnaG9fYWJj\n\n")
  }

  @Test(arguments: [("octo:cat", "t"), ("octocat", "a b"), ("octocat", "t\n"), ("", "t"), ("o", "")])
  func refusesValuesThatBreakTheAnswer(login: String, token: String) {
    #expect(GoAuthMatch.answer(host: "h", login: login, token: token) == nil)
  }
}
