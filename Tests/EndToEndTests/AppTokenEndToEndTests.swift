import Foundation
import Testing

/// `ghlogin app token` against the fake's installations (Tests/FakeGitHub/fakegh/installations.py),
/// which verifies the app's JWT in pure Python with the public key the test reads with
/// `openssl rsa -noout -text` (issue 34 §1, §3; R113, R114, T99).
@Suite struct AppTokenEndToEndTests {
  static let clientID = "Iv23liTestAppKey"
  static let tokensPath = "/app/installations/7/access_tokens"

  let fake: FakeGitHub
  let sandbox: Sandbox
  let keyFile: String

  init() throws {
    fake = try FakeGitHub.start()
    sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    keyFile = sandbox.home + "/app.pem"
    try #require(Self.openssl(["genrsa", "-out", keyFile, "2048"]).status == 0)
    #expect(chmod(keyFile, 0o600) == 0)
    try fake.script([
      "installations": [
        "public_key": try Self.publicKey(keyFile),
        "list": [
          [
            "id": 7, "account": "acme", "type": "Organization",
            "permissions": ["contents": "write", "metadata": "read", "issues": "write"],
            "repositories": ["acme/api", "acme/web", "acme/secret"],
          ],
          [
            "id": 9, "account": "octocat", "type": "User", "permissions": ["contents": "read", "metadata": "read"],
            "repositories": ["octocat/hello"],
          ],
        ],
      ]
    ])
  }

