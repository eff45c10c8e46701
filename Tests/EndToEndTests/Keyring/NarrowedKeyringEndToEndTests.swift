import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Narrowed tokens of a login kept in the keyring (issue 34 §1), against a real Secret Service
/// (gnome-keyring-daemon on a private bus): each record's metadata stays in the credentials
/// file, its token is a keyring item (`kind=narrowed-token`, `narrowing`, `record`) and never
/// in the file; the cache, `run`, a refresh, `logout`, `status` and `migrate` both ways work as
/// for a login kept in the file; `migrate` never moves an app key.
@Suite(.enabled(if: KeyringSession.isAvailable, Comment(rawValue: KeyringSession.unavailableReason ?? "")))
struct NarrowedKeyringEndToEndTests {
  static let parent = "ghu_e2eKEYRINGnarrowParent000000000000001"
  static let parentRefresh = "ghr_e2eKEYRINGnarrowRefresh0000000000000000000000000000000000000000001"
  static let app = "Iv23liNarrowedKeyring"
  /// What an app-key item holds, on one line (`secret-tool search` prints it so).
  static let appKey = "PRIVATE-KEY-of-the-app-not-a-real-key"

  let fake: FakeGitHub
  let sandbox: Sandbox
  let keyring: KeyringSession

  init() throws {
    fake = try FakeGitHub.start()
    sandbox = try Sandbox(fake: fake)
    keyring = try KeyringSession()
    try sandbox.writeConfig(["store": "keyring"])
    try fake.registerExpiringPair(access: Self.parent, refresh: Self.parentRefresh, expiresIn: 28_800)
    var account = expiringAccount(token: Self.parent, refresh: Self.parentRefresh, expiresIn: 28_800)
    account["client_id"] = "Iv1.testclient"
    try sandbox.writeCredentials([account])
  }

  var env: [String: String] { sandbox.environment(keyring.environment) }

  func run(_ args: [String], extra: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
    try runGHLogin(args, env: env.merging(extra) { $1 }, timeout: 60)
  }

  /// The login moved to the keyring: its two items there (and one per narrowed token), no
  /// token in the file.
  func moveToKeyring() throws {
    let migrate = try run(["migrate", "--to", "keyring"])
    #expect(migrate.status == 0, "\(migrate.stderr)")
    #expect(try keyring.itemCount() == 2 + records.count + (try keyring.attributes(kind: "app-key") == nil ? 0 : 1))
    #expect(!fileText.contains(Self.parent))
  }

  var fileText: String { String(decoding: sandbox.credentialsBytes() ?? [], as: UTF8.self) }

  var records: [[String: Any]] { sandbox.storedAccounts().first?["narrowed"] as? [[String: Any]] ?? [] }

