import Testing

import GHLoginTestSupport

@testable import GHLoginCLI

/// `token --header`, `status --json` and `whoami --json`: output for scripts.
@Suite(.verifiesFakes) struct ScriptOutputTests {
  static let token = "gho_16C7e42F292c6912E7710c838347Ae178B4a"

  let fixture: StoreFixture
  var variables: [String: String] { ["HOME": fixture.home] }

  init() throws { fixture = try StoreFixture() }

  @Test func tokenHeaderPrintsAnAuthorizationLine() throws {
    try fixture.store().update { $0 = sampleCredentials(sampleCredential(token: Self.token)) }
    let run = runCommand(["token", "--header"], variables: variables)
    #expect(run.status == .success)
    #expect(run.stdout == "Authorization: Bearer \(Self.token)\n")
    let missing = runCommand(["token", "--header", "--host", "ghe.example.com"], variables: variables)
    #expect(missing.status == .notLoggedIn)
    #expect(missing.stdout.isEmpty)
  }

  @Test func statusJSONIsTheDocumentedObjectWithoutSecrets() throws {
    var credentials = sampleCredentials(sampleCredential(token: Self.token))
    var second = sampleCredential("hubot", token: "ghu_SECONDaccountTOKEN000000000000000042")
    second.userID = 2
    second.scopes = []
    second.expiresAt = 1_700_028_800.5
    second.refreshToken = "ghr_REFRESHtoken0000000000000000000000000000"
    credentials.save(second, on: "ghe.example.com")
    try fixture.store().update { $0 = credentials }

    let run = runCommand(["status", "--json", "--offline"], variables: variables)
    #expect(run.status == .success)
    #expect(run.stderr.isEmpty)
    #expect(!run.stdout.contains(Self.token))
    #expect(!run.stdout.contains("SECONDaccount"))
    #expect(!run.stdout.contains("ghr_"))
    let document = try JSON.parse(run.stdout)
    let expected: JSONValue = [
      "credentials_file": .string(fixture.file),
      "hosts": [
        "ghe.example.com": [
          "accounts": [
            [
              "login": "hubot", "active": true, "login_stale": false, "scopes": [], "expires_at": 1_700_028_800,
              "session_expired": false,
              "token_redacted": "ghu_****0042", "store": "file", "check": nil,
              "github_token_expiration": nil, "sso_unauthorized_organizations": nil,
            ]
          ],
          "chosen": ["login": "hubot", "chosen_by": "default", "reason": "the host's default account"],
        ],
        "github.com": [
          "accounts": [
            [
              "login": "octocat", "active": true, "login_stale": false, "scopes": ["repo", "read:org"],
              "expires_at": nil,
              "session_expired": false, "token_redacted": "gho_****8B4a", "store": "file", "check": nil,
              "github_token_expiration": nil, "sso_unauthorized_organizations": nil,
            ]
          ],
          "chosen": ["login": "octocat", "chosen_by": "default", "reason": "the host's default account"],
        ],
      ],
    ]
    #expect(document == expected)
  }

  @Test func statusJSONWithNoLoginsPrintsNoHostsAndExits4() throws {
    let run = runCommand(["status", "--json", "--offline"], variables: variables)
    #expect(run.status == .notLoggedIn)
    #expect(try JSON.parse(run.stdout) == ["credentials_file": .string(fixture.file), "hosts": [:]])
    #expect(run.stderr == "ghlogin: not logged in to any host; run 'ghlogin auth'\n")

    try fixture.store().update { $0 = sampleCredentials(sampleCredential(token: Self.token)) }
    let other = runCommand(["status", "--json", "--offline", "--host", "ghe.example.com"], variables: variables)
    #expect(other.status == .notLoggedIn)
    #expect(try JSON.parse(other.stdout) == ["credentials_file": .string(fixture.file), "hosts": [:]])
    #expect(other.stderr == "ghlogin: not logged in to ghe.example.com; run 'ghlogin auth --host ghe.example.com'\n")
  }

  @Test func whoamiJSONPrintsGitHubsObjectAndExits4WhenTheTokenIsRejected() throws {
    try fixture.store().update { $0 = sampleCredentials(sampleCredential(token: Self.token)) }
    let body = #"{"login":"octocat","id":583231,"name":"The Octocat"}"#
    let ok = FakeTransport()
    ok.on("GET", "https://api.github.com/user", respond: .json(body))
    let run = runCommand(["whoami", "--json"], variables: variables, transport: ok)
    #expect(run.status == .success)
    #expect(run.stdout == body + "\n")

    let rejected = FakeTransport()
    rejected.on("GET", "https://api.github.com/user", respond: .json(#"{"message":"Bad credentials"}"#, status: 401))
    let bad = runCommand(["whoami", "--json"], variables: variables, transport: rejected)
    #expect(bad.status == .notLoggedIn)
    #expect(bad.stdout.isEmpty)

    let nobody = runCommand(["whoami", "--json", "--host", "ghe.example.com"], variables: variables)
    #expect(nobody.status == .notLoggedIn)
    #expect(nobody.stdout.isEmpty)
  }
}
