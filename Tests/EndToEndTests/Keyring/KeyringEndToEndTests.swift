import Foundation
import Testing

/// `"store": "keyring"` against a real gnome-keyring-daemon on a private bus (R68): where
/// the tokens go, every command on that store, a locked keyring, no bus, a missing item,
/// migrations interrupted by a kill, and concurrent refreshes.
@Suite(.enabled(if: KeyringSession.isAvailable, Comment(rawValue: KeyringSession.unavailableReason ?? "")))
struct KeyringEndToEndTests {
  static let token = "gho_keyringToken0123456789abcdefghijk"
  static let old = "ghu_e2eOLDtoken000000000000000000000001"
  static let oldRefresh = "ghr_e2eOLDrefresh0000000000000000000000000000000000000000000000000000001"

  let fake: FakeGitHub
  let sandbox: Sandbox
  let keyring: KeyringSession

  init() throws {
    fake = try FakeGitHub.start()
    sandbox = try Sandbox(fake: fake)
    keyring = try KeyringSession()
    try sandbox.writeConfig(["store": "keyring"])
  }

  var env: [String: String] { sandbox.environment(keyring.environment) }

  func run(_ args: [String], extra: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
    try runGHLogin(args, env: env.merging(extra) { $1 }, timeout: 60)
  }

  /// A browser login through the fake; returns the token the fake issued.
  func login(expiring: Bool = false) throws -> String {
    if expiring { try fake.script(["token": ["expiring": true]]) }
    let child = try startGHLogin(["auth", "--no-browser"], env: env, stdin: "")
    let url = try child.waitForLine(.stderr, timeout: 30) { $0.hasPrefix("https://") }
    _ = try runBrowser(url: url, fake: fake)
    let result = try child.finish(timeout: 60)
    #expect(result.status == 0, "\(result.stderr)")
    return try #require(try keyring.lookup(host: "github.test", login: "octocat", userID: 1, kind: "access_token"))
  }

  var fileText: String { String(decoding: sandbox.credentialsBytes() ?? [], as: UTF8.self) }

