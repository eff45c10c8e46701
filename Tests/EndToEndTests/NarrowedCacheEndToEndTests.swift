import Foundation
import Testing

/// Issue 34 §1: `token --repo` and `env --repo` share a cache of narrowed tokens kept beside
/// their login in the credentials file (version 4), reused until five minutes before they
/// expire; a refresh or a logout of the parent revokes and drops them; `status` lists them
/// redacted.
@Suite struct NarrowedCacheEndToEndTests {
  static let parent = "ghu_e2eCACHEparent00000000000000000000001"
  static let parentRefresh = "ghr_e2eCACHErefresh000000000000000000000000000000000000000000000000001"

  /// octocat logged in with an expiring GitHub App user token of the configured app.
  func loggedIn() throws -> (FakeGitHub, Sandbox) {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    try fake.registerExpiringPair(access: Self.parent, refresh: Self.parentRefresh, expiresIn: 28_800)
    var account = expiringAccount(token: Self.parent, refresh: Self.parentRefresh, expiresIn: 28_800)
    account["client_id"] = "Iv1.testclient"
    try sandbox.writeCredentials([account])
    return (fake, sandbox)
  }

  func scopedTokens(_ fake: FakeGitHub) throws -> [[String: Any]] {
    (try fake.state()["tokens"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "scoped" }
  }

  func narrowedRecords(_ sandbox: Sandbox) -> [[String: Any]] {
    sandbox.storedAccounts().first?["narrowed"] as? [[String: Any]] ?? []
  }

  /// A loop of 100 calls mints one token; `env --repo` with the same narrowing hands it out too.
  @Test func aLoopOfAHundredCallsMintsOnce() throws {
    let (fake, sandbox) = try loggedIn()
    var printed = Set<String>()
    for _ in 0..<100 {
      let result = try runGHLogin(
        ["token", "--repo", "acme/api", "--permission", "contents:read"], env: sandbox.environment())
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stderr.isEmpty)
      printed.insert(result.stdout)
    }
    #expect(try fake.counter("scoped_tokens") == 1)
    let minted = try #require(try scopedTokens(fake).first?["access_token"] as? String)
    #expect(printed == [minted + "\n"])
    // Another process (a "restart"), through env, with the repository spelled otherwise.
    let env = try runGHLogin(
      ["env", "--repo", "ACME/api", "--permission", "contents:read"], env: sandbox.environment())
    #expect(env.status == 0, "\(env.stderr)")
    #expect(env.stdout.contains("export GH_TOKEN='\(minted)'\n"))
    #expect(try fake.counter("scoped_tokens") == 1)
    // Kept beside its parent, as version 4.
    #expect(sandbox.credentialsJSON()?["version"] as? Int == 4)
    let record = try #require(narrowedRecords(sandbox).first)
    #expect(record["token"] as? String == minted)
    #expect(record["consumer"] as? String == "cache")
    #expect(record["repositories"] as? [String] == ["api"])
    #expect(record["permissions"] as? [String: String] == ["contents": "read"])
    #expect(abs((record["expires_at"] as? Double ?? 0) - (Date().timeIntervalSince1970 + 28_800)) < 120)
    // Another narrowing is another token.
    let other = try runGHLogin(["token", "--repo", "acme/api"], env: sandbox.environment())
    #expect(other.status == 0, "\(other.stderr)")
    #expect(other.stdout != minted + "\n")
    #expect(try fake.counter("scoped_tokens") == 2)
    #expect(narrowedRecords(sandbox).count == 2)
  }