  func scopedTokens() throws -> [String] {
    (try fake.state()["tokens"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "scoped" }
      .compactMap { $0["access_token"] as? String }
  }

  /// The secrets of the keyring's narrowed-token items, sorted.
  func narrowedSecrets() throws -> [String] {
    let result = try keyring.secretTool([
      "search", "--all", "--unlock", "application", "ghlogin", "kind", "narrowed-token",
    ])
    return result.stdout.split(separator: "\n").compactMap { line in
      line.hasPrefix("secret = ") ? String(line.dropFirst("secret = ".count)) : nil
    }.sorted()
  }

  func revoked(_ token: String) throws -> Bool { try fake.tokenRecord(token)?["revoked"] as? Bool == true }

  /// A loop of 20 `token --repo` mints once; the token is a keyring item with the narrowing and
  /// the record's id, its record in the file has no token (the file is read here), `env --repo`
  /// hands out the same one, and an item deleted behind ghlogin's back is minted again.
  @Test func aLoopOfTwentyCallsMintsOnceAndTheTokenIsOnlyInTheKeyring() throws {
    try moveToKeyring()
    var printed = Set<String>()
    for _ in 0..<20 {
      let result = try run(["token", "--repo", "acme/web,acme/api", "--permission", "contents:read"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stderr.isEmpty)
      printed.insert(result.stdout)
    }
    #expect(try fake.counter("scoped_tokens") == 1)
    let minted = try #require(try scopedTokens().first)
    #expect(printed == [minted + "\n"])
    let env = try run(["env", "--repo", "ACME/api,acme/web", "--permission", "contents:read"])
    #expect(env.status == 0, "\(env.stderr)")
    #expect(env.stdout.contains("export GH_TOKEN='\(minted)'\n"))
    #expect(try fake.counter("scoped_tokens") == 1)

    // The record beside its login, without its token; the token in its keyring item only.
    let record = try #require(records.first)
    #expect(records.count == 1)
    #expect(record["token"] == nil)
    #expect(record["consumer"] as? String == "cache")
    #expect(record["repositories"] as? [String] == ["api", "web"])
    #expect(sandbox.credentialsJSON()?["version"] as? Int == 4)
    #expect(!fileText.contains(minted))
    #expect(Scenario.mode(of: sandbox.credentialsFile) == 0o600)
    let id = try #require(record["id"] as? String)
    #expect(
      try keyring.attributes(kind: "narrowed-token")
        == [
          "application": "ghlogin", "host": "github.test", "user_id": "1", "client_id": "Iv1.testclient",
          "kind": "narrowed-token", "narrowing": "acme/api,acme/web contents:read", "record": id,
        ])
    #expect(try narrowedSecrets() == [minted])

    // A missing item is no cached token: minted again, the record replaced.
    try keyring.secretTool(["clear", "application", "ghlogin", "kind", "narrowed-token"])
    let again = try run(["token", "--repo", "acme/api,acme/web", "--permission", "contents:read"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout != minted + "\n")
    #expect(try fake.counter("scoped_tokens") == 2)
    #expect(try narrowedSecrets() == [again.stdout.trimmingCharacters(in: .newlines)])
    #expect(records.count == 1)
    #expect(records.first?["id"] as? String != id)
  }

  /// `ghlogin run` for a keyring login: the child gets the run's token (also from `ghlogin
  /// token` inside it, read from the run's keyring item); after, the token is revoked, the item
  /// deleted and the record dropped; ghlogin exits with the child's status.
  @Test func runWorksForAKeyringLogin() throws {
    try moveToKeyring()
    let binary = try HarnessPaths.ghloginBinary()
    let script =
      "printf '%s\\n' \"$GH_TOKEN\"; '\(binary)' token; '\(binary)' token --repo acme/web; "
      + "printf 'protocol=https\\nhost=github.test\\n\\n' | '\(binary)' git-credential get; exit 3"
    let result = try runGHLogin(["run", "--repo", "acme/api", "--", "sh", "-c", script], env: env, timeout: 60)
    #expect(result.status == 3, "\(result.stderr)")
    let token = try #require(try scopedTokens().first)
    #expect(result.stdout == "\(token)\n\(token)\n\(token)\nusername=octocat\npassword=\(token)\n")
    #expect(!result.stdout.contains(Self.parent) && !result.stderr.contains(token))
    #expect(try fake.counter("scoped_tokens") == 1)
    #expect(try revoked(token))
    #expect(try !revoked(Self.parent))
    #expect(records.isEmpty)
    #expect(try narrowedSecrets().isEmpty)
    #expect(try keyring.itemCount() == 2)
    #expect(!fileText.contains(token))
  }

  /// While the run lives, its record is in the file without the token and its token in the
  /// keyring (`--keep` leaves both after it).
  @Test func aKeptRunsTokenIsInTheKeyringNotTheFile() throws {
    try moveToKeyring()
    let result = try runGHLogin(["run", "--keep", "--repo", "acme/api", "--", "true"], env: env, timeout: 60)
    #expect(result.status == 0, "\(result.stderr)")
    let token = try #require(try scopedTokens().first)
    #expect(try !revoked(token))
    let record = try #require(records.first)
    #expect(record["consumer"] as? String == "run")
    #expect(record["token"] == nil)
    #expect(!fileText.contains(token))
    #expect(try narrowedSecrets() == [token])
    #expect(try keyring.attributes(kind: "narrowed-token")?["record"] == record["id"] as? String)
  }

  /// A refresh of the parent revokes the cached narrowed tokens, drops their records and
  /// deletes their items.
  @Test func aRefreshRevokesAndDropsThemFromTheKeyring() throws {
    try moveToKeyring()
    let narrowed = try run(["token", "--repo", "acme/api"])
    #expect(narrowed.status == 0, "\(narrowed.stderr)")
    let token = narrowed.stdout.trimmingCharacters(in: .newlines)
    #expect(try narrowedSecrets() == [token])
    let refresh = try run(["refresh"])
    #expect(refresh.status == 0, "\(refresh.stderr)")
    #expect(!refresh.stderr.contains("warning"), "\(refresh.stderr)")
    #expect(try revoked(token))
    #expect(records.isEmpty)
    #expect(try narrowedSecrets().isEmpty)
    #expect(try keyring.itemCount() == 2)
    let again = try run(["token", "--repo", "acme/api"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout != narrowed.stdout)
    #expect(try fake.counter("scoped_tokens") == 2)
  }

  /// `logout` revokes every narrowed token with its parent and removes every item.
  @Test func logoutRevokesThemAndRemovesTheItems() throws {
    try moveToKeyring()
    let a = try run(["token", "--repo", "acme/api"])
    let b = try run(["token", "--repo", "acme/web", "--permission", "issues:write"])
    let kept = try runGHLogin(["run", "--keep", "--repo", "acme/api", "--", "true"], env: env, timeout: 60)
    #expect(a.status == 0 && b.status == 0 && kept.status == 0, "\(a.stderr)\(b.stderr)\(kept)")
    #expect(try narrowedSecrets().count == 3)
    #expect(try keyring.itemCount() == 5)
    let logout = try run(["logout"])
    #expect(logout.status == 0, "\(logout.stderr)")
    #expect(try scopedTokens().count == 3)
    for token in try scopedTokens() {
      #expect(try revoked(token))
      #expect(!logout.stderr.contains(token))
    }
    #expect(try revoked(Self.parent))
    #expect(sandbox.storedAccounts().isEmpty)
    #expect(try keyring.itemCount() == 0)
  }

  /// `status` lists a keyring login's narrowed tokens redacted, as for a file login.
  @Test func statusListsThemRedacted() throws {
    try moveToKeyring()
    let minted = try run(["token", "--repo", "acme/api", "--permission", "contents:read"])
    #expect(minted.status == 0, "\(minted.stderr)")
    let token = minted.stdout.trimmingCharacters(in: .newlines)
    let status = try run(["status", "--offline"])
    #expect(status.status == 0, "\(status.stderr)")
    #expect(
      status.stdout.contains(
        "    narrowed (cache): ghu_****\(token.suffix(4)): acme/api, permissions contents:read; expires in 7h 59m\n"),
      "\(status.stdout)")
    for arguments in [["status", "--offline", "--show-token"], ["status", "--offline", "--json"]] {
      let result = try run(arguments)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(!result.stdout.contains(token) && !result.stderr.contains(token))
    }
  }

  /// `migrate --to keyring` moves a cached narrowed token with its login (the item written, the
  /// token gone from the file, still handed out without a new mint), `--to file` moves it back
  /// (the token in the file, the item deleted); an app key in the keyring stays where it is,
  /// untouched, both ways.
  @Test func migrateMovesThemBothWaysAndNeverAnAppKey() throws {
    try keyring.plant(Self.appKey, attributes: ["application", "ghlogin", "kind", "app-key", "app", Self.app])
    let minted = try run(["token", "--repo", "acme/api"])
    #expect(minted.status == 0, "\(minted.stderr)")
    let token = minted.stdout.trimmingCharacters(in: .newlines)
    #expect(records.first?["token"] as? String == token)
    #expect(try narrowedSecrets().isEmpty)

    try moveToKeyring()
    #expect(!fileText.contains(token))
    #expect(records.count == 1 && records.first?["token"] == nil)
    #expect(try narrowedSecrets() == [token])
    #expect(try run(["token", "--repo", "acme/api"]).stdout == minted.stdout)
    #expect(try fake.counter("scoped_tokens") == 1)
    #expect(try keyring.attributes(kind: "app-key") == ["application": "ghlogin", "kind": "app-key", "app": Self.app])
    #expect(!fileText.contains(Self.appKey))

    let back = try run(["migrate", "--to", "file"])
    #expect(back.status == 0, "\(back.stderr)")
    #expect(records.first?["token"] as? String == token)
    #expect(fileText.contains(Self.parent))
    #expect(try narrowedSecrets().isEmpty)
    #expect(try keyring.itemCount() == 1, "only the app key is left")
    #expect(try keyring.allSecrets() == [Self.appKey])
    #expect(try keyring.attributes(kind: "app-key")?["app"] == Self.app)
    #expect(!fileText.contains(Self.appKey))
    #expect(try run(["token", "--repo", "acme/api"]).stdout == minted.stdout)
    #expect(try fake.counter("scoped_tokens") == 1)
    #expect(try !revoked(token))
  }

  /// A move that fails midway loses nothing: the keyring stops answering while `migrate --to
  /// keyring` writes the items, so the file keeps the login and its narrowed token; killed after
  /// the file is written on the way back, the token is in the file and the item is removed when
  /// `migrate --to file` runs again.
  @Test func aMoveThatFailsMidwayLosesNothing() throws {
    let minted = try run(["token", "--repo", "acme/api"])
    #expect(minted.status == 0, "\(minted.stderr)")
    let token = minted.stdout.trimmingCharacters(in: .newlines)

    let killed = try run(["migrate", "--to", "keyring"], extra: ["GHLOGIN_TEST_FAULT": "kill-before-rename"])
    #expect(killed.status != 0, "\(killed)")
    #expect(records.first?["token"] as? String == token)
    #expect(try run(["token", "--repo", "acme/api"]).stdout == minted.stdout)
    try moveToKeyring()
    #expect(try narrowedSecrets() == [token])

    let killedBack = try run(["migrate", "--to", "file"], extra: ["GHLOGIN_TEST_FAULT": "kill-after-file"])
    #expect(killedBack.status != 0, "\(killedBack)")
    #expect(records.first?["token"] as? String == token)
    #expect(try run(["token", "--repo", "acme/api"]).stdout == minted.stdout)
    #expect(try run(["migrate", "--to", "file"]).status == 0)
    #expect(try keyring.itemCount() == 0, "the second run removes what the first left behind")
    #expect(try narrowedSecrets().isEmpty)
    #expect(try run(["token", "--repo", "acme/api"]).stdout == minted.stdout)
    #expect(try fake.counter("scoped_tokens") == 1)
  }

  /// R101 for narrowed items: an item that does not hold a token is not handed out (a new token
  /// is minted and the bad item, which ghlogin read, is replaced); a second item matching the
  /// same attributes is never chosen between nor deleted: a new token is minted beside them.
  @Test func anUnusableOrDoubledItemIsNeverHandedOut() throws {
    try moveToKeyring()
    let first = try run(["token", "--repo", "acme/api"])
    #expect(first.status == 0, "\(first.stderr)")
    let attributes = try #require(try keyring.attributes(kind: "narrowed-token"))
    let words = attributes.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }

    // The same attributes: secret-tool replaces the item's secret with one that is no token.
    try keyring.plant("not a token; rm -rf ~", attributes: words)
    let second = try run(["token", "--repo", "acme/api"])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stdout != first.stdout)
    #expect(!second.stdout.contains("rm -rf") && !second.stderr.contains("rm -rf"))
    #expect(try fake.counter("scoped_tokens") == 2)
    #expect(try narrowedSecrets() == [second.stdout.trimmingCharacters(in: .newlines)])

    // Another program's item with every attribute of the new one (and one more): two match.
    let current = try #require(try keyring.attributes(kind: "narrowed-token"))
    let planted = "ghu_plantedByAnotherProgram000000000001"
    try keyring.plant(
      planted, attributes: current.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] } + ["by", "other"])
    let third = try run(["token", "--repo", "acme/api"])
    #expect(third.status == 0, "\(third.stderr)")
    #expect(third.stdout != second.stdout && third.stdout != planted + "\n")
    #expect(try fake.counter("scoped_tokens") == 3)
    let secrets = try narrowedSecrets()
    #expect(secrets.contains(planted) && secrets.contains(third.stdout.trimmingCharacters(in: .newlines)))
    #expect(!fileText.contains(planted))
  }
}
