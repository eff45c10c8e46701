import Foundation
import Testing

import GHLoginTestSupport
@testable import GHLoginCore

/// Two apps on one host (SECURITY.md): a stored login records the client ID of the OAuth app that issued it. The
/// credentials file gains an account's `"client_id"` in version 2; a file in which no account
/// has one is still written as version 1, byte for byte as before, so an older ghlogin keeps
/// reading it.
@Suite struct CredentialClientIDTests {
  static func login(clientID: String?, storage: TokenStorage = .file) -> Credential {
    var credential = Credential(
      login: "octocat", userID: 1, token: "ghu_abc", scopes: ["repo"], createdAt: 1_700_000_000,
      expiresAt: 1_700_028_800, refreshToken: "ghr_def", viaDeviceFlow: true)
    credential.clientID = clientID
    credential.storage = storage
    return credential
  }

  static let version1Text = """
    {
      "version": 1,
      "hosts": {
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
              "expires_at": 1700028800,
              "refresh_token": "ghr_def",
              "via_device_flow": true
            }
          ]
        }
      }
    }

    """

  /// No client IDs: version 1, exactly the bytes this ghlogin wrote before client IDs were kept.
  @Test func withoutClientIDsTheFileIsVersion1AsBefore() throws {
    let credentials = sampleCredentials(Self.login(clientID: nil))
    #expect(credentials.formatVersion == 1)
    #expect(String(decoding: CredentialCoding.encode(credentials), as: UTF8.self) == Self.version1Text)
    #expect(try CredentialCoding.decode(Array(Self.version1Text.utf8)) == credentials)
  }

  /// One account with a client ID makes the file version 2, with `"client_id"` last.
  @Test func aClientIDMakesTheFileVersion2() throws {
    let other = Credential(login: "hubot", userID: 2, token: "gho_x", createdAt: 1_600_000_000)
    var credentials = sampleCredentials(Self.login(clientID: "Iv1.appA"))
    credentials.hosts["ghe.example.com"] = HostEntry(activeLogin: "hubot", accounts: [other])
    #expect(credentials.formatVersion == 2)
    let text = String(decoding: CredentialCoding.encode(credentials), as: UTF8.self)
    #expect(
      text == """
        {
          "version": 2,
          "hosts": {
            "ghe.example.com": {
              "active": "hubot",
              "accounts": [
                {
                  "login": "hubot",
                  "user_id": 2,
                  "token": "gho_x",
                  "token_type": "bearer",
                  "scopes": [],
                  "created_at": 1600000000
                }
              ]
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
                  "expires_at": 1700028800,
                  "refresh_token": "ghr_def",
                  "via_device_flow": true,
                  "client_id": "Iv1.appA"
                }
              ]
            }
          }
        }

        """)
    #expect(try CredentialCoding.decode(CredentialCoding.encode(credentials)) == credentials)
  }

  /// Round trips, file and keyring accounts alike (a keyring account's metadata, its client ID
  /// with it, is in the file).
  @Test(arguments: [TokenStorage.file, .keyring])
  func theClientIDRoundTrips(storage: TokenStorage) throws {
    var credential = Self.login(clientID: "Iv1.appA", storage: storage)
    if storage == .keyring {
      credential.token = ""
      credential.refreshToken = ""
    }
    let credentials = sampleCredentials(credential)
    try CredentialCoding.validate(credentials)
    let decoded = try CredentialCoding.decode(CredentialCoding.encode(credentials))
    #expect(decoded == credentials)
    #expect(decoded.hosts["github.com"]?.accounts.first?.clientID == "Iv1.appA")
  }

  /// A version-2 file whose accounts have no client ID is read, and written back as version 1.
  @Test func aVersion2FileWithoutClientIDsIsReadAndWrittenAsVersion1() throws {
    let version2 = Self.version1Text.replacingOccurrences(of: #""version": 1"#, with: #""version": 2"#)
    let decoded = try CredentialCoding.decode(Array(version2.utf8))
    #expect(decoded == sampleCredentials(Self.login(clientID: nil)))
    #expect(String(decoding: CredentialCoding.encode(decoded), as: UTF8.self) == Self.version1Text)
  }

  /// `"client_id"` is a version-2 key: a version-1 file with one is refused as any unknown key is.
  @Test func aVersion1FileWithAClientIDIsRefused() {
    let text =
      #"{"version": 1, "hosts": {"github.com": {"accounts": [{"# + CredentialCodingTests.validAccount
      + #", "client_id": "Iv1.appA"}]}}}"#
    #expect(throws: CredentialCoding.Failure.invalid(#"unknown key "hosts.github.com.accounts[0].client_id""#)) {
      try CredentialCoding.decode(Array(text.utf8))
    }
  }

  @Test(arguments: [
    (#""client_id": 7"#, #""P.client_id" must be a string"#),
    (#""client_id": """#, #""P.client_id" must not be empty or contain spaces or control characters"#),
    (#""client_id": "Iv1 x""#, #""P.client_id" must not be empty or contain spaces or control characters"#),
    (#""client_id": "Iv1\u001b[2Jx""#, #""P.client_id" must not be empty or contain spaces or control characters"#),
  ])
  func aBadClientIDIsRefused(field: String, detail: String) {
    let text =
      #"{"version": 2, "hosts": {"github.com": {"accounts": [{"# + CredentialCodingTests.validAccount + ", "
      + field + "}]}}}"
    let expected = detail.replacingOccurrences(of: "P.", with: "hosts.github.com.accounts[0].")
    #expect(throws: CredentialCoding.Failure.invalid(expected)) { try CredentialCoding.decode(Array(text.utf8)) }
  }

  @Test(arguments: ["", "Iv1 x", "Iv1\u{1b}x"])
  func aBadClientIDIsNeverWritten(clientID: String) {
    #expect(
      throws: StoreError.invalidCredential(
        host: "github.com", reason: "the client ID of octocat is empty or has spaces or control characters")
    ) {
      try CredentialCoding.validate(sampleCredentials(Self.login(clientID: clientID)))
    }
  }

  /// A refresh replaces the tokens and keeps the client ID.
  @Test func aRefreshKeepsTheClientID() {
    let response = TokenResponse(accessToken: "ghu_new", expiresIn: 28800, refreshToken: "ghr_new")
    let renewed = Self.login(clientID: "Iv1.appA").refreshed(with: response, receivedAt: 1_700_000_100)
    #expect(renewed.token == "ghu_new")
    #expect(renewed.clientID == "Iv1.appA")
  }

  /// The one comparison behind both rules: the app that issued it, or no app recorded.
  @Test func whichAppsMayUseALogin() {
    #expect(Self.login(clientID: "Iv1.appA").isUsable(byApp: "Iv1.appA"))
    #expect(!Self.login(clientID: "Iv1.appA").isUsable(byApp: "Iv1.appB"))
    #expect(!Self.login(clientID: "Iv1.appA").isUsable(byApp: "iv1.appa"))
    #expect(Self.login(clientID: nil).isUsable(byApp: "Iv1.appB"))
  }
}
