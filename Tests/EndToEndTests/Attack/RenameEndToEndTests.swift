import Foundation
import Testing

/// R92: with octocat (id 1) and hubot (id 2) stored, GitHub renames hubot to
/// hubot2 and octocat to hubot (the fake's `renames`), and id 1 logs in again as `hubot`. Before,
/// two `hubot` entries were both active and `logout --user hubot` removed both, revoking one.
/// Now accounts are keyed by id: the login answers to id 1 only, id 2's entry is shown stale, and
/// each logout removes and revokes exactly one account.
@Suite struct RenameEndToEndTests {
  static let tokenA = "gho_renameAAAA0123456789abcdefghijklmnop"
  static let tokenB = "gho_renameBBBB0123456789abcdefghijklmnop"

  @Test func renameLeavesOneAccountAnsweringToTheLogin() async throws {
    let scenario = try await Scenario.start()
    try scenario.fake.register([
      "tokens": [
        ["access_token": Self.tokenA, "login": "octocat", "scopes": "repo"],
        ["access_token": Self.tokenB, "login": "hubot", "scopes": "repo"],
      ]
    ])
    try scenario.sandbox.writeCredentials([
      ["login": "octocat", "user_id": 1, "token": Self.tokenA],
      ["login": "hubot", "user_id": 2, "token": Self.tokenB],
    ])
    try scenario.fake.register(["renames": [["from": "hubot", "to": "hubot2"], ["from": "octocat", "to": "hubot"]]])
    try scenario.fake.script(["authorize": ["user": "hubot"]])

    let (login, _, _) = try await scenario.login()
    #expect(login.status == 0, "\(login)")
    #expect(login.stderr.contains("Logged in to github.test as hubot"))
    let accounts = scenario.sandbox.storedAccounts()
    #expect(accounts.count == 2, "\(accounts)")
    let newToken = try #require(accounts.first?["token"] as? String)
    #expect(accounts.map { $0["user_id"] as? Int } == [1, 2])
    #expect(try scenario.fake.tokenRecord(Self.tokenA)?["revoked"] as? Bool == true, "id 1's old token revoked")

    // status: one active account, the other stale, both named hubot.
    let status = try await scenario.run(["status"])
    #expect(status.status == 0, "\(status)")
    #expect(status.stdout.components(separatedBy: "(active").count == 2, "\(status)")
    #expect(status.stdout.contains("- hubot (stale: GitHub gave this login to another account; log in as user id 2"))
    let json = try await scenario.run(["status", "--json"])
    let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let listed =
      ((document?["hosts"] as? [String: Any])?["github.test"] as? [String: Any])?["accounts"] as? [[String: Any]]
    #expect(listed?.map { $0["active"] as? Bool } == [true, false])
    #expect(listed?.map { $0["login_stale"] as? Bool } == [false, true])

    // --user hubot is id 1, never the stale entry.
    let token = try await scenario.run(["token", "--user", "hubot"])
    #expect(token.stdout == newToken + "\n", "\(token)")

    // logout removes and revokes exactly one account each time.
    let first = try await scenario.run(["logout", "--user", "hubot"])
    #expect(first.status == 0, "\(first)")
    #expect(first.stderr.contains("the token was revoked at github.test"), "\(first)")
    #expect(try scenario.fake.tokenRecord(newToken)?["revoked"] as? Bool == true)
    #expect(try scenario.fake.tokenRecord(Self.tokenB)?["revoked"] as? Bool == false)
    #expect(scenario.sandbox.storedAccounts().map { $0["user_id"] as? Int } == [2])
    let second = try await scenario.run(["logout", "--user", "hubot"])
    #expect(second.status == 0, "\(second)")
    #expect(try scenario.fake.tokenRecord(Self.tokenB)?["revoked"] as? Bool == true)
    #expect(scenario.sandbox.storedAccounts().isEmpty)
  }
}
