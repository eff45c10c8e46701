import Testing

import GHLoginTestSupport

@testable import GHLoginCore

@Suite struct CredentialCodingTests {
  @Test func writesTheDocumentedFormat() throws {
    let full = Credential(
      login: "octocat", userID: 1, token: "ghu_abc", tokenType: "bearer", scopes: ["repo"], createdAt: 1_700_000_000,
      expiresAt: 1_700_028_800.5, refreshToken: "ghr_def", refreshTokenExpiresAt: 1_715_000_000, viaDeviceFlow: true,
      isExpired: true)
    let minimal = Credential(login: "hubot", userID: 2, token: "gho_x", scopes: [], createdAt: 1_600_000_000)
    let credentials = Credentials(hosts: [
      "github.com": HostEntry(activeLogin: "octocat", accounts: [full, minimal]),
      "a.example": HostEntry(activeLogin: nil, accounts: []),
    ])
    let text = String(decoding: CredentialCoding.encode(credentials), as: UTF8.self)
    #expect(
      text == """
        {
          "version": 1,
          "hosts": {
            "a.example": {
              "accounts": []
            },
            "github.com": {
              "active": "octocat",
              "accounts": [
                {
                  "login": "octocat",
                  "user_id": 1,
                  "token": "ghu_abc",
                  "token_type": "bearer",
                  "scopes": [
                    "repo"
                  ],
                  "created_at": 1700000000,
                  "expires_at": 1700028800.5,
                  "refresh_token": "ghr_def",
                  "refresh_token_expires_at": 1715000000,
                  "via_device_flow": true,
                  "expired": true
                },
                {
                  "login": "hubot",
                  "user_id": 2,
                  "token": "gho_x",
                  "token_type": "bearer",
                  "scopes": [],
                  "created_at": 1600000000
                }
              ]
            }
          }
        }

        """)
    #expect(try CredentialCoding.decode(CredentialCoding.encode(credentials)) == credentials)
  }

  @Test func longOpaqueTokensRoundTrip() throws {
    let token = String((0..<1024).map { Array("abcXYZ019._-~+/")[$0 % 15] })
    let credentials = sampleCredentials(sampleCredential(token: token))
    try CredentialCoding.validate(credentials)
    #expect(try CredentialCoding.decode(CredentialCoding.encode(credentials)) == credentials)
  }

  @Test(arguments: [
    ("{", "invalid JSON at line 1, column 2"),
    ("[]", "the top level is not an object"),
    (#"{"hosts": {}}"#, #""version" is missing"#),
    (#"{"version": "1", "hosts": {}}"#, #""version" must be a positive integer"#),
    (#"{"version": 0, "hosts": {}}"#, #""version" must be a positive integer"#),
    (#"{"version": 1.0, "hosts": {}}"#, #""version" must be a positive integer"#),
    (#"{"version": 1}"#, #""hosts" is missing"#),
    (#"{"version": 1, "hosts": []}"#, #""hosts" must be an object"#),
    (#"{"version": 1, "hosts": {}, "extra": 1}"#, #"unknown key "extra""#),
    (#"{"version": 1, "hosts": {"": {"accounts": []}}}"#, #"a host name in "hosts" is empty"#),
    (#"{"version": 1, "hosts": {"h": []}}"#, #""hosts.h" must be an object"#),
    (#"{"version": 1, "hosts": {"h": {}}}"#, #""hosts.h.accounts" must be an array"#),
    (#"{"version": 1, "hosts": {"h": {"accounts": [], "active": 1}}}"#, #""hosts.h.active" must be a string"#),
    (#"{"version": 1, "hosts": {"h": {"accounts": [], "x\u001b": 1}}}"#, #"unknown key "hosts.h.x\u001b""#),
    (#"{"version": 1, "hosts": {"h": {"accounts": [1]}}}"#, #""hosts.h.accounts[0]" must be an object"#),
    (#"{"version": 1, "hosts": {"h": {"accounts": [{}]}}}"#, #""hosts.h.accounts[0].login" is missing"#),
  ])
  func rejectsShape(text: String, detail: String) {
    #expect(throws: CredentialCoding.Failure.invalid(detail)) { try CredentialCoding.decode(Array(text.utf8)) }
  }

  static let validAccount =
    #""login": "o", "user_id": 1, "token": "t", "token_type": "bearer", "scopes": [], "created_at": 1"#

  @Test(arguments: [
    (
      #""login": "", "user_id": 1, "token": "t", "token_type": "bearer", "scopes": [], "created_at": 1"#,
      #""P.login" is empty"#
    ),
    (
      #""login": "o", "user_id": 1.5, "token": "t", "token_type": "bearer", "scopes": [], "created_at": 1"#,
      #""P.user_id" must be an integer"#
    ),
    (
      #""login": "o", "user_id": 1, "token": "t t", "token_type": "bearer", "scopes": [], "created_at": 1"#,
      #""P.token" is not a valid token"#
    ),
    (
      #""login": "o", "user_id": 1, "token": "t=x", "token_type": "bearer", "scopes": [], "created_at": 1"#,
      #""P.token" is not a valid token"#
    ),
    (
      #""login": "o", "user_id": 1, "token": 5, "token_type": "bearer", "scopes": [], "created_at": 1"#,
      #""P.token" must be a string"#
    ),
    (#""login": "o", "user_id": 1, "token": "t", "scopes": [], "created_at": 1"#, #""P.token_type" is missing"#),
    (
      #""login": "o", "user_id": 1, "token": "t", "token_type": "bearer", "scopes": [1], "created_at": 1"#,
      #""P.scopes" must be an array of strings"#
    ),
    (
      #""login": "o", "user_id": 1, "token": "t", "token_type": "bearer", "scopes": [], "created_at": "1""#,
      #""P.created_at" must be a number"#
    ),
    (validAccount + #", "expires_at": null"#, #""P.expires_at" must be a number"#),
    (validAccount + #", "refresh_token": "a\nb""#, #""P.refresh_token" is not a valid token"#),
    (validAccount + #", "refresh_token_expires_at": true"#, #""P.refresh_token_expires_at" must be a number"#),
    (validAccount + #", "via_device_flow": 1"#, #""P.via_device_flow" must be true or false"#),
    (validAccount + #", "expired": "yes""#, #""P.expired" must be true or false"#),
    (validAccount + #", "password": "x""#, #"unknown key "P.password""#),
  ])
  func rejectsAccount(fields: String, detail: String) {
    let text = #"{"version": 1, "hosts": {"github.com": {"accounts": [{"# + fields + "}]}}}"
    let expected = detail.replacingOccurrences(of: "P.", with: "hosts.github.com.accounts[0].")
    #expect(throws: CredentialCoding.Failure.invalid(expected)) { try CredentialCoding.decode(Array(text.utf8)) }
  }

  @Test func acceptsAValidAccount() throws {
    let text = #"{"version": 1, "hosts": {"github.com": {"accounts": [{"# + Self.validAccount + "}]}}}"
    let credentials = try CredentialCoding.decode(Array(text.utf8))
    #expect(credentials.hosts["github.com"]?.accounts.first?.login == "o")
    #expect(credentials.hosts["github.com"]?.activeLogin == nil)
  }

  @Test(arguments: [5, 17])
  func newerVersion(version: Int) {
    // A newer version is recognised before its (possibly different) shape is looked at.
    let text = #"{"version": \#(version), "accounts": "whatever"}"#
    #expect(throws: CredentialCoding.Failure.newerVersion(version)) { try CredentialCoding.decode(Array(text.utf8)) }
  }

  @Test(arguments: [
    "", "a b", "a\tb", "a\r\nb", "a=b", "==", "a\"b", "a,b", "tok\u{e9}n", "a\u{7f}", "a\u{0}b", "ghp_x\u{2028}",
  ])
  func refusesToWriteBadTokens(token: String) {
    let bad = sampleCredentials(sampleCredential(token: token))
    let error = #expect(throws: StoreError.invalidToken(host: "github.com", login: "octocat", field: "token")) {
      try CredentialCoding.validate(bad)
    }
    if !token.isEmpty { #expect(error?.message.contains(token) == false) }
    #expect(
      error?.message
        == "refusing to store the token of octocat on github.com: it is not an RFC 6750 token (only letters, digits, '-._~+/' and trailing '=' are allowed)"
    )

    var withRefresh = sampleCredential()
    withRefresh.refreshToken = token
    #expect(throws: StoreError.invalidToken(host: "github.com", login: "octocat", field: "refresh token")) {
      try CredentialCoding.validate(sampleCredentials(withRefresh))
    }
  }

  @Test func refusesOtherUnstorableValues() {
    #expect(throws: StoreError.invalidCredential(host: "github.com", reason: "a login is empty")) {
      try CredentialCoding.validate(sampleCredentials(sampleCredential("")))
    }
    var infinite = sampleCredential()
    infinite.expiresAt = .infinity
    #expect(
      throws: StoreError.invalidCredential(host: "github.com", reason: "a time of octocat is not a finite number")
    ) {
      try CredentialCoding.validate(sampleCredentials(infinite))
    }
    #expect(throws: StoreError.invalidCredential(host: "\"\"", reason: "the host name is empty")) {
      try CredentialCoding.validate(sampleCredentials(host: ""))
    }
  }

  /// R106: a host key is a host name as `--host` takes it, written as
  /// ghlogin writes it; anything else makes the file invalid, and the detail shows the key
  /// escaped (no ESC byte), never raw.
  @Test(arguments: [
    (
      #"\u001b[31mevil"#,
      #"the host name "\u001b[31mevil" in "hosts" is not valid: it contains a space or a control character"#
    ),
    (
      #"\u009b31m"#,
      #"the host name "\u009b31m" in "hosts" is not valid: it contains a non-ASCII character (use the punycode xn-- form)"#
    ),
    (
      "ghe example.com",
      #"the host name "ghe example.com" in "hosts" is not valid: it contains a space or a control character"#
    ),
    ("octocat@github.com", #"the host name "octocat@github.com" in "hosts" is not valid: it contains user info (@)"#),
    ("github.com/evil", #"the host name "github.com/evil" in "hosts" is not valid: it contains a path"#),
    (
      "https://github.com",
      #"the host name "https://github.com" in "hosts" is not valid: give the host name only, without https://"#
    ),
    ("github.com.", #"the host name "github.com." in "hosts" is not valid: it ends with a dot"#),
    (
      "github.com:0",
      #"the host name "github.com:0" in "hosts" is not valid: its port must be a number from 1 to 65535"#
    ),
    ("GitHub.com", #"the host name "GitHub.com" in "hosts" is not valid: it is written as github.com"#),
    ("github.com:443", #"the host name "github.com:443" in "hosts" is not valid: it is written as github.com"#),
  ])
  func refusesHostKeysThatAreNotHostNames(key: String, detail: String) {
    let text = #"{"version": 1, "hosts": {"# + "\"\(key)\"" + #": {"accounts": [{"# + Self.validAccount + "}]}}}"
    let error = #expect(throws: CredentialCoding.Failure.self) { try CredentialCoding.decode(Array(text.utf8)) }
    #expect(error == .invalid(detail))
    #expect(!detail.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B })
  }

  @Test func aLongBadHostKeyIsShownCut() {
    let key = String(repeating: "a", count: 150) + " b"
    let text = #"{"version": 1, "hosts": {"# + "\"\(key)\"" + #": {"accounts": []}}}"#
    #expect(
      throws: CredentialCoding.Failure.invalid(
        "the host name \"\(String(repeating: "a", count: 100))…\" in \"hosts\" is not valid: it contains a space or a control character"
      )
    ) { try CredentialCoding.decode(Array(text.utf8)) }
  }

  @Test(arguments: ["github.com", "ghe.example.com:8443", "tenant.ghe.com", "127.0.0.1:8080", "[::1]:8443", "h"])
  func acceptsHostKeysAsGhloginWritesThem(key: String) throws {
    let credentials = sampleCredentials(host: key)
    try CredentialCoding.validate(credentials)
    #expect(try CredentialCoding.decode(CredentialCoding.encode(credentials)) == credentials)
  }

  /// Writing refuses what reading would refuse, so ghlogin never writes a file it cannot read.
  @Test func refusesToWriteAHostKeyThatIsNotAHostName() {
    let error = #expect(throws: StoreError.self) {
      try CredentialCoding.validate(sampleCredentials(host: "x\u{1b}]0;t\u{7}"))
    }
    #expect(
      error
        == .invalidCredential(
          host: #""x\u001b]0;t\u0007""#,
          reason: "the host name is not valid: it contains a space or a control character"))
    #expect(
      throws: StoreError.invalidCredential(
        host: #""GitHub.com""#, reason: "the host name is not valid: it is written as github.com")
    ) {
      try CredentialCoding.validate(sampleCredentials(host: "GitHub.com"))
    }
  }

  @Test func acceptableTokens() {
    #expect(Credential.isAcceptableToken("ghp_ABCdef0123456789"))
    #expect(Credential.isAcceptableToken("ghs_1.eyJh-bGci_Oi~x/y+z"))
    #expect(Credential.isAcceptableToken("a=="), "RFC 6750 b64token: trailing padding")
    #expect(!Credential.isAcceptableToken("a==b"))
  }

  @Test func hostEntryLookup() {
    let entry = HostEntry(activeLogin: "OctoCat", accounts: [sampleCredential("hubot"), sampleCredential("octocat")])
    #expect(entry.account("HUBOT")?.login == "hubot")
    #expect(entry.active?.login == "octocat")
    #expect(HostEntry(activeLogin: "ghost", accounts: []).active == nil)
  }
}
