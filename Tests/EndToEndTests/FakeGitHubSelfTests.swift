import Foundation
import Testing

/// The fake GitHub's own test suite (Tests/FakeGitHub/test_fake.py): the end-to-end tests are only
/// as good as the fake is strict, so its PKCE check, single-use codes, device pacing, rotating
/// refresh tokens and revocation are proved on every run, independently of ghlogin.
@Suite struct FakeGitHubSelfTests {
  @Test func theFakesOwnTestsPass() throws {
    let child = try ChildProcess(
      executable: HarnessPaths.python3,
      arguments: [HarnessPaths.fakeGitHubDirectory + "/test_fake.py"],
      stdin: "")
    let result = try child.finish(timeout: 120)
    #expect(result.status == 0, "test_fake.py failed:\n\(result.stderr.suffix(4000))")
    #expect(result.stderr.contains("\nOK"), "\(result.stderr.suffix(2000))")
  }
}
