import Foundation
import Testing

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// The 0600 credential store as the built binary uses it: unsafe files refused, symlinks never
/// followed, concurrent logins all kept, failed writes leaving the old file intact (R62–R66).
@Suite struct StoreEndToEndTests {
  static let oldToken = "gho_previousToken0123456789abcdefghijk"

  /// R62–R64: under umask 000 a login still creates the missing directories 0700 and the file
  /// 0600 (here at `GHLOGIN_CREDENTIALS`), leaving no temp file.
  @Test func umask000StillGives0600In0700() async throws {
    let scenario = try await Scenario.start()
    let directory = scenario.sandbox.home + "/state/ghlogin"
    let file = directory + "/credentials.json"
    let binary = try HarnessPaths.ghloginBinary()
    let env = scenario.environment(["GHLOGIN_CREDENTIALS": file])
    let fake = scenario.fake
    let pending = try await offload {
      let child = try ChildProcess(
        executable: "/bin/sh", arguments: ["-c", "umask 000 && exec \"$0\" auth --no-browser", binary],
        environment: env)
      return try PendingLogin(child: child, fake: fake)
    }
    _ = try await pending.browse()
    let run = try await pending.finish()
    #expect(run.status == 0, "\(run)")
    #expect(Scenario.mode(of: file) == 0o600)
    #expect(Scenario.mode(of: file + ".lock") == 0o600)
    #expect(Scenario.mode(of: directory) == 0o700)
    #expect(Scenario.mode(of: scenario.sandbox.home + "/state") == 0o700)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == [
        "credentials.json", "credentials.json.lock",
      ])
    #expect(scenario.sandbox.credentialsBytes() == nil, "nothing at the default path")
    let token = try await scenario.run(["token"], env: ["GHLOGIN_CREDENTIALS": file])
    #expect(token.status == 0)
  }

  /// R64, R65: a credentials file readable by others is refused by every command that reads it,
  /// with `chmod 600`, exit 1, and nothing from it printed; the file is left as it was.
  @Test(arguments: [["token"], ["whoami"], ["status"], ["logout"]])
  func groupReadableFileIsRefused(_ command: [String]) async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.oldToken)
    let file = scenario.sandbox.credentialsFile
    #expect(chmod(file, 0o644) == 0)
    let before = scenario.sandbox.credentialsBytes()

    let run = try await scenario.run(command)
    #expect(run.status == 1, "\(run)")
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "ghlogin: refusing to read \(file): its permissions 0644 are too open (group or others can access it); "
        + "run chmod 600 \(file)\n")
    expectNoSecrets([Self.oldToken, "octocat"], in: [run.stdout, run.stderr])
    #expect(scenario.sandbox.credentialsBytes() == before)
    #expect(Scenario.mode(of: file) == 0o644)
    #expect(try scenario.fake.requests().isEmpty)
  }

  /// R63, R65: credentials.json is a symlink to a file elsewhere: a login is refused, nothing is
  /// written through the link, and reading through it is refused too.
  @Test func symlinkedCredentialsFileIsNeverFollowed() async throws {
    let scenario = try await Scenario.start()
    let victim = scenario.sandbox.home + "/victim"
    let victimText = Data("do not touch\n".utf8)
    try victimText.write(to: URL(fileURLWithPath: victim))
    #expect(chmod(victim, 0o600) == 0)
    let link = scenario.sandbox.credentialsFile
    #expect(symlink(victim, link) == 0)

    // The login is refused before the browser step: no token is issued that could not be stored.
    let run = try await scenario.run(["auth", "--no-browser"])
    #expect(run.status == 1, "\(run)")
    let refusal =
      "ghlogin: refusing to use \(link): it is a symbolic link; ghlogin never reads or writes credentials "
      + "through a link\n"
    #expect(run.stderr == refusal, "\(run)")
    #expect(try scenario.fake.requests().isEmpty)
    #expect(FileManager.default.contents(atPath: victim) == victimText)
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == victim)

    let token = try await scenario.run(["token"])
    #expect(token.status == 1)
    #expect(token.stdout == "")
    #expect(token.stderr == refusal)
  }

  /// R66: 20 `ghlogin auth` processes at once, each for its own host name (all served by
  /// the one fake), all succeed and all 20 logins are in the file afterwards.
  @Test func twentyConcurrentLoginsAreAllKept() async throws {
    let scenario = try await Scenario.start()
    let names = (1...20).map { "h\($0).test" }
    var hosts: [String: Any] = [:]
    for name in names {
      hosts[name] = [
        "authorize_url": scenario.fake.webBase + "/login/oauth/authorize",
        "token_url": scenario.fake.webBase + "/login/oauth/access_token",
        "api_url": scenario.fake.apiBase,
        // The top-level app is the default host's only (issue 29 §5): each host has its own.
        "client_id": "Iv1.testclient", "client_secret": testClientSecret,
      ]
    }
    try scenario.sandbox.writeConfig(["hosts": hosts])

    // Start all 20 and wait for their URLs, then approve them all at once.
    let pendings = try await withThrowingTaskGroup(of: PendingLogin.self) { group in
      for name in names { group.addTask { try await scenario.startAuth(["--host", name]) } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    let results = try await withThrowingTaskGroup(of: (String, RunResult).self) { group in
      for pending in pendings {
        group.addTask {
          _ = try await pending.browse()
          return (pending.url, try await pending.finish(timeout: 60))
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 20)
    for (url, run) in results {
      #expect(run.status == 0, "\(url)\n\(run)")
    }
    let stored = try #require(scenario.sandbox.credentialsJSON()?["hosts"] as? [String: Any])
    #expect(Set(stored.keys) == Set(names))
    let tokens = stored.values.compactMap {
      (($0 as? [String: Any])?["accounts"] as? [[String: Any]])?.first?["token"] as? String
    }
    #expect(Set(tokens).count == 20)
    #expect(Scenario.mode(of: scenario.sandbox.credentialsFile) == 0o600)
    #expect(try scenario.configDirectoryListing() == ["config.json", "credentials.json", "credentials.json.lock"])
  }

  /// R63: a write that fails at any step before the rename leaves the previous file
  /// byte for byte and no temp file, and says so; the login exits 1.
  @Test(arguments: ["open", "write", "fsync", "rename"])
  func failedWriteKeepsThePreviousFile(_ step: String) async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.oldToken, host: "ghe.test")
    let before = try #require(scenario.sandbox.credentialsBytes())

    let (run, _, _) = try await scenario.login(env: ["GHLOGIN_TEST_FAULT": step])
    #expect(run.status == 1, "\(run)")
    let last = run.stderr.split(separator: "\n").last.map(String.init) ?? ""
    #expect(
      last.hasPrefix("ghlogin: cannot ")
        && last.hasSuffix(
          ": Input/output error; the file was left unchanged. The login to github.test was not stored; the new token "
            + "was revoked at github.test, so nothing is left behind. Run 'ghlogin auth' again"),
      "\(run)")
    #expect(last.contains(scenario.sandbox.configDirectory + "/"))
    #expect(scenario.sandbox.credentialsBytes() == before)
    #expect(try scenario.configDirectoryListing() == ["config.json", "credentials.json", "credentials.json.lock"])
    let issued = try #require(
      (try scenario.fake.state()["tokens"] as? [[String: Any]])?.compactMap { $0["access_token"] as? String })
    expectNoSecrets(issued + [Self.oldToken], in: [run.stdout, run.stderr])
  }

  /// R63: killed between writing the temp file and the rename, the old file is intact and
  /// still works; the next write clears the stray temp file.
  @Test func killBeforeRenameKeepsThePreviousFile() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.oldToken)
    let before = try #require(scenario.sandbox.credentialsBytes())

    let (run, _, _) = try await scenario.login(env: ["GHLOGIN_TEST_FAULT": "kill-before-rename"])
    #expect(run.status == -SIGKILL, "\(run)")
    #expect(scenario.sandbox.credentialsBytes() == before)
    let token = try await scenario.run(["token"])
    #expect(token.stdout == Self.oldToken + "\n")

    let (again, _, _) = try await scenario.login()
    #expect(again.status == 0, "\(again)")
    #expect(try scenario.configDirectoryListing() == ["config.json", "credentials.json", "credentials.json.lock"])
    #expect(try await scenario.run(["token"]).stdout != Self.oldToken + "\n")
  }
}