  static func openssl(_ arguments: [String]) -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["openssl"] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return (-1, "") }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// `{"n": HEX, "e": INT}` from `openssl rsa -in KEY -noout -text`.
  static func publicKey(_ key: String) throws -> [String: Any] {
    let text = openssl(["rsa", "-in", key, "-noout", "-text"]).output
    let lines = text.split(separator: "\n").map(String.init)
    let start = try #require(lines.firstIndex(of: "modulus:"))
    let exponentLine = try #require(lines.firstIndex { $0.hasPrefix("publicExponent:") })
    let modulus = lines[(start + 1)..<exponentLine].joined().filter { $0.isHexDigit }
    let exponent = try #require(Int(lines[exponentLine].split(separator: " ")[1]))
    return ["n": modulus, "e": exponent]
  }

  func installationTokens() throws -> [[String: Any]] {
    (try fake.state()["tokens"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "installation" }
  }

  func appToken(_ extra: [String], key: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
    try runGHLogin(
      ["app", "token", "--app", Self.clientID, "--key", key ?? keyFile] + extra, env: sandbox.environment())
  }

  /// Neither the key nor `token` is in argv, stderr or any file under HOME but the key file.
  func expectNothingLeaks(_ token: String?, _ result: (status: Int32, stdout: String, stderr: String)) throws {
    let pem = try String(contentsOfFile: keyFile, encoding: .utf8)
    let body = pem.split(separator: "\n").dropFirst().first.map(String.init) ?? pem
    #expect(!result.stderr.contains(body))
    #expect(!result.stdout.contains(body))
    if let token { #expect(!result.stderr.contains(token)) }
    let files = FileManager.default.enumerator(atPath: sandbox.home)
    while let name = files?.nextObject() as? String {
      let path = sandbox.home + "/" + name
      guard path != keyFile, let data = FileManager.default.contents(atPath: path) else { continue }
      let text = String(decoding: data, as: UTF8.self)
      #expect(!text.contains(body), "the key is in \(name)")
      if let token { #expect(!text.contains(token), "the token is in \(name)") }
    }
  }

  @Test func mintsForAnOwner() throws {
    let result = try appToken(["--owner", "acme"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    let minted = try #require(try installationTokens().first)
    let token = try #require(minted["access_token"] as? String)
    #expect(result.stdout == token + "\n")
    #expect(minted["repositories"] as? [String] == ["acme/api", "acme/web", "acme/secret"])
    // Found through the organisation, minted with the JWT, nothing else asked.
    #expect(try fake.requests(path: "/orgs/acme/installation").count == 1)
    #expect(try fake.requests(path: "/users/acme/installation").isEmpty)
    let request = try #require(try fake.requests(path: Self.tokensPath).first)
    let jwt = try #require(request.header("Authorization")).replacingOccurrences(of: "Bearer ", with: "")
    #expect(jwt.split(separator: ".").count == 3)
    #expect(try fake.counter("installation_jwt_refused") == 0)
    try expectNothingLeaks(token, result)
    #expect(!["app", "token", "--app", Self.clientID, "--key", keyFile, "--owner", "acme"].contains(token))
  }

  @Test func aUserAccountIsFoundAfterTheOrganisationsNotFound() throws {
    let result = try appToken(["--owner", "octocat"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try fake.requests(path: "/orgs/octocat/installation").count == 1)
    #expect(try fake.requests(path: "/users/octocat/installation").count == 1)
    #expect(try fake.requests(path: "/app/installations/9/access_tokens").count == 1)
  }

  @Test func mintsForAnInstallationWithTheNumericAppID() throws {
    let result = try runGHLogin(
      ["app", "token", "--app", "4242", "--key", keyFile, "--installation", "7", "--permission", "issues:read"],
      env: sandbox.environment())
    #expect(result.status == 0, "\(result.stderr)")
    let minted = try #require(try installationTokens().first)
    #expect(result.stdout == (minted["access_token"] as? String ?? "?") + "\n")
    #expect(minted["permissions"] as? [String: String] == ["issues": "read", "metadata": "read"])
    #expect(try fake.requests(path: "/orgs/acme/installation").isEmpty)
    let body = try #require(try fake.requests(path: Self.tokensPath).first?["json"] as? [String: Any])
    #expect(body["permissions"] as? [String: String] == ["issues": "read"])
    #expect(body["repositories"] == nil)
  }

  @Test func mintsForRepositories() throws {
    let result = try appToken(["--repo", "acme/api,acme/web", "--permission", "contents:read"])
    #expect(result.status == 0, "\(result.stderr)")
    let minted = try #require(try installationTokens().first)
    #expect(minted["repositories"] as? [String] == ["acme/api", "acme/web"])
    #expect(minted["permissions"] as? [String: String] == ["contents": "read", "metadata": "read"])
    #expect(try fake.requests(path: "/repos/acme/api/installation").count == 1)
    let body = try #require(try fake.requests(path: Self.tokensPath).first?["json"] as? [String: Any])
    #expect(body["repositories"] as? [String] == ["api", "web"])
    #expect(minted["revoked"] as? Bool == false)
  }

  /// T98 for installation tokens: wider than asked → exit 1, nothing printed, revoked at the fake.
  @Test func aWiderAnswerIsRevoked() throws {
    try fake.script(["installations": ["widen": ["contents": "write"]]])
    let result = try appToken(["--repo", "acme/api", "--permission", "contents:read"])
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "ghlogin: the token GitHub minted on github.test is not the narrowed token asked for: GitHub granted the "
        + "permissions contents:write,metadata:read, not contents:read; it was revoked and not used\n")
    let minted = try #require(try installationTokens().first)
    #expect(minted["revoked"] as? Bool == true)
    let revocation = try #require(try fake.requests(path: "/installation/token").first)
    #expect(revocation["method"] as? String == "DELETE")
    #expect(revocation.header("Authorization") == "Bearer \(minted["access_token"] as? String ?? "?")")
    try expectNothingLeaks(minted["access_token"] as? String, result)
  }

  /// Permissions alone (no --repo): the answer's permissions are still checked.
  @Test func aWiderAnswerToPermissionsAloneIsRevoked() throws {
    try fake.script(["installations": ["widen": ["contents": "write"]]])
    let result = try appToken(["--installation", "7", "--permission", "issues:read"])
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "ghlogin: the token GitHub minted on github.test is not the narrowed token asked for: GitHub granted the "
        + "permissions contents:write,issues:read,metadata:read, not issues:read; it was revoked and not used\n")
    #expect(try installationTokens().first?["revoked"] as? Bool == true)
    #expect(try fake.requests(path: "/installation/token").count == 1)
  }

  @Test func anExtraRepositoryIsRevoked() throws {
    try fake.script(["installations": ["extra_repositories": ["acme/secret"]]])
    let result = try appToken(["--repo", "acme/api"])
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "ghlogin: the token GitHub minted on github.test is not the narrowed token asked for: GitHub granted the "
        + "repositories [acme/api, acme/secret], not the 1 asked for; it was revoked and not used\n")
    #expect(try installationTokens().first?["revoked"] as? Bool == true)
  }

  /// T99: a key file others can read is refused before any request.
  @Test func aKeyFileWithMode0644IsRefusedBeforeAnyRequest() throws {
    #expect(chmod(keyFile, 0o644) == 0)
    let result = try appToken(["--owner", "acme"])
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "ghlogin: refusing to read the app's private key \(keyFile): its permissions 0644 let group or others "
        + "read it; run chmod 600 \(keyFile)\n")
    #expect(try fake.requests().isEmpty)
    try expectNothingLeaks(nil, result)
  }

  @Test(.enabled(if: geteuid() == 0, "needs root to give the file away"))
  func aKeyFileOfAnotherUserIsRefusedBeforeAnyRequest() throws {
    #expect(chown(keyFile, 65534, 65534) == 0)
    let result = try appToken(["--owner", "acme"])
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "ghlogin: refusing to read the app's private key \(keyFile): it belongs to another user (uid 65534); "
        + "the key file must be yours: copy it into a file you own and run chmod 600 on that file\n")
    #expect(try fake.requests().isEmpty)
  }

  @Test func anotherKeyGetsTheFakes401() throws {
    let other = sandbox.home + "/other.pem"
    try #require(Self.openssl(["genrsa", "-out", other, "2048"]).status == 0)
    #expect(chmod(other, 0o600) == 0)
    let result = try appToken(["--owner", "acme"], key: other)
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "ghlogin: installation lookup at api_url \(fake.apiBase)/orgs/acme/installation: github.test refused the "
        + "app's JWT (HTTP 401) (GitHub said: A JSON web token could not be decoded): check that the app named is this one "
        + "(its client ID or app ID) and that the key is its current private key, and the system clock\n")
    #expect(try fake.counter("installation_jwt_refused") == 1)
    #expect(try installationTokens().isEmpty)
  }

  @Test func aRateLimitSaysHowLongToWait() throws {
    try fake.script(["responses": ["installation_token": [["kind": "secondary_rate_limit", "retry_after": 42]]]])
    let result = try appToken(["--installation", "7"])
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "ghlogin: installation token request at api_url \(fake.apiBase)\(Self.tokensPath): github.test answered "
        + "HTTP 403: GitHub's rate limit is exhausted; try again in 42 seconds\n")
    #expect(try installationTokens().isEmpty)
  }

  @Test func usageErrorsSendNothing() throws {
    let cases: [([String], String)] = [
      (["app", "token", "--key", keyFile, "--owner", "acme"], "app token needs --app APP (a client ID or app ID)"),
      (
        ["app", "token", "--app", Self.clientID, "--owner", "acme"],
        "app token needs --key FILE or --key-from-keyring (the app's private key)"
      ),
      (
        ["app", "token", "--app", Self.clientID, "--key", keyFile],
        "app token needs --owner OWNER, --installation ID or --repo OWNER/NAME"
      ),
      (
        ["app", "token", "--app", Self.clientID, "--key", keyFile, "--owner", "acme", "--installation", "7"],
        "give --owner or --installation, not both"
      ),
      (
        ["app", "token", "--app", Self.clientID, "--key", keyFile, "--owner", "other", "--repo", "acme/api"],
        "--owner other is not the owner of the --repo repositories (acme)"
      ),
      (
        ["app", "token", "--app", Self.clientID, "--key", keyFile, "--installation", "x7"],
        "--installation must be a positive whole number, not 'x7'"
      ),
      (
        ["app", "token", "--app", Self.clientID, "--key", keyFile, "--key-from-keyring", "--owner", "acme"],
        "give --key FILE or --key-from-keyring, not both"
      ),
      (
        ["app", "token", "--app", "Iv1 x", "--key", keyFile, "--owner", "acme"],
        "--app: 'Iv1 x' is not a GitHub App client ID or app ID"
      ),
      (["app", "key", "import", "--app", Self.clientID], "missing argument FILE"),
      (["app", "key", "import", keyFile, "--key", keyFile], "--key is for app token"),
    ]
    for (arguments, message) in cases {
      let result = try runGHLogin(arguments, env: sandbox.environment())
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stdout.isEmpty)
      #expect(result.stderr.hasPrefix("ghlogin app: \(message)\n"), "\(result.stderr)")
    }
    #expect(try fake.requests().isEmpty)
  }
}