  /// A cached token within five minutes of its expiry is not handed out: a new one is minted,
  /// stored in its place, and the old one revoked.
  @Test func aTokenAboutToExpireIsMintedAgain() throws {
    let (fake, sandbox) = try loggedIn()
    try fake.script(["scoped": ["expires_in": 200]])
    let first = try runGHLogin(["token", "--repo", "acme/api"], env: sandbox.environment())
    #expect(first.status == 0, "\(first.stderr)")
    let second = try runGHLogin(["token", "--repo", "acme/api"], env: sandbox.environment())
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stderr.isEmpty)
    #expect(first.stdout != second.stdout)
    #expect(try fake.counter("scoped_tokens") == 2)
    let old = first.stdout.trimmingCharacters(in: .newlines)
    #expect(try fake.tokenRecord(old)?["revoked"] as? Bool == true)
    let records = narrowedRecords(sandbox)
    #expect(records.count == 1)
    #expect(records.first?["token"] as? String == second.stdout.trimmingCharacters(in: .newlines))
  }

  /// A refresh of the parent revokes the cached narrowed tokens and drops them.
  @Test func aRefreshOfTheParentRevokesAndDropsThem() throws {
    let (fake, sandbox) = try loggedIn()
    let narrowed = try runGHLogin(["token", "--repo", "acme/api"], env: sandbox.environment())
    #expect(narrowed.status == 0, "\(narrowed.stderr)")
    let token = narrowed.stdout.trimmingCharacters(in: .newlines)
    let refresh = try runGHLogin(["refresh"], env: sandbox.environment())
    #expect(refresh.status == 0, "\(refresh.stderr)")
    #expect(!refresh.stderr.contains("warning"), "\(refresh.stderr)")
    #expect(try fake.tokenRecord(token)?["revoked"] as? Bool == true)
    #expect(narrowedRecords(sandbox).isEmpty)
    #expect(sandbox.credentialsJSON()?["version"] as? Int == 2)
    // The next call mints from the new parent.
    let again = try runGHLogin(["token", "--repo", "acme/api"], env: sandbox.environment())
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout != narrowed.stdout)
    #expect(try fake.counter("scoped_tokens") == 2)
  }

  /// `logout` revokes every narrowed token with its parent.
  @Test func logoutRevokesThem() throws {
    let (fake, sandbox) = try loggedIn()
    let a = try runGHLogin(["token", "--repo", "acme/api"], env: sandbox.environment())
    let b = try runGHLogin(["token", "--repo", "acme/web", "--permission", "issues:write"], env: sandbox.environment())
    #expect(a.status == 0 && b.status == 0, "\(a.stderr)\(b.stderr)")
    let logout = try runGHLogin(["logout"], env: sandbox.environment())
    #expect(logout.status == 0, "\(logout.stderr)")
    for result in [a, b] {
      let token = result.stdout.trimmingCharacters(in: .newlines)
      #expect(try fake.tokenRecord(token)?["revoked"] as? Bool == true)
      #expect(!logout.stderr.contains(token))
    }
    #expect(try fake.tokenRecord(Self.parent)?["revoked"] as? Bool == true)
    #expect(sandbox.storedAccounts().isEmpty)
  }

  /// A narrowed token GitHub would not revoke at `logout` is said once, as the command line's
  /// warning (Core hands it to the workspace's `cleanupWarning`; it writes nothing itself), and
  /// the logout goes on: the login is revoked and removed.
  @Test func aNarrowedTokenNotRevokedIsAWarning() throws {
    let (fake, sandbox) = try loggedIn()
    let minted = try runGHLogin(["token", "--repo", "acme/api"], env: sandbox.environment())
    #expect(minted.status == 0, "\(minted.stderr)")
    try fake.script(["responses": ["revoke": [502]]])
    let logout = try runGHLogin(["logout"], env: sandbox.environment())
    #expect(logout.status == 0, "\(logout.stderr)")
    let warnings = logout.stderr.split(separator: "\n").filter { $0.contains("narrowed token") }
    #expect(warnings.count == 1, "\(logout.stderr)")
    #expect(
      warnings.first?.hasPrefix("ghlogin: warning: could not revoke a narrowed token (acme/api) on github.test: ")
        == true)
    #expect(warnings.first?.hasSuffix("; it expires on its own") == true)
    #expect(!logout.stderr.contains(minted.stdout.trimmingCharacters(in: .newlines)))
    #expect(try fake.tokenRecord(Self.parent)?["revoked"] as? Bool == true)
    #expect(sandbox.storedAccounts().isEmpty)
  }

  /// `status` lists each narrowed token redacted, with its consumer, repositories, permissions
  /// and expiry; `status --json` too; neither shows the token.
  @Test func statusListsThemRedacted() throws {
    let (_, sandbox) = try loggedIn()
    let minted = try runGHLogin(
      ["token", "--repo", "acme/web,acme/api", "--permission", "contents:read"], env: sandbox.environment())
    #expect(minted.status == 0, "\(minted.stderr)")
    let token = minted.stdout.trimmingCharacters(in: .newlines)
    let status = try runGHLogin(["status", "--offline"], env: sandbox.environment())
    #expect(status.status == 0, "\(status.stderr)")
    #expect(
      status.stdout.contains(
        "    narrowed (cache): ghu_****\(token.suffix(4)): acme/api,acme/web, permissions contents:read; "
          + "expires in 7h 59m\n"), "\(status.stdout)")
    #expect(!status.stdout.contains(token) && !status.stderr.contains(token))
    for arguments in [["status", "--offline", "--json"], ["status", "--offline", "--show-token"]] {
      let result = try runGHLogin(arguments, env: sandbox.environment())
      #expect(result.status == 0, "\(result.stderr)")
      #expect(!result.stdout.contains(token) && !result.stderr.contains(token))
    }
    let json = try runGHLogin(["status", "--offline", "--json"], env: sandbox.environment())
    let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let account = try #require(
      ((document?["hosts"] as? [String: Any])?["github.test"] as? [String: Any])?["accounts"] as? [[String: Any]])
    let record = try #require((account.first?["narrowed"] as? [[String: Any]])?.first)
    #expect(record["consumer"] as? String == "cache")
    #expect(record["consumer_id"] is NSNull)
    #expect(record["repositories"] as? [String] == ["acme/api", "acme/web"])
    #expect(record["permissions"] as? [String: String] == ["contents": "read"])
    #expect(record["token_redacted"] as? String == "ghu_****" + token.suffix(4))
  }
}
