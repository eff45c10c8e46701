import Foundation
import GHLoginTestSupport
import Testing

/// T96 (issue 33 §3, R111) on the built binary against the fake GitHub: two OAuth apps, A (the
/// configured `Iv1.testclient`) and B (`Iv1.appB`, given as `GHLOGIN_CLIENT_ID`, as a tool with its
/// own app would be), are both logged in as octocat on one host; both tokens have expired; 10
/// processes per app ask `token` at once. Each app refreshes exactly once, with its own client ID
/// and refresh token (the fake's request log says so), neither login is evicted, and `status`
/// lists both. With the credentials file store and with the keyring (gnome-keyring-daemon).
@Suite struct TwoAppsEndToEndTests {
  static let appA = "Iv1.testclient"
  static let appB = "Iv1.appB"
  static let secretB = "appBsecret-0123456789"
  static let tokenA = "ghu_twoAppsTokenOfAppA00000000000000001"
  static let tokenB = "ghu_twoAppsTokenOfAppB00000000000000001"
  static let refreshA = "ghr_twoAppsRefreshOfAppA000000000000000000000000000000000000000000001"
  static let refreshB = "ghr_twoAppsRefreshOfAppB000000000000000000000000000000000000000000001"

  /// The fake knows both apps and both expired pairs; the file holds both logins (version 3).
  static func seed(_ fake: FakeGitHub, _ sandbox: Sandbox) throws {
    try fake.register([
      "apps": [["client_id": appB, "client_secret": secretB, "callback_url": "http://127.0.0.1/callback"]],
      "tokens": [
        ["access_token": tokenA, "login": "octocat", "client_id": appA, "expires_in": 1, "kind": "app", "scopes": ""],
        ["access_token": tokenB, "login": "octocat", "client_id": appB, "expires_in": 1, "kind": "app", "scopes": ""],
      ],
      "refresh_tokens": [
        ["refresh_token": refreshA, "login": "octocat", "client_id": appA, "access_token": tokenA, "origin": "web"],
        ["refresh_token": refreshB, "login": "octocat", "client_id": appB, "access_token": tokenB, "origin": "web"],
      ],
    ])
    var a = expiringAccount(token: tokenA, refresh: refreshA, expiresIn: -10)
    a["client_id"] = appA
    var b = expiringAccount(token: tokenB, refresh: refreshB, expiresIn: -10)
    b["client_id"] = appB
    let filled = [a, b].map { account -> [String: Any] in
      var account = account
      account["user_id"] = 1
      account["token_type"] = "bearer"
      account["scopes"] = [String]()
      account["created_at"] = Date().timeIntervalSince1970 - 100
      return account
    }
    try CredentialsFile.write(
      hosts: ["github.test": ["active": "octocat", "accounts": filled]], to: sandbox.credentialsFile, version: 3)
  }

  /// Runs the T96 race in `env` (app A) and `env` with app B's variables, then checks the log,
  /// the file and `status`. `keyring` reads the stored tokens back from the keyring.
  static func race(
    fake: FakeGitHub, sandbox: Sandbox, env: [String: String], keyring: KeyringSession?
  ) throws {
    let envB = env.merging(["GHLOGIN_CLIENT_ID": appB, "GHLOGIN_CLIENT_SECRET": secretB]) { $1 }
    try fake.clearLog()
    var children: [(app: String, child: ChildProcess)] = []
    for _ in 0..<10 {
      children.append((appA, try startGHLogin(["token"], env: env, stdin: "")))
      children.append((appB, try startGHLogin(["token"], env: envB, stdin: "")))
    }
    var printed: [String: Set<String>] = [:]
    for (app, child) in children {
      let result = try child.finish(timeout: 120)
      #expect(result.status == 0, "\(app): \(result.stderr)")
      #expect(result.stderr == "", "\(app)")
      printed[app, default: []].insert(result.stdout)
    }
    let newA = try #require(printed[appA]?.first?.split(separator: "\n").first.map(String.init))
    let newB = try #require(printed[appB]?.first?.split(separator: "\n").first.map(String.init))
    #expect(printed[appA]?.count == 1 && printed[appB]?.count == 1, "each app's 10 processes print one token")
    #expect(newA != tokenA && newB != tokenB && newA != newB)

    // Each app refreshed exactly once, with its own client ID and refresh token.
    let refreshes = try fake.requests(path: "/login/oauth/access_token").compactMap { entry -> [String: String]? in
      guard let form = entry["form"] as? [String: [String]], form["grant_type"] == ["refresh_token"] else {
        return nil
      }
      return form.compactMapValues(\.first)
    }
    #expect(refreshes.count == 2, "\(refreshes)")
    #expect(
      Set(refreshes.map { "\($0["client_id"] ?? "") \($0["refresh_token"] ?? "")" })
        == ["\(appA) \(refreshA)", "\(appB) \(refreshB)"])
    #expect(try fake.counter("refresh_successes") == 2)

