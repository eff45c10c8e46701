import Testing

import GHLoginTestSupport

@testable import GHLoginCore

struct ProxyTests {
  @Test(arguments: [
    ("http://user:pw@127.0.0.1:3128", ProxyURL(host: "127.0.0.1", port: 3128, username: "user", password: "pw")),
    ("proxy.corp:8080", ProxyURL(host: "proxy.corp", port: 8080)),
    ("http://Proxy.Corp", ProxyURL(host: "proxy.corp", port: 1080)),
    ("HTTP://proxy.corp:3128/", ProxyURL(host: "proxy.corp", port: 3128)),
    ("  http://proxy.corp:3128  ", ProxyURL(host: "proxy.corp", port: 3128)),
    ("http://[::1]:3128", ProxyURL(host: "[::1]", port: 3128)),
    ("http://u%40corp:p%3Aw+d@h.test:1", ProxyURL(host: "h.test", port: 1, username: "u@corp", password: "p:w+d")),
    ("http://user@h.test:1", ProxyURL(host: "h.test", port: 1, username: "user", password: nil)),
    ("http://us:p@ss@h.test:1", ProxyURL(host: "h.test", port: 1, username: "us", password: "p@ss")),
  ])
  func parsesProxyURLs(_ text: String, expected: ProxyURL) throws {
    #expect(try ProxyURL(parsing: text) == expected)
  }

  @Test(arguments: [
    ("https://proxy.corp:443", "only http:// proxies are supported (the tunnel to the server is TLS)"),
    ("socks5://proxy.corp:1080", "only http:// proxies are supported (the tunnel to the server is TLS)"),
    ("http://proxy.corp:0", "its port must be a number from 1 to 65535"),
    ("http://proxy.corp:65536", "its port must be a number from 1 to 65535"),
    ("http://proxy.corp:", "its port must be a number from 1 to 65535"),
    ("http://proxy.corp/path", "the URL must not have a path"),
    ("http://proxy.corp?x", "the URL must not have a path"),
    ("http://user:sec ret@proxy.corp", "the URL has a space, control or non-ASCII character"),
    ("http://user:secret%zz@proxy.corp", "its user info has invalid percent-encoding"),
    ("http://user:secret@bad_host", "'bad_host' is not a valid host name"),
    ("http://user:secret@", "it has no host"),
    ("http://[::1", "its IPv6 address is not closed with ]"),
    ("", "it has no host"),
  ])
  func rejectsBadProxyURLs(_ text: String, reason: String) {
    #expect(throws: HTTPError.invalidProxy(reason: reason)) { try ProxyURL(parsing: text) }
  }

  @Test func credentialsNeverShow() throws {
    let proxy = try ProxyURL(parsing: "http://user:hunter2@proxy.corp:3128")
    #expect(proxy.description == "proxy.corp:3128")
    #expect(!String(describing: HTTPError.proxyAuthenticationRequired(proxy: proxy.description)).contains("hunter2"))
    do {
      _ = try ProxyURL(parsing: "http://user:hunter2@bad_host:1")
    } catch {
      #expect(!error.message.contains("hunter2"))
      #expect(error.exitStatus == .usage)
    }
  }

  @Test func basicAuthorization() throws {
    // R78, R79: user:pw → Basic dXNlcjpwdw==
    #expect(try ProxyURL(parsing: "http://user:pw@127.0.0.1:3128").authorization == "Basic dXNlcjpwdw==")
    #expect(try ProxyURL(parsing: "http://user@127.0.0.1:3128").authorization == "Basic dXNlcjo=")
    #expect(try ProxyURL(parsing: "http://127.0.0.1:3128").authorization == nil)
  }

  @Test(arguments: [
    ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
    ("foobar", "Zm9vYmFy"),
  ])
  func base64MatchesRFC4648(_ input: String, _ output: String) {
    #expect(Crypto.base64(Array(input.utf8)) == output)
  }

  @Test func lowercaseHTTPSProxyWins() throws {
    let settings = try ProxySettings(variables: ["https_proxy": "http://lower:1", "HTTPS_PROXY": "http://upper:2"])
    #expect(settings.proxy == ProxyURL(host: "lower", port: 1))
    let upper = try ProxySettings(variables: ["HTTPS_PROXY": "http://upper:2"])
    #expect(upper.proxy == ProxyURL(host: "upper", port: 2))
    let emptyLower = try ProxySettings(variables: ["https_proxy": "", "HTTPS_PROXY": "http://upper:2"])
    #expect(emptyLower.proxy == ProxyURL(host: "upper", port: 2))
  }

