import Foundation
import GHLoginTestSupport
import Testing

/// Issue 30 (and issue 29 §5's rule: a bad item is reported only by a command that needs it): a
/// command on one host reads only that host's entry of `credentials.json`, so another host's
/// malformed entry does not fail it; the needed host's does, with the corrupt-file message, and
/// the file is still refused as a whole when it is not valid JSON (a duplicate key included), or
/// by a command that reads every host.
@Suite struct HostReadEndToEndTests {
  typealias T = HostReadEndToEndTests

  static let token = "gho_hostReadToken0123456789abcdefghij"

  static func account(_ login: String, _ id: Int) -> String {
    #"{"login": "\#(login)", "user_id": \#(id), "token": "\#(token)", "token_type": "bearer", "scopes": ["repo", "read:packages"], "created_at": 1700000000}"#
  }

  static let good = #""github.test": {"active": "octocat", "accounts": [\#(account("octocat", 1))]}"#
  /// An entry every whole-file read refuses: its account has no `token`.
  static let bad =
    #""other.test": {"active": "m", "accounts": [{"login": "m", "user_id": 2, "token_type": "bearer", "scopes": [], "created_at": 1}]}"#

  static func file(_ hosts: String) -> [UInt8] { Array((#"{"version": 1, "hosts": {\#(hosts)}}"# + "\n").utf8) }

  static func refusal(_ file: String, _ detail: String) -> String {
    "ghlogin: \(file) is not a valid credentials file (\(detail)); it was left untouched. "
      + "Move it aside and log in again: mv \(file) \(file).broken && ghlogin auth\n"
  }

  @Test(arguments: [["token"], ["token", "--host", "github.test"]])
  func anotherHostsBadEntryDoesNotFailTheCommand(_ command: [String]) async throws {
    let scenario = try await Scenario.start()
    let contents = Self.file(Self.bad + ", " + Self.good)
    try CredentialsFile.writePrivateFile(scenario.sandbox.credentialsFile, contents)
    let run = try await scenario.run(command)
    #expect(run.status == 0, "\(run)")
    #expect(run.stdout == Self.token + "\n")
    #expect(run.stderr == "")
    #expect(scenario.sandbox.credentialsBytes() == contents)
  }

  @Test func gitCredentialGetAnswersForItsHost() async throws {
    let scenario = try await Scenario.start()
    try CredentialsFile.writePrivateFile(scenario.sandbox.credentialsFile, Self.file(Self.good + ", " + Self.bad))
    let run = try await scenario.run(["git-credential", "get"], stdin: "protocol=https\nhost=github.test\n\n")
    #expect(run.status == 0, "\(run)")
    #expect(run.stdout.contains("password=\(Self.token)\n"))
    #expect(run.stderr == "")
  }

  @Test func goauthAndDockerCredentialGetAnswerForTheirHost() async throws {
    let scenario = try await Scenario.start()
    try CredentialsFile.writePrivateFile(scenario.sandbox.credentialsFile, Self.file(Self.bad + ", " + Self.good))
    let go = try await scenario.run(["goauth", "https://github.test/octo/mod/@v/list"], stdin: "")
    #expect(go.status == 0, "\(go)")
    #expect(go.stdout.hasPrefix("https://github.test/\n\nAuthorization: Basic "), "\(go)")
    #expect(go.stderr == "")
    let docker = try await scenario.run(["docker-credential", "get"], stdin: "containers.github.test")
    #expect(docker.status == 0, "\(docker)")
    #expect(
      docker.stdout
        == #"{"ServerURL":"containers.github.test","Username":"octocat","Secret":"\#(Self.token)"}"# + "\n")
    #expect(docker.stderr == "")
  }

  /// The needed host's bad entry, and a command that reads every host, still refuse the file
  /// with today's message.
  @Test(arguments: [
    (["token", "--host", "other.test"], "\"hosts.other.test.accounts[0].token\" is missing"),
    (["status", "--offline"], "\"hosts.other.test.accounts[0].token\" is missing"),
  ])
  func theNeededHostsBadEntryFailsTheCommand(_ command: [String], _ detail: String) async throws {
    let scenario = try await Scenario.start()
    let contents = Self.file(Self.good + ", " + Self.bad)
    let file = scenario.sandbox.credentialsFile
    try CredentialsFile.writePrivateFile(file, contents)
    let run = try await scenario.run(command)
    #expect(run.status == 1, "\(run)")
    #expect(run.stdout == "")
    #expect(run.stderr == Self.refusal(file, detail))
    #expect(scenario.sandbox.credentialsBytes() == contents)
  }

  /// A duplicate key (top level, host name, or within the needed host) is still refused by `token`.
  @Test(arguments: [
    (#"{"version": 1, "version": 1, "hosts": {"# + T.good + "}}\n", "invalid JSON at line 1, column 16"),
    (
      #"{"version": 1, "hosts": {"# + T.good + ", " + T.good + "}}\n",
      "invalid JSON at line 1, column \(28 + T.good.count)"
    ),
    (
      #"{"version": 1, "hosts": {"github.test": {"active": "a", "active": "b", "accounts": []}}}"# + "\n",
      "invalid JSON at line 1, column 57"
    ),
  ])
  func aDuplicateKeyFailsTheCommand(_ text: String, _ detail: String) async throws {
    let scenario = try await Scenario.start()
    let file = scenario.sandbox.credentialsFile
    try CredentialsFile.writePrivateFile(file, Array(text.utf8))
    let run = try await scenario.run(["token", "--host", "github.test"])
    #expect(run.status == 1, "\(run)")
    #expect(run.stdout == "")
    #expect(run.stderr == Self.refusal(file, detail))
  }
}
