import Testing
import GHLoginTestSupport

@testable import GHLoginCore

@Suite struct WebURLTests {
  @Test func parsesSchemeHostPortAndPath() throws {
    let url = try WebURL(parsing: "https://GHE.Example.com:8443/api/v3?x=1")
    #expect(url.scheme == .https)
    #expect(url.host == "ghe.example.com")
    #expect(url.port == 8443)
    #expect(url.authority == "ghe.example.com:8443")
    #expect(url.pathAndQuery == "/api/v3?x=1")
    #expect(url.description == "https://ghe.example.com:8443/api/v3?x=1")
  }

  @Test func defaultPortsAndEmptyPath() throws {
    let url = try WebURL(parsing: "https://github.com")
    #expect(url.port == 443)
    #expect(url.authority == "github.com")
    #expect(url.pathAndQuery == "/")
    #expect(try WebURL(parsing: "https://github.com:443/x").authority == "github.com")
  }

  @Test(arguments: [
    ("https://user:pw@github.com/", "user info"),
    ("ftp://github.com/", "only https"),
    ("github.com/login", "not an absolute URL"),
    ("https://github.com/a b", "space"),
    ("https://github.com/\r\nX: y", "control"),
    ("https://github.com:0/", "port"),
    ("https://github.com:99999/", "port"),
    ("https://github.com:12a/", "port"),
    ("https://git_hub.com/", "not a valid host"),
    ("https://-github.com/", "not a valid host"),
    ("https://github.com./", "not a valid host"),
    ("https://github.com/#frag", "fragment"),
    ("https://gith\u{0435}b.com/", "non-ASCII"),
  ])
  func refuses(_ input: String, _ reason: String) {
    #expect {
      try WebURL(parsing: input)
    } throws: { error in
      (error as? WebURL.ParseError)?.reason.contains(reason) == true
    }
  }

  @Test(arguments: [
    ("http://127.0.0.1:8080/", true), ("http://127.5.6.7/", true), ("http://localhost/", false),
    ("http://LOCALHOST:80/", false), ("http://127.255.255.255/", true), ("http://128.0.0.1/", false),
    ("http://[::1]:99/", true), ("http://10.0.0.1/", false), ("http://127.0.0.1.evil.com/", false),
    ("http://example.com/", false),
  ])
  func loopback(_ input: String, _ expected: Bool) throws {
    #expect(try WebURL(parsing: input).isLoopback == expected)
  }
}