    // Neither login was evicted: both are stored, each with its new token, still version 3.
    let accounts = sandbox.storedAccounts()
    #expect(accounts.map { $0["client_id"] as? String } == [appA, appB])
    #expect(sandbox.credentialsJSON()?["version"] as? Int == 3)
    if let keyring {
      for (clientID, token) in [(appA, newA), (appB, newB)] {
        #expect(
          try keyring.lookup(host: "github.test", login: "octocat", userID: 1, kind: "access_token", clientID: clientID)
            == token)
      }
    } else {
      #expect(accounts.map { $0["token"] as? String } == [newA, newB])
    }
    #expect(try runGHLogin(["token"], env: env).stdout == newA + "\n")
    #expect(try runGHLogin(["token"], env: envB).stdout == newB + "\n")

    // `status` lists both logins and says whose each is.
    let status = try runGHLogin(["status", "--offline"], env: env)
    #expect(status.status == 0, "\(status.stderr)")
    #expect(status.stdout.components(separatedBy: "octocat").count - 1 == 2, "\(status.stdout)")
    #expect(status.stdout.contains("    app: client ID \(appA)\n"), "\(status.stdout)")
    #expect(status.stdout.contains("    app: client ID \(appB)\n"), "\(status.stdout)")

    // Online, each login is checked on its own (app B's token revoked, app A's still valid).
    try fake.revoke(newB)
    let online = try runGHLogin(["status"], env: env)
    #expect(online.status == 0, "\(online.stderr)")
    let valid = try #require(online.stdout.range(of: "    online: valid\n"), "\(online.stdout)")
    let rejected = try #require(online.stdout.range(of: "    online: rejected by github.test"), "\(online.stdout)")
    #expect(valid.lowerBound < rejected.lowerBound, "app A's login is listed first")
  }

  @Test func twoAppsRefreshTheirOwnLoginsOnceEachWithTheFileStore() throws {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    try Self.seed(fake, sandbox)
    try Self.race(fake: fake, sandbox: sandbox, env: sandbox.environment(), keyring: nil)
  }

  @Test(.enabled(if: KeyringSession.isAvailable, Comment(rawValue: KeyringSession.unavailableReason ?? "")))
  func twoAppsRefreshTheirOwnLoginsOnceEachWithTheKeyring() throws {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    let keyring = try KeyringSession()
    try sandbox.writeConfig(["store": "keyring"])
    try Self.seed(fake, sandbox)
    let env = sandbox.environment(keyring.environment)
    let migrate = try runGHLogin(["migrate", "--to", "keyring"], env: env)
    #expect(migrate.status == 0, "\(migrate.stderr)")
    #expect(sandbox.storedAccounts().map { $0["store"] as? String } == ["keyring", "keyring"])
    #expect(try keyring.itemCount() == 4)
    try Self.race(fake: fake, sandbox: sandbox, env: env, keyring: keyring)
    #expect(try keyring.itemCount() == 4)
  }

  /// The release before version 3 (newest version 2) refuses the file this race leaves with its
  /// "upgrade" message: the decoder's version check, on the very bytes written here.
  @Test func theReleaseBeforeRefusesTheFileTheTwoAppsLeave() throws {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    try Self.seed(fake, sandbox)
    #expect(try runGHLogin(["token"], env: sandbox.environment()).status == 0)
    let bytes = try #require(sandbox.credentialsBytes())
    #expect(throws: CredentialCoding.Failure.newerVersion(3)) {
      try CredentialCoding.decode(bytes, maximumVersion: 2)
    }
    #expect(try CredentialCoding.decode(bytes).hosts["github.test"]?.accounts.count == 2)
  }
}
