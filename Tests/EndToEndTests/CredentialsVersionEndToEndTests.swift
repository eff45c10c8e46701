import Foundation
import GHLoginTestSupport
import Testing

/// Two apps on one host (SECURITY.md), on the built binary: version 2 of the credentials file (an account's
/// `"client_id"`) is read; a version this ghlogin does not know is refused with the upgrade
/// message, never called corrupt, and left byte for byte as it was.
@Suite struct CredentialsVersionEndToEndTests {
  static let token = "ghu_versionTwoToken00000000000000000001"

  @Test func aVersion2FileIsRead() throws {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    try sandbox.writeCredentials([["login": "octocat", "token": Self.token, "client_id": "Iv1.testclient"]])
    #expect(sandbox.credentialsJSON()?["version"] as? Int == 2)
    let run = try runGHLogin(["token"], env: sandbox.environment())
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == Self.token + "\n")
    #expect(run.stderr == "")
  }

  @Test func aNewerVersionIsRefusedWithTheUpgradeMessageAndLeftAlone() throws {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    let account = CredentialsFile.account(login: "octocat", userID: 1, token: Self.token)
    try CredentialsFile.write(
      hosts: ["github.test": ["active": "octocat", "accounts": [account]]], to: sandbox.credentialsFile, version: 5)
    let before = sandbox.credentialsBytes()
    for arguments in [["token"], ["logout"]] {
      let run = try runGHLogin(arguments, env: sandbox.environment())
      #expect(run.status == 1, "\(arguments): \(run.stderr)")
      #expect(run.stdout == "")
      #expect(
        run.stderr
          == "ghlogin: \(sandbox.credentialsFile) was written by a newer ghlogin (version 5); it was left untouched. "
          + "Upgrade ghlogin to use it\n")
    }
    #expect(sandbox.credentialsBytes() == before)
    #expect(try fake.requests().isEmpty)
  }
}
