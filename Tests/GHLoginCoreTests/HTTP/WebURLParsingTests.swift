import Testing

@testable import GHLoginCore

/// `WebURL(parsing:)` on the bytes (issue 30 §3): what each URL parses to, and each refusal's
/// reason, in the order the checks run.
@Suite struct WebURLParsingTests {
  static let accepted: [(String, String)] = [
    ("https://github.com/login/oauth/authorize", "https github.com 443 /login/oauth/authorize"),
    ("HTTPS://GitHub.COM", "https github.com 443 /"),
    ("hTTp://127.0.0.1:8080?x=1", "http 127.0.0.1 8080 /?x=1"),
    ("https://ghe.test:00443/api/v3", "https ghe.test 443 /api/v3"),
    ("https://[::1]:65535/p?q", "https [::1] 65535 /p?q"),
    ("https://[FE80::1]/", "https [fe80::1] 443 /"),
    ("https://a.b:1", "https a.b 1 /"),
  ]

  @Test(arguments: accepted)
  func parses(_ text: String, _ expected: String) throws {
    let url = try WebURL(parsing: text)
    #expect("\(url.scheme.rawValue) \(url.host) \(url.port) \(url.pathAndQuery)" == expected)
  }

  static let refused: [(String, String)] = [
    ("https://git hub.com/", "it contains a space, a control character or a non-ASCII character"),
    ("https://gïthub.com/", "it contains a space, a control character or a non-ASCII character"),
    ("github.com/login", "it is not an absolute URL (expected https://HOST/...)"),
    ("https:/x", "it is not an absolute URL (expected https://HOST/...)"),
    ("ftp://github.com/", "only https:// URLs are supported"),
    ("httpsx://github.com/", "only https:// URLs are supported"),
    ("http5://github.com/", "only https:// URLs are supported"),
    ("https://github.com/#x", "it has a fragment (#...)"),
    ("https://user@github.com/", "it has user info (user@host); put credentials in the config instead"),
    ("https://github.com:0/", "its port must be a number from 1 to 65535"),
    ("https://github.com:65536/", "its port must be a number from 1 to 65535"),
    ("https://github.com:/", "its port must be a number from 1 to 65535"),
    ("https://github.com:+443/", "its port must be a number from 1 to 65535"),
    ("https://github.com:100000/", "its port must be a number from 1 to 65535"),
    ("https://[::1/", "its IPv6 address is not closed with ]"),
    ("https://[::1]x/", "unexpected text after the IPv6 address"),
    ("https://:443/", "it has no host"),
    ("https:///path", "it has no host"),
    ("https://Exa_mple.com/", "'exa_mple.com' is not a valid host name"),
    ("https://-a.com/", "'-a.com' is not a valid host name"),
  ]

  @Test(arguments: refused)
  func refuses(_ text: String, _ reason: String) {
    #expect(throws: WebURL.ParseError(reason: reason)) { try WebURL(parsing: text) }
  }

  /// The proxy parser shares the authority's checks; a host that is not ASCII is named
  /// lowercased as `String.lowercased()` does it.
  @Test func theProxyAuthority() throws {
    #expect(try WebURL.parseAuthority("Proxy.Example:3128") == ("proxy.example", 3128))
    #expect(throws: WebURL.ParseError(reason: "'prøxy' is not a valid host name")) {
      try WebURL.parseAuthority("PRØXY")
    }
  }
}
