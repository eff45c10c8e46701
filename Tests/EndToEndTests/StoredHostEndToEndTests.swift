import Foundation
import GHLoginTestSupport
import Testing

/// R106: a host key in `credentials.json` that is not a host name as
/// `--host` takes it (here one holding terminal escape sequences) makes the file invalid for
/// every command that reads every host: the corrupt-file message with its recovery command, exit 1, no
/// ESC byte on either stream, nothing sent, the file byte-identical. A command on another host
/// reads only that host's entry (issue 30) and answers.
@Suite struct StoredHostEndToEndTests {
  static let token = "gho_storedHostToken0123456789abcdefgh"
  /// A key that clears the screen and sets the window title when printed raw.
  static let badKey = #"\u001b[2J\u001b]0;pwned\u0007evil.test"#
  /// The key as messages show it (escaped, as a JSON string would hold it).
  static let shownKey = #"\u001b[2J\u001b]0;pwned\u0007evil.test"#

  /// The file: a good login on github.test and one under the bad key.
  static func contents() -> [UInt8] {
    let account = { (login: String, id: Int) in
      #"{"login": "\#(login)", "user_id": \#(id), "token": "\#(token)", "token_type": "bearer", "scopes": ["repo"], "created_at": 1700000000}"#
    }
    let text =
      #"{"version": 1, "hosts": {"github.test": {"active": "octocat", "accounts": [\#(account("octocat", 1))]}, "#
      + #""\#(badKey)": {"active": "mallory", "accounts": [\#(account("mallory", 2))]}}}"# + "\n"
    return Array(text.utf8)
  }

  static func refusal(_ file: String) -> String {
    "ghlogin: \(file) is not a valid credentials file (the host name \"\(shownKey)\" in \"hosts\" is not valid: "
      + "it contains a space or a control character); it was left untouched. "
      + "Move it aside and log in again: mv \(file) \(file).broken && ghlogin auth\n"
  }

  @Test(arguments: [["status", "--offline"], ["status"]])
  func aHostKeyThatIsNotAHostNameRefusesTheFile(_ command: [String]) async throws {
    let scenario = try await Scenario.start()
    try scenario.fake.register(["tokens": [["access_token": Self.token, "login": "octocat", "scopes": "repo"]]])
    let file = scenario.sandbox.credentialsFile
    try CredentialsFile.writePrivateFile(file, Self.contents())

    let run = try await scenario.run(command)
    #expect(run.status == 1, "\(run)")
    #expect(run.stdout == "")
    #expect(run.stderr == Self.refusal(file))
    for text in [run.stdout, run.stderr] {
      #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "a raw escape was printed")
    }
    expectNoSecrets([Self.token], in: [run.stdout, run.stderr])
    #expect(scenario.sandbox.credentialsBytes() == Self.contents(), "the file is byte-identical")
    #expect(try scenario.fake.requests().isEmpty, "nothing was sent")
  }

  /// `token` on the good host (the config's) reads that entry alone, and prints nothing of the bad key.
  @Test(arguments: [["token"], ["token", "--host", "github.test"]])
  func aCommandOnTheGoodHostAnswers(_ command: [String]) async throws {
    let scenario = try await Scenario.start()
    let file = scenario.sandbox.credentialsFile
    try CredentialsFile.writePrivateFile(file, Self.contents())
    let run = try await scenario.run(command)
    #expect(run.status == 0, "\(run)")
    #expect(run.stdout == Self.token + "\n")
    #expect(run.stderr == "")
    #expect(scenario.sandbox.credentialsBytes() == Self.contents(), "the file is byte-identical")
    #expect(try scenario.fake.requests().isEmpty, "nothing was sent")
  }

  /// The shell completion's host list (read by zsh, bash and fish) lists nothing from such a
  /// file, quietly, as for any file it cannot use.
  @Test func completionListsNoHostFromSuchAFile() async throws {
    let scenario = try await Scenario.start()
    let file = scenario.sandbox.credentialsFile
    try CredentialsFile.writePrivateFile(file, Self.contents())
    let run = try await scenario.run(["completion", "--hosts"])
    #expect(run.status == 0, "\(run)")
    #expect(run.stdout == "")
    #expect(run.stderr == "")
    #expect(scenario.sandbox.credentialsBytes() == Self.contents())
  }
}