  /// Items with the right attributes, no token in the 0600 file; then token, env, whoami,
  /// git-credential get, status, switch and logout work, and logout deletes the items.
  @Test func aLoginKeepsItsTokensInTheKeyring() throws {
    let token = try login(expiring: true)
    #expect(try keyring.itemCount() == 2)
    for kind in ["access_token", "refresh_token"] {
      let item = try #require(try keyring.attributes(kind: kind))
      #expect(
        item == [
          "application": "ghlogin", "host": "github.test", "login": "octocat", "user_id": "1", "kind": kind,
          "client_id": "Iv1.testclient",
        ])
    }
    let refresh = try #require(
      try keyring.lookup(host: "github.test", login: "octocat", userID: 1, kind: "refresh_token"))
    #expect(!fileText.contains(token) && !fileText.contains(refresh))
    #expect(fileText.contains("\"store\": \"keyring\""))
    #expect(Scenario.mode(of: sandbox.credentialsFile) == 0o600)

    #expect(try run(["token"]).stdout == token + "\n")
    #expect(try run(["env"]).stdout.contains(token))
    let whoami = try run(["whoami"])
    #expect(whoami.status == 0, "\(whoami.stderr)")
    let helper = try runGHLogin(["git-credential", "get"], env: env, stdin: "protocol=https\nhost=github.test\n\n")
    #expect(helper.stdout.contains("password=\(token)\n"), "\(helper)")
    let status = try run(["status"])
    #expect(status.stdout.contains("kept in: the keyring (Secret Service)"), "\(status.stdout)")
    #expect(!status.stdout.contains(token))
    #expect(try run(["switch"]).status == 0)
    let refreshed = try run(["refresh"])
    #expect(refreshed.status == 0, "\(refreshed.stderr)")
    let newToken = try #require(
      try keyring.lookup(host: "github.test", login: "octocat", userID: 1, kind: "access_token"))
    #expect(newToken != token)
    #expect(try run(["token"]).stdout == newToken + "\n")
    #expect(!fileText.contains(newToken))

    let logout = try run(["logout"])
    #expect(logout.status == 0, "\(logout.stderr)")
    #expect(try keyring.itemCount() == 0)
  }

  /// A locked collection whose unlock prompt cannot be shown (counts as dismissed): exit 1,
  /// a message naming the keyring and the ways out, nothing printed, nothing written.
  @Test func aLockedKeyringFailsClearlyAndWritesNothing() throws {
    let token = try login()
    try keyring.lock()
    let before = sandbox.credentialsBytes()
    for command in [["token"], ["whoami"], ["refresh"], ["logout"], ["migrate", "--to", "file"]] {
      let result = try run(command)
      #expect(result.status == 1, "\(command) \(result)")
      #expect(result.stdout.isEmpty)
      #expect(result.stderr.contains("the keyring (Secret Service) is locked"), "\(result.stderr)")
      #expect(result.stderr.contains("Unlock it"))
      #expect(result.stderr.contains("\"store\": \"file\""))
      #expect(!result.stderr.contains(token))
      #expect(sandbox.credentialsBytes() == before)
    }
    let status = try run(["status"])
    #expect(status.stdout.contains("token: not shown (the keyring is locked)"), "\(status)")
    // Nothing is sent to GitHub for a token that could not be read (an empty bearer would be "rejected").
    #expect(status.stdout.contains("online: could not check (its token could not be read from the keyring)"))
  }

  /// No session bus at all: exit 1 naming the keyring; a migration to it leaves the file as it was.
  @Test func noBusFailsClearlyAndFallsBackToNothing() throws {
    try sandbox.writeCredentials([["login": "octocat", "token": Self.token]])
    let before = sandbox.credentialsBytes()
    let noBus = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(keyring.directory)/no-such-bus"]
    let migrate = try run(["migrate", "--to", "keyring"], extra: noBus)
    #expect(migrate.status == 1)
    #expect(migrate.stderr.hasPrefix("ghlogin: the keyring (Secret Service) is not available: "), "\(migrate.stderr)")
    #expect(migrate.stderr.contains("\"store\": \"file\""))
    #expect(sandbox.credentialsBytes() == before)
    // A login to the keyring is refused before the browser is involved: its token would have
    // nowhere to go.
    let auth = try run(["auth", "--no-browser"], extra: noBus)
    #expect(auth.status == 1)
    #expect(!auth.stderr.contains("https://"), "\(auth.stderr)")
    #expect(auth.stderr.contains("is not available"))
    #expect(sandbox.credentialsBytes() == before)
    // With the tokens in the keyring and no bus, token fails the same way and prints nothing.
    #expect(try run(["migrate", "--to", "keyring"]).status == 0)
    let token = try run(["token"], extra: noBus)
    #expect(token.status == 1)
    #expect(token.stdout.isEmpty)
    #expect(token.stderr.contains("is not available"))
  }

  /// An item deleted behind ghlogin's back: the commands that need it say which and how to fix
  /// it; `logout --local-only` forgets the login.
  @Test func aMissingItemIsNamedWithTheWayOut() throws {
    try sandbox.writeCredentials([["login": "octocat", "token": Self.token]])
    #expect(try run(["migrate", "--to", "keyring"]).status == 0)
    try keyring.secretTool(["clear", "application", "ghlogin"])
    let token = try run(["token"])
    #expect(token.status == 1)
    #expect(
      token.stderr
        == "ghlogin: the token of octocat on github.test is missing from the keyring (Secret Service). "
        + "Log in again with 'ghlogin auth --host github.test', or forget the login with "
        + "'ghlogin logout --host github.test --user octocat --local-only'\n")
    #expect(try run(["logout", "--local-only"]).status == 0)
    #expect(sandbox.storedAccounts().isEmpty)
  }

  /// `migrate` both ways, each killed at its riskiest point: the account stays readable, and
  /// running it again finishes the move.
  @Test func migrationSurvivesAKillEitherWay() throws {
    try sandbox.writeCredentials([["login": "octocat", "token": Self.token]])
    // To the keyring, killed after the items are written and before the file is replaced.
    let killed = try run(["migrate", "--to", "keyring"], extra: ["GHLOGIN_TEST_FAULT": "kill-before-rename"])
    #expect(killed.status == -SIGKILL || killed.status != 0, "\(killed)")
    #expect(try run(["token"]).stdout == Self.token + "\n")
    #expect(fileText.contains(Self.token))
    #expect(try run(["migrate", "--to", "keyring"]).status == 0)
    #expect(!fileText.contains(Self.token))
    #expect(try keyring.lookup(host: "github.test", login: "octocat", userID: 1, kind: "access_token") == Self.token)
    #expect(try run(["token"]).stdout == Self.token + "\n")

    // Back to the file, killed after the file is written and before the items are deleted.
    let killedBack = try run(["migrate", "--to", "file"], extra: ["GHLOGIN_TEST_FAULT": "kill-after-file"])
    #expect(killedBack.status != 0, "\(killedBack)")
    #expect(fileText.contains(Self.token))
    #expect(try run(["token"]).stdout == Self.token + "\n")
    #expect(try run(["migrate", "--to", "file"]).status == 0)
    #expect(try keyring.itemCount() == 0, "the second run removes what the first left behind")
    #expect(try run(["token"]).stdout == Self.token + "\n")
  }

  /// R43 with the keyring: ten concurrent `token` with an expired token make one refresh
  /// request; all print the same new token, which is in the keyring and not in the file.
  @Test func tenConcurrentRefreshesSpendTheRefreshTokenOnce() throws {
    try fake.registerExpiringPair(access: Self.old, refresh: Self.oldRefresh, expiresIn: 1)
    try sandbox.writeCredentials([expiringAccount(token: Self.old, refresh: Self.oldRefresh, expiresIn: -10)])
    #expect(try run(["migrate", "--to", "keyring"]).status == 0)
    let children = try (0..<10).map { _ in try startGHLogin(["token"], env: env, stdin: "") }
    let results = try children.map { try $0.finish(timeout: 90) }
    for result in results { #expect(result.status == 0, "\(result.stderr)") }
    let printed = Set(results.map(\.stdout))
    #expect(printed.count == 1)
    let token = try #require(printed.first?.split(separator: "\n").first.map(String.init))
    #expect(token != Self.old)
    #expect(try fake.counter("refresh_requests") == 1)
    #expect(try keyring.lookup(host: "github.test", login: "octocat", userID: 1, kind: "access_token") == token)
    let refresh = try #require(
      try keyring.lookup(host: "github.test", login: "octocat", userID: 1, kind: "refresh_token"))
    #expect(refresh != Self.oldRefresh)
    #expect(!fileText.contains(token) && !fileText.contains(refresh))
  }

  /// With the file store, `token` and `git-credential get` map no libsecret, GLib or GIO (the
  /// dynamic loader's own log, `LD_DEBUG=libs`); with the keyring store, `token` does.
  @Test func theFileStoreLoadsNoKeyringLibrary() throws {
    try sandbox.writeConfig(["store": "file"])
    try sandbox.writeCredentials([["login": "octocat", "token": Self.token]])
    let debug = ["LD_DEBUG": "libs"]
    let token = try run(["token"], extra: debug)
    #expect(token.stdout == Self.token + "\n")
    let helper = try runGHLogin(
      ["git-credential", "get"], env: env.merging(debug) { $1 }, stdin: "protocol=https\nhost=github.test\n\n")
    #expect(helper.stdout.contains("password=\(Self.token)"))
    for output in [token.stderr, helper.stderr] {
      #expect(output.contains("calling init"), "LD_DEBUG gave no log: \(output.prefix(200))")
      #expect(!output.contains("libsecret") && !output.contains("libglib") && !output.contains("libgio"))
    }
    #expect(try run(["migrate", "--to", "keyring"]).status == 0)
    let fromKeyring = try run(["token"], extra: debug)
    #expect(fromKeyring.stdout == Self.token + "\n")
    #expect(fromKeyring.stderr.contains("libsecret-1.so.0"))
  }
}
