import Testing

import GHLoginTestSupport
@testable import GHLoginCore

/// Issue 33 §1, R111: a stored login is identified by host, user id and the client ID that
/// issued it. Two apps' logins of one user live side by side; each app has its own default; a
/// file holding either is version 3, which the release before it refuses with its "upgrade"
/// message.
@Suite struct AppLoginsTests {
  static let appA = "Iv1.appA"
  static let appB = "Iv1.appB"

  static func login(
    _ name: String = "alice", userID: Int64 = 7, token: String, clientID: String?, refresh: String? = nil
  ) -> Credential {
    var credential = Credential(
      login: name, userID: userID, token: token, createdAt: 1_700_000_000, expiresAt: 1_700_028_800,
      refreshToken: refresh)
    credential.clientID = clientID
    return credential
  }

  static let aliceA = login(token: "ghu_aliceA", clientID: appA, refresh: "ghr_aliceA")
  static let aliceB = login(token: "ghu_aliceB", clientID: appB, refresh: "ghr_aliceB")
  static let aliceToken = login(token: "ghp_alicePAT", clientID: nil)

  @Test func aSecondAppsLoginOfTheSameUserIsAddedBesideTheFirst() {
    var credentials = Credentials()
    #expect(credentials.save(Self.aliceA, on: "github.com", defaultFor: Self.appA) == nil)
    #expect(credentials.save(Self.aliceB, on: "github.com", defaultFor: Self.appB) == nil)
    #expect(credentials.hosts["github.com"]?.accounts == [Self.aliceA, Self.aliceB])
    #expect(credentials.formatVersion == 3)
  }

  @Test func aLoginReplacesOnlyTheSameAppsLoginOfThatUser() {
    var credentials = Credentials()
    credentials.save(Self.aliceA, on: "github.com", defaultFor: Self.appA)
    credentials.save(Self.aliceB, on: "github.com", defaultFor: Self.appB)
    credentials.save(Self.aliceToken, on: "github.com", defaultFor: Self.appA)
    let again = Self.login(token: "ghu_aliceA2", clientID: Self.appA, refresh: "ghr_aliceA2")
    #expect(credentials.save(again, on: "github.com", defaultFor: Self.appA) == Self.aliceA)
    #expect(credentials.hosts["github.com"]?.accounts == [again, Self.aliceB, Self.aliceToken])
    let pat = Self.login(token: "ghp_alicePAT2", clientID: nil)
    #expect(credentials.save(pat, on: "github.com", defaultFor: nil) == Self.aliceToken)
    #expect(credentials.hosts["github.com"]?.accounts == [again, Self.aliceB, pat])
  }

  @Test func aLoginByOneAppNeverChangesAnotherAppsDefault() {
    var credentials = Credentials()
    let bobB = Self.login("bob", userID: 8, token: "ghu_bobB", clientID: Self.appB)
    credentials.save(Self.aliceA, on: "github.com", defaultFor: Self.appA)
    credentials.save(bobB, on: "github.com", defaultFor: Self.appB)
    let entry = credentials.hosts["github.com"]
    #expect(entry?.activeLogin == "bob")
    #expect(entry?.defaults == [Self.appA: "alice"])
    #expect(entry?.defaultAccount(forApp: Self.appA) == Self.aliceA)
    #expect(entry?.defaultAccount(forApp: Self.appB) == bobB)
    #expect(credentials.formatVersion == 3)
    // A caller without an app (a source build with none configured) moves the shared default;
    // the apps that followed it keep theirs.
    let carol = Self.login("carol", userID: 9, token: "ghp_carol", clientID: nil)
    credentials.save(carol, on: "github.com", defaultFor: nil)
    let after = credentials.hosts["github.com"]
    #expect(after?.activeLogin == "carol")
    #expect(after?.defaults == [Self.appA: "alice", Self.appB: "bob"])
    // Back to app B's login of bob: app A keeps alice, and nothing follows carol any more.
    credentials.hosts["github.com"]?.makeDefault("bob", forApp: Self.appB)
    #expect(credentials.hosts["github.com"]?.activeLogin == "bob")
    #expect(credentials.hosts["github.com"]?.defaults == [Self.appA: "alice"])
    #expect(after?.defaultAccount(forApp: Self.appA) == Self.aliceA)
    #expect(after?.defaultAccount(forApp: nil) == carol)
  }

