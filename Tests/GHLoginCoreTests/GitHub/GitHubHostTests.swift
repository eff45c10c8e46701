import Testing

import GHLoginTestSupport

@testable import GHLoginCore

@Suite struct GitHubHostTests {
  @Test(arguments: [
    ("github.com", "github.com"),
    ("GitHub.COM", "github.com"),
    ("github.com:443", "github.com"),
    ("ghe.test:8443", "ghe.test:8443"),  // R47
    ("GHE.test", "ghe.test"),  // R47
    ("127.0.0.1:9000", "127.0.0.1:9000"),
    ("[::1]:8443", "[::1]:8443"),
    ("[::1]", "[::1]"),
    ("xn--gh-ofa.test", "xn--gh-ofa.test"),
    ("tuf-repo.github.com", "tuf-repo.github.com"),
  ])
  func acceptsAndNormalises(input: String, expected: String) throws {
    #expect(try GitHubHost(validating: input).name == expected)
  }

  @Test(arguments: [
    ("", "it is empty"),
    ("github.test@evil.test", "it contains user info (@)"),
    ("evil.test/github.test", "it contains a path"),
    ("ghe.test#x", "it contains a fragment (#)"),
    ("ghe.test?x=1", "it contains a query (?)"),
    ("GHE.test.", "it ends with a dot"),
    ("gh\u{0435}.test", "it contains a non-ASCII character (use the punycode xn-- form)"),
    ("ghe.test\n", "it contains a space or a control character"),
    ("ghe test", "it contains a space or a control character"),
    ("\u{1B}[31mghe.test", "it contains a space or a control character"),
    ("https://github.com", "give the host name only, without https://"),
    ("ghe.test\\x", "it contains a path"),
    ("ghe.test:0", "its port must be a number from 1 to 65535"),
    ("ghe.test:65536", "its port must be a number from 1 to 65535"),
    ("ghe.test:", "its port must be a number from 1 to 65535"),
    ("ghe.test:+80", "its port must be a number from 1 to 65535"),
    ("ghe.test:80:80", "its port must be a number from 1 to 65535"),
    ("ghe..test", "it must be a DNS name of letters, digits, '-' and '.', or an IP address"),
    ("-ghe.test", "it must be a DNS name of letters, digits, '-' and '.', or an IP address"),
    ("ghe_x.test", "it must be a DNS name of letters, digits, '-' and '.', or an IP address"),
    ("[::1", "its IPv6 address is not closed with ]"),
    ("[::1]x", "unexpected text after the IPv6 address"),
    ("[]", "it must be a DNS name of letters, digits, '-' and '.', or an IP address"),
  ])
  func rejects(input: String, reason: String) {
    #expect(throws: GitHubHost.ValidationError(input: input, reason: reason)) {
      try GitHubHost(validating: input)
    }
  }

  /// R106: a credentials-file key is valid input already in its normal form.
  @Test func storedNamesAreValidHostsInTheirNormalForm() throws {
    #expect(try GitHubHost(storedName: "ghe.example.com:8443").name == "ghe.example.com:8443")
    #expect(try GitHubHost(storedName: "[::1]:8443").name == "[::1]:8443")
    #expect(
      throws: GitHubHost.ValidationError(input: "GHE.example.com", reason: "it is written as ghe.example.com")
    ) {
      try GitHubHost(storedName: "GHE.example.com")
    }
    #expect(throws: GitHubHost.ValidationError(input: "github.com:443", reason: "it is written as github.com")) {
      try GitHubHost(storedName: "github.com:443")
    }
    #expect(throws: GitHubHost.ValidationError(input: "a@b", reason: "it contains user info (@)")) {
      try GitHubHost(storedName: "a@b")
    }
  }

  @Test func rejectionMessageIsSanitizedAndAUsageError() {
    let error = GitHubHost.ValidationError(input: "\u{1B}[31mx\n", reason: "r")
    #expect(!error.message.contains("\u{1B}"))
    #expect(!error.message.contains("\n"))
    #expect(error.exitStatus == .usage)
  }

  @Test func gitHubDotComEndpoints() throws {
    let endpoints = try GitHubHost(validating: "github.com").defaultEndpoints
    #expect(endpoints.authorize.description == "https://github.com/login/oauth/authorize")
    #expect(endpoints.token.description == "https://github.com/login/oauth/access_token")
    #expect(endpoints.deviceCode.description == "https://github.com/login/device/code")
    #expect(endpoints.api.description == "https://api.github.com/")
    #expect(GitHubHost.gitHubDotCom.isGitHubDotCom)
  }

  /// R48.
  @Test func enterpriseServerEndpoints() throws {
    let endpoints = try GitHubHost(validating: "ghe.test").defaultEndpoints
    #expect(endpoints.authorize.description == "https://ghe.test/login/oauth/authorize")
    #expect(endpoints.token.description == "https://ghe.test/login/oauth/access_token")
    #expect(endpoints.deviceCode.description == "https://ghe.test/login/device/code")
    #expect(endpoints.api.description == "https://ghe.test/api/v3")
    #expect(endpoints.api.appending(path: "user").description == "https://ghe.test/api/v3/user")
  }

  @Test func enterpriseServerWithPortKeepsThePort() throws {
    let endpoints = try GitHubHost(validating: "ghe.test:8443").defaultEndpoints
    #expect(endpoints.token.description == "https://ghe.test:8443/login/oauth/access_token")
    #expect(endpoints.api.description == "https://ghe.test:8443/api/v3")
  }

  @Test func gheDotComEndpoints() throws {
    let endpoints = try GitHubHost(validating: "Octo.GHE.com").defaultEndpoints
    #expect(endpoints.authorize.description == "https://octo.ghe.com/login/oauth/authorize")
    #expect(endpoints.token.description == "https://octo.ghe.com/login/oauth/access_token")
    #expect(endpoints.api.description == "https://api.octo.ghe.com/")
  }

  @Test func subdomainsOfGitHubAreNotGitHub() throws {
    let host = try GitHubHost(validating: "tuf-repo.github.com")
    #expect(!host.isGitHubDotCom)
    #expect(host.defaultEndpoints.api.description == "https://tuf-repo.github.com/api/v3")
    #expect(try !GitHubHost(validating: "github.com:8443").isGitHubDotCom)
  }

  @Test func configuredEndpointsReplaceDefaults() throws {
    let token = try WebURL(parsing: "http://127.0.0.1:8080/token")
    let api = try WebURL(parsing: "https://api.github.test")
    let endpoints = Endpoints(host: .gitHubDotCom, token: token, api: api)
    #expect(endpoints.token == token)
    #expect(endpoints.api == api)
    #expect(endpoints.authorize.description == "https://github.com/login/oauth/authorize")
    #expect(endpoints.deviceCode.description == "https://github.com/login/device/code")
  }

  @Test func oauthAppDescriptionHidesTheSecret() {
    let app = OAuthApp(clientID: "Iv1.abc", clientSecret: "s3cr3t-value", scopes: ["repo"])
    #expect(!app.description.contains("s3cr3t-value"))
    #expect(app.description.contains("Iv1.abc"))
  }
}
