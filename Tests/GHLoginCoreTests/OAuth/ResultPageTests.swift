import Testing

import GHLoginTestSupport

@testable import GHLoginCore

@Suite struct ResultPageTests {
  private func text(_ page: ResultPage) -> String { String(decoding: page.body, as: UTF8.self) }

  /// R12: the headers, and nothing external in the body.
  @Test(arguments: [
    ResultPage.success(host: .gitHubDotCom, login: "octocat"),
    ResultPage.failure(reason: "the authorization was denied"),
    ResultPage.rejection(status: 404, reason: "Not found."),
  ])
  func headersAndBodyAreSafe(page: ResultPage) {
    #expect(page.headers["Referrer-Policy"] == "no-referrer")
    #expect(page.headers["Cache-Control"] == "no-store")
    #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
    #expect(page.headers["Connection"] == "close")
    #expect(page.headers["Content-Security-Policy"]?.hasPrefix("default-src 'none'") == true)
    #expect(page.headers["Location"] == nil)
    let body = text(page).lowercased()
    for forbidden in ["<script", "<img", "<a ", "href", "src=", "http://", "https://", "<link", "<iframe", "<form"] {
      #expect(!body.contains(forbidden), "body contains \(forbidden)")
    }
  }

  @Test func successNamesHostAndLogin() throws {
    let page = ResultPage.success(host: try GitHubHost(validating: "ghe.test:8443"), login: "octocat")
    #expect(page.status == 200)
    #expect(
      text(page).contains(
        "<p>You are logged in to ghe.test:8443 as octocat. You can close this tab and go back to the terminal.</p>"))
  }

  /// R12, R21, R83: a server's description is HTML-escaped and control characters are stripped.
  @Test func failureEscapesTheReason() {
    let page = ResultPage.failure(reason: "access_denied: <script>alert(1)</script>\u{1B}[31m")
    #expect(
      text(page).contains(
        "<p>The login failed: access_denied: &lt;script&gt;alert(1)&lt;/script&gt;[31m. See the terminal for what to do next.</p>"
      ))
    #expect(!text(page).contains("<script>"))
    #expect(!text(page).contains("\u{1B}"))
  }

  @Test func successEscapesTheLogin() {
    let page = ResultPage.success(host: .gitHubDotCom, login: "<b>x</b>")
    #expect(text(page).contains("as &lt;b&gt;x&lt;/b&gt;. You can"))
  }

  @Test func everyPageTextIsAFinishedSentence() {
    #expect(ResultPage.sentence("the code was refused") == "the code was refused.")
    #expect(ResultPage.sentence("Nothing was stored. ") == "Nothing was stored.")
    #expect(ResultPage.sentence("Really?") == "Really?")
    let page = ResultPage.failure(reason: "you logged in as a, but b was asked for. Nothing was stored.")
    #expect(
      text(page).contains("<p>The login failed: you logged in as a, but b was asked for. Nothing was stored. See"))
    #expect(text(ResultPage.rejection(status: 404, reason: "Not found")).contains("<p>Not found.</p>"))
  }

  @Test func rejectionKeepsItsStatus() {
    let page = ResultPage.rejection(status: 400, reason: "The callback's state does not match this login.")
    #expect(page.status == 400)
    #expect(text(page).contains("The callback&#39;s state does not match this login."))
  }
}
