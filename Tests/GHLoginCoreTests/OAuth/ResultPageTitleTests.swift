import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// Issue 31: the result page's title names the program whose login it is (the command line
/// passes `ghlogin`), or none (a library tool that gives no name); the name is HTML-escaped.
@Suite struct ResultPageTitleTests {
  private func title(_ page: ResultPage) -> String? {
    let text = String(decoding: page.body, as: UTF8.self)
    guard let start = text.range(of: "<title>"), let end = text.range(of: "</title>") else { return nil }
    return String(text[start.upperBound..<end.lowerBound])
  }

  @Test func theTitleNamesTheProductGiven() {
    #expect(title(.success(host: .gitHubDotCom, login: "octocat", product: "ghlogin")) == "ghlogin: Logged in")
    #expect(title(.failure(reason: "denied", product: "ghlogin")) == "ghlogin: Login failed")
    #expect(
      title(.rejection(status: 404, reason: "Not found.", product: "ghlogin"))
        == "ghlogin: Not a valid login callback")
    #expect(
      title(.success(host: .gitHubDotCom, login: "octocat", product: "<b>tool</b>"))
        == "&lt;b&gt;tool&lt;/b&gt;: Logged in")
  }

  @Test func noProductNamesNone() {
    #expect(title(.success(host: .gitHubDotCom, login: "octocat")) == "Logged in")
    #expect(title(.failure(reason: "denied")) == "Login failed")
    #expect(title(.rejection(status: 404, reason: "Not found.")) == "Not a valid login callback")
  }
}