  /// An app sees its own login of a user first, else one without a client ID; never another
  /// app's.
  @Test func eachAppFindsItsOwnLoginOfTheUser() {
    let entry = HostEntry(activeLogin: "alice", accounts: [Self.aliceB, Self.aliceToken, Self.aliceA])
    #expect(entry.account("ALICE", forApp: Self.appA) == Self.aliceA)
    #expect(entry.account("alice", forApp: Self.appB) == Self.aliceB)
    #expect(entry.account("alice", forApp: "Iv1.other") == Self.aliceToken)
    #expect(entry.account("alice", forApp: nil) == Self.aliceB)
    let onlyB = HostEntry(activeLogin: "alice", accounts: [Self.aliceB])
    #expect(onlyB.account("alice", forApp: Self.appA) == nil)
    #expect(onlyB.defaultAccount(forApp: Self.appA) == nil)
    #expect(!entry.isStale(Self.aliceA) && !entry.isStale(Self.aliceB) && !entry.isStale(Self.aliceToken))
  }

  @Test func removingOneAppsLoginLeavesTheOtherAppsLoginAndDefault() {
    var credentials = Credentials()
    credentials.save(Self.aliceA, on: "github.com", defaultFor: Self.appA)
    credentials.save(Self.aliceB, on: "github.com", defaultFor: Self.appB)
    credentials.remove(from: "github.com") { $0.isSameLogin(as: Self.aliceA) }
    #expect(credentials.hosts["github.com"] == HostEntry(activeLogin: "alice", accounts: [Self.aliceB]))
    #expect(credentials.formatVersion == 2)
  }

  @Test func removingAnAppsDefaultUserDropsItsEntry() {
    var credentials = Credentials()
    let bobB = Self.login("bob", userID: 8, token: "ghu_bobB", clientID: Self.appB)
    let carolB = Self.login("carol", userID: 9, token: "ghu_carolB", clientID: Self.appB)
    credentials.save(Self.aliceA, on: "github.com", defaultFor: Self.appA)
    credentials.save(carolB, on: "github.com", defaultFor: Self.appB)
    credentials.save(bobB, on: "github.com", defaultFor: Self.appB)
    #expect(credentials.hosts["github.com"]?.activeLogin == "bob")
    #expect(credentials.hosts["github.com"]?.defaults == [Self.appA: "alice"])
    credentials.remove(from: "github.com") { $0.isSameLogin(as: bobB) }
    // The active login is gone: the first account left is active, and app A's entry says the same.
    #expect(credentials.hosts["github.com"]?.activeLogin == "alice")
    #expect(credentials.hosts["github.com"]?.defaults == [:])
    #expect(credentials.hosts["github.com"]?.defaultAccount(forApp: Self.appB) == nil)
  }

  /// The keyring's plan is keyed by host, user id and client ID: saving app B's login writes
  /// its items and deletes none of app A's.
  @Test func theKeyringPlanNeverTouchesAnotherAppsLogin() {
    var a = Self.aliceA
    a.storage = .keyring
    var b = Self.aliceB
    b.storage = .keyring
    let before = Credentials(hosts: ["github.com": HostEntry(activeLogin: "alice", accounts: [a])])
    var after = before
    after.save(b, on: "github.com", defaultFor: Self.appB)
    let sync = SecretSync(from: before, to: after)
    #expect(sync.writes.map(\.1) == ["ghu_aliceB", "ghr_aliceB"])
    #expect(sync.deletesBefore.isEmpty && sync.deletesAfter.isEmpty)
    var removed = after
    removed.remove(from: "github.com") { $0.isSameLogin(as: b) }
    let logout = SecretSync(from: after, to: removed)
    #expect(logout.writes.isEmpty)
    #expect(logout.deletesBefore.map(\.1) == ["ghu_aliceB", "ghr_aliceB"])
  }