  @Test func httpProxyIsNeverUsedForHTTPS() throws {
    // R78
    let settings = try ProxySettings(variables: [
      "http_proxy": "http://p:1", "HTTP_PROXY": "http://p:2", "ALL_PROXY": "http://p:3",
    ])
    #expect(settings.proxy == nil)
    #expect(settings.proxy(for: try WebURL(parsing: "https://github.test/")) == nil)
  }

  @Test func selection() throws {
    let settings = try ProxySettings(variables: ["https_proxy": "http://p.corp:3128", "no_proxy": "internal.corp"])
    let proxy = ProxyURL(host: "p.corp", port: 3128)
    #expect(settings.proxy(for: try WebURL(parsing: "https://github.test/")) == proxy)
    #expect(settings.proxy(for: try WebURL(parsing: "https://api.internal.corp/")) == nil)
    #expect(settings.proxy(for: try WebURL(parsing: "https://127.0.0.1:8443/")) == nil)
    #expect(settings.proxy(for: try WebURL(parsing: "https://127.9.9.9/")) == nil)
    #expect(settings.proxy(for: try WebURL(parsing: "https://localhost/")) == nil)
    #expect(settings.proxy(for: try WebURL(parsing: "https://[::1]/")) == nil)
    #expect(settings.proxy(for: try WebURL(parsing: "http://127.0.0.1/")) == nil)
  }

  @Test func lowercaseNoProxyWins() throws {
    let settings = try ProxySettings(variables: [
      "https_proxy": "http://p:1", "no_proxy": "a.test", "NO_PROXY": "b.test",
    ])
    #expect(settings.proxy(for: try WebURL(parsing: "https://a.test/")) == nil)
    #expect(settings.proxy(for: try WebURL(parsing: "https://b.test/")) != nil)
  }
}

struct NoProxyTests {
  @Test(arguments: [
    // R78
    (".github.test", "api.github.test", 443, true),
    (".github.test", "github.test", 443, false),
    ("github.test", "github.test", 443, true),
    ("github.test", "api.github.test", 443, true),
    ("*", "github.test", 443, true),
    ("*", "anything.example", 8443, true),
    ("hub.test", "github.test", 443, false),
    // Label boundary, case, whitespace, trailing dots, wildcards.
    ("example.com", "notexample.com", 443, false),
    ("example.com", "example.com.evil.test", 443, false),
    (" Example.COM ", "api.example.com", 443, true),
    ("example.com.", "example.com", 443, true),
    ("example.com", "example.com.", 443, true),
    ("*.example.com", "example.com", 443, false),
    ("*.example.com", "a.b.example.com", 443, true),
    ("a.test,, ,b.test", "b.test", 443, true),
    ("a.test,b.test", "c.test", 443, false),
    ("", "github.test", 443, false),
    ("*.*", "github.test", 443, false),
    // Ports.
    ("github.test:443", "github.test", 443, true),
    ("github.test:8443", "github.test", 443, false),
    (".github.test:443", "api.github.test", 443, true),
    ("github.test:x", "github.test", 443, false),
    // IPs and CIDRs (IP-literal hosts only).
    ("10.1.2.3", "10.1.2.3", 443, true),
    ("10.1.2.3", "10.1.2.4", 443, false),
    ("10.0.0.0/8", "10.200.3.4", 443, true),
    ("10.0.0.0/8", "11.0.0.1", 443, false),
    ("192.168.1.0/24", "192.168.1.77", 443, true),
    ("192.168.1.0/25", "192.168.1.200", 443, false),
    ("0.0.0.0/0", "8.8.8.8", 443, true),
    ("10.0.0.0/8", "ten.example", 443, false),
    ("10.0.0.0/33", "10.0.0.1", 443, false),
    ("10.1.2.3:8443", "10.1.2.3", 8443, true),
    ("10.1.2.3:8443", "10.1.2.3", 443, false),
    ("::1", "[::1]", 443, true),
    ("[::1]", "[::1]", 443, true),
    ("[::1]:443", "[::1]", 443, true),
    ("[::1]:444", "[::1]", 443, false),
    ("fd00::/8", "[fd12:3456::1]", 443, true),
    ("fd00::/8", "[fe80::1]", 443, false),
    ("2001:db8::/32", "[2001:db8:ffff::1]", 443, true),
    ("10.0.0.0/8", "[::ffff:10.0.0.1]", 443, false),
  ])
  func matching(_ list: String, _ host: String, _ port: Int, _ expected: Bool) {
    #expect(NoProxy(list).matches(host: host, port: port) == expected, "NO_PROXY=\(list) host=\(host):\(port)")
  }
}
