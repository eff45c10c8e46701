import Foundation
import Testing

/// After a login, one line saying how to let git use it when git is not set up for
/// that host; nothing when it is.
@Suite struct NextStepEndToEndTests {
  static let hint = "To let git use this login: ghlogin setup-git"

  @Test func browserLoginSaysHowToSetUpGit() async throws {
    let scenario = try await Scenario.start()
    let (run, _, _) = try await scenario.login()
    #expect(run.status == 0, "\(run)")
    #expect(run.stderr.hasSuffix("Logged in to github.test as octocat\n\(Self.hint)\n"), "\(run)")
  }

  /// Once `setup-git` has run for the host, a login says nothing more.
  @Test func nothingWhenGitIsSetUp() async throws {
    let scenario = try await Scenario.start()
    let setup = try await scenario.run(["setup-git"])
    #expect(setup.status == 0, "\(setup)")
    let (run, _, _) = try await scenario.login()
    #expect(run.status == 0, "\(run)")
    #expect(run.stderr.hasSuffix("Logged in to github.test as octocat\n"), "\(run)")
    #expect(!run.stderr.contains("setup-git"))
  }

  /// Git set up for another host only: the hint names this host, since `setup-git` alone would
  /// pick the config's host.
  @Test func anotherHostGetsItsHostOption() async throws {
    let scenario = try await Scenario.start()
    let other = "ghe.test:\(scenario.fake.port)"
    // The top-level app is github.test's only: the other host has its own.
    try scenario.sandbox.writeConfig([
      "hosts": [other: ["client_id": "Iv1.testclient", "client_secret": testClientSecret]]
    ])
    let (run, _, _) = try await scenario.login(["--host", other])
    #expect(run.status == 0, "\(run)")
    #expect(run.stderr.hasSuffix("Logged in to \(other) as octocat\n\(Self.hint) --host \(other)\n"), "\(run)")
    let setup = try await scenario.run(["setup-git", "--host", other])
    #expect(setup.status == 0, "\(setup)")
    let again = try await scenario.login(["--host", other]).run
    #expect(again.stderr.hasSuffix("Logged in to \(other) as octocat\n"), "\(again)")
  }
}