  /// Version 3 round-trips; the release before it (newest version 2, the decoder's check before
  /// anything else) refuses the very bytes this release writes, with the error behind its
  /// "upgrade" message, so its next write can never merge the two logins.
  @Test func aVersion3FileIsReadHereAndRefusedByTheReleaseBefore() throws {
    for defaultOfB in [false, true] {
      var credentials = Credentials()
      credentials.save(Self.aliceA, on: "github.com", defaultFor: Self.appA)
      if defaultOfB {
        credentials.save(Self.login("bob", userID: 8, token: "ghu_bob", clientID: Self.appB), on: "github.com")
      } else {
        credentials.save(Self.aliceB, on: "github.com", defaultFor: Self.appB)
      }
      let bytes = CredentialCoding.encode(credentials)
      #expect(String(decoding: bytes, as: UTF8.self).contains("\"version\": 3,"))
      #expect(try CredentialCoding.decode(bytes) == credentials)
      #expect(throws: CredentialCoding.Failure.newerVersion(3)) {
        try CredentialCoding.decode(bytes, maximumVersion: 2)
      }
    }
    #expect(
      StoreError.newerVersion(path: "/c.json", version: 3).message.contains(
        "(version 3); it was left untouched. Upgrade"))
  }

  /// Other files keep the oldest version that holds them: one app switching between its
  /// accounts keeps the file as it was.
  @Test func filesWithoutTwoLoginsOfAUserOrAnAppsDefaultKeepTheirVersion() {
    var credentials = Credentials()
    credentials.save(Self.login(token: "ghp_x", clientID: nil), on: "github.com", defaultFor: Self.appA)
    #expect(credentials.formatVersion == 1)
    credentials.save(Self.login("bob", userID: 8, token: "ghu_b", clientID: Self.appA), on: "github.com")
    #expect(credentials.formatVersion == 2)
    #expect(credentials.hosts["github.com"]?.activeLogin == "bob")
    credentials.hosts["github.com"]?.makeDefault("alice", forApp: Self.appA)
    #expect(
      credentials.hosts["github.com"]
        == HostEntry(
          activeLogin: "alice",
          accounts: [
            Self.login(token: "ghp_x", clientID: nil),
            Self.login("bob", userID: 8, token: "ghu_b", clientID: Self.appA),
          ]))
    #expect(credentials.formatVersion == 2)
  }

  @Test func defaultsAreOnlyAllowedInVersion3() {
    let text = #"{"version": 2, "hosts": {"github.com": {"defaults": {"Iv1.a": "x"}, "accounts": []}}}"#
    #expect(throws: CredentialCoding.Failure.invalid("unknown key \"hosts.github.com.defaults\"")) {
      try CredentialCoding.decode(Array(text.utf8))
    }
    let empty = #"{"version": 3, "hosts": {"github.com": {"defaults": {"Iv1.a": ""}, "accounts": []}}}"#
    #expect(throws: CredentialCoding.Failure.invalid("\"hosts.github.com.defaults.Iv1.a\" is empty")) {
      try CredentialCoding.decode(Array(empty.utf8))
    }
  }

  /// The command line's app takes over the user's login that records no app when it has none of
  /// its own (a login an earlier release stored: R92's one login per user); a tool with its own
  /// app never does, and neither replaces another app's login.
  @Test func onlyTheCommandLinesAppTakesOverALoginThatRecordsNoApp() {
    let older = Self.login(token: "gho_older", clientID: nil)
    var credentials = Credentials(hosts: ["github.com": HostEntry(activeLogin: "alice", accounts: [older])])
    var tool = credentials
    #expect(tool.addNewLogin(Self.aliceB, on: "github.com", store: .file, defaultFor: Self.appB).replaced == nil)
    #expect(tool.hosts["github.com"]?.accounts == [older, Self.aliceB])
    let (replaced, saved) = credentials.addNewLogin(
      Self.aliceA, on: "github.com", store: .file, defaultFor: Self.appA, replacingUnrecorded: true)
    #expect(replaced == older && saved == Self.aliceA)
    #expect(credentials.hosts["github.com"]?.accounts == [Self.aliceA])
    // With a login of its own app, that one is replaced, and the one without an app stays.
    credentials.save(older, on: "github.com", defaultFor: Self.appA)
    let again = Self.login(token: "ghu_aliceA3", clientID: Self.appA)
    #expect(
      credentials.save(again, on: "github.com", defaultFor: Self.appA, replacingUnrecorded: true) == Self.aliceA)
    #expect(credentials.hosts["github.com"]?.accounts == [again, older])
  }
}
