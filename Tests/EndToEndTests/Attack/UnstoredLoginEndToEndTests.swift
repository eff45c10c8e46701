import Foundation
import Testing

/// R96: `auth` got a token, then failed on the credentials lock, and the new
/// token stayed valid and unknown. Now no lock is taken before the browser step, and a token that
/// cannot be stored is revoked at the fake, with a message that says so.
@Suite struct UnstoredLoginEndToEndTests {
  /// The tokens the fake issued (not seeded), with their records.
  static func issuedTokens(_ fake: FakeGitHub, except seeded: Set<String> = []) throws -> [[String: Any]] {
    (try fake.state()["tokens"] as? [[String: Any]] ?? []).filter {
      !seeded.contains($0["access_token"] as? String ?? "")
    }
  }

  /// Another process holds the lock through the whole login: `token` meanwhile does not wait;
  /// after the exchange the store times out (30 s), the new token is revoked, nothing is stored.
  @Test func lockHeldElsewhereRevokesTheNewToken() async throws {
    let scenario = try await Scenario.start()
    let lockFile = scenario.sandbox.credentialsFile + ".lock"
    let holder = try ChildProcess(
      executable: HarnessPaths.python3,
      arguments: [
        "-c",
        "import fcntl, os, sys, time\nfd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)\n"
          + "fcntl.flock(fd, fcntl.LOCK_EX)\nprint('locked', flush=True)\nsys.stdin.read()\n",
        lockFile,
      ])
    _ = try await offload { try holder.waitForLine(.stdout, timeout: 10) { $0 == "locked" } }

    let pending = try await scenario.startAuth()
    let started = Date()
    let token = try await scenario.run(["token"], timeout: 20)
    // Waiting for the lock would take the store's 30 s; 15 s leaves room for a loaded machine.
    #expect(Date().timeIntervalSince(started) < 15, "token waited for the lock")
    #expect(token.status == 4, "\(token)")
    _ = try await pending.browse()
    let run = try await pending.finish(timeout: 60)
    holder.closeStdin()

    #expect(run.status == 1, "\(run)")
    #expect(
      run.stderr.hasSuffix(
        "ghlogin: timed out after 30 seconds waiting for the lock on \(lockFile); another ghlogin is still using the "
          + "credentials. Try again when it has finished. The login to github.test was not stored; the new token was "
          + "revoked at github.test, so nothing is left behind. Run 'ghlogin auth' again\n"), "\(run)")
    let issued = try Self.issuedTokens(scenario.fake)
    #expect(issued.count == 1)
    #expect(issued.first?["revoked"] as? Bool == true, "\(issued)")
    for record in issued { expectNoSecrets([record["access_token"] as? String ?? ""], in: [run.stdout, run.stderr]) }
    expectNothingStored(scenario)
  }

  /// The write itself fails after the exchange (debug-build fault hook): revoked, said so.
  @Test func failedWriteRevokesTheNewToken() async throws {
    let scenario = try await Scenario.start()
    let (run, _, _) = try await scenario.login(env: ["GHLOGIN_TEST_FAULT": "rename"])
    #expect(run.status == 1, "\(run)")
    #expect(
      run.stderr.contains(
        "the file was left unchanged. The login to github.test was not stored; the new token was revoked at "
          + "github.test, so nothing is left behind. Run 'ghlogin auth' again\n"), "\(run)")
    let issued = try Self.issuedTokens(scenario.fake)
    #expect(issued.count == 1 && issued.first?["revoked"] as? Bool == true, "\(issued)")
    expectNothingStored(scenario)
  }

  /// Without a client secret the token cannot be revoked: the message says where to do it by hand
  /// (github.test's endpoints are configured, so it is not known to be GitHub: R103).
  @Test func withoutClientSecretTheMessageGivesTheManualPage() async throws {
    let scenario = try await Scenario.start(config: ["client_secret": NSNull()])
    try scenario.fake.register(["apps": [["client_id": "Iv1.testclient", "client_secret": nil as String?]]])
    let (run, _, _) = try await scenario.login(env: ["GHLOGIN_TEST_FAULT": "rename"])
    #expect(run.status == 1, "\(run)")
    #expect(
      run.stderr.contains(
        "The login to github.test was not stored; the new token could not be revoked (no client secret is "
          + "configured): revoke it at the server that issued it\n"),
      "\(run)")
  }
}
