import Foundation
import GHLoginTestSupport
import Testing

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// `ghlogin ssh` against a real sshd on 127.0.0.1 (issue 35 §3, §4; R116, R117): the agent runs
/// as root with the login in a private HOME; the remote side is a second user, who has neither
/// the store nor access to it, and gets only what crosses the forward.
@Suite(.serialized, .enabled(if: SSHServer.isAvailable, Comment(rawValue: SSHServer.unavailableReason ?? "")))
struct AgentSSHEndToEndTests {
  static let parent = "ghu_e2eSSHforwardParent0000000000000001"

  let fake: FakeGitHub
  let sandbox: Sandbox
  let git: GitSandbox
  let server: ChildProcess
  let host: String
  /// The ghlogin binary and the test CA where the remote user can read them (0755, root's).
  let shared: TemporaryDirectory
  let agentDirectory: TemporaryDirectory

  init() throws {
    fake = try FakeGitHub.start()
    sandbox = try Sandbox(fake: fake)
    try fake.register(["tokens": [["access_token": Self.parent, "login": "octocat", "kind": "app"]]])
    git = try GitSandbox()
    let server = try GitHTTPServer.acme(readme: "over ssh\n", in: git, fake: fake)
    self.server = server.process
    host = server.host
    try sandbox.writeConfig(["host": host])
    try sandbox.writeCredentials(
      host: host, [["login": "octocat", "token": Self.parent, "client_id": "Iv1.testclient"]])
    shared = try TemporaryDirectory(prefix: "ghlogin-ssh-shared")
    chmod(shared.path, 0o755)
    try FileManager.default.copyItem(atPath: try HarnessPaths.ghloginBinary(), toPath: shared.at("ghlogin"))
    chmod(shared.at("ghlogin"), 0o755)
    try FileManager.default.copyItem(atPath: server.certificates + "/ca.pem", toPath: shared.at("ca.pem"))
    chmod(shared.at("ca.pem"), 0o644)
    agentDirectory = try TemporaryDirectory(prefix: "ghlogin-ssh-agent")
  }

  /// The local environment: the login's HOME, the agent's directory and socket.
  var environment: [String: String] {
    sandbox.environment([
      "GHLOGIN_AGENT_DIR": agentDirectory.path, "GHLOGIN_AGENT_SOCK": agentDirectory.at("agent.sock"),
    ])
  }

  func startAgent() throws -> ChildProcess {
    var env = environment
    env["GHLOGIN_AGENT_SOCK"] = nil
    let agent = try startGHLogin(["agent", "--foreground"], env: env)
    _ = try agent.waitForLine(.stdout, timeout: 20) { $0.hasPrefix("ready ") }
    return agent
  }

  func stop(_ agent: ChildProcess) throws -> String {
    agent.send(signal: SIGTERM)
    return try agent.finish(timeout: 20).stderr
  }

  /// The scoped tokens the fake minted.
  func scopedTokens() throws -> [String] {
    (try fake.state()["tokens"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "scoped" }
      .compactMap { $0["access_token"] as? String }
  }

  /// Every regular file under `directory` the remote user owns (or all of them, `owned: false`).
  func files(under directory: String, ownedByRemote owned: Bool) -> [String] {
    guard let ids = SSHServer.remoteIDs else { return [] }
    var found: [String] = []
    let enumerator = FileManager.default.enumerator(atPath: directory)
    while let relative = enumerator?.nextObject() as? String {
      let path = directory + "/" + relative
      var info = stat()
      guard lstat(path, &info) == 0 else { continue }
      if owned && info.st_uid != ids.uid {
        // Another user's directory: not the remote side's, and not searched.
        if (info.st_mode & S_IFMT) == S_IFDIR { enumerator?.skipDescendants() }
        continue
      }
      if (info.st_mode & S_IFMT) == S_IFREG { found.append(path) }
    }
    return found
  }

  /// The remote script: real git clones and pushes acme/api through `ghlogin git-credential`
  /// (the forward), and is refused on acme/secret.
  func remoteGit() -> String {
    let helper = "!\(shared.at("ghlogin")) git-credential"
    return """
      set -e
      export GIT_SSL_CAINFO='\(shared.at("ca.pem"))' GIT_CONFIG_NOSYSTEM=1 GIT_TERMINAL_PROMPT=0
      g() { git -c credential.helper= -c "credential.helper=\(helper)" -c credential.useHttpPath=true "$@"; }
      cd "$HOME"
      rm -rf work
      g clone -q https://\(host)/acme/api.git work
      cd work
      echo pushed > README
      git -c user.name=Test -c user.email=test@example.com commit -q -am 'over ssh'
      g push -q origin main
      cd "$HOME"
      if g ls-remote https://\(host)/acme/secret.git >/dev/null 2>&1; then echo 'secret reached'; exit 9; fi
      rm -rf work
      echo "sock=$GHLOGIN_AGENT_SOCK"
      '\(shared.at("ghlogin"))' whoami
      """
  }

  /// T101, T102: over ssh, git clones and pushes the forward's repository and is refused another; no
  /// token bytes and no store reach the remote side; after ssh exits the forward's tokens are
  /// revoked and the remote socket is gone.
  @Test func gitOverSSHGetsOnlyTheForwardsTokenAndItEndsWithTheSession() throws {
    let sshd = try SSHServer(shell: "/bin/bash")
    let agent = try startAgent()
    let result = try runGHLogin(
      ["ssh", "--repo", "acme/api", "--permission", "contents:write", "--"] + sshd.clientOptions + [
        sshd.destination, "--", "sh", "-c", remoteGit(),
      ], env: environment, timeout: 120)
    #expect(result.status == 0, "\(result.stderr)\n\(sshd.log)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let sock = try #require(lines.first { $0.hasPrefix("sock=") }).dropFirst("sock=".count)
    #expect(sock.hasPrefix("/tmp/ghlogin-") && sock.hasSuffix(".sock"))
    #expect(lines.contains { $0.hasPrefix("octocat on \(host)") }, "\(result.stdout)")
    // The remote socket is gone once the session ended.
    #expect(!FileManager.default.fileExists(atPath: String(sock)))

    // The push went through with a scoped token; the other repository was refused.
    let served = server.text(.stderr)
    #expect(served.contains("200 POST /acme/api.git/git-receive-pack auth=ok"), "\(served)")
    #expect(!served.contains("/acme/secret.git/info/refs?service=git-upload-pack auth=ok"))
    let minted = try scopedTokens()
    #expect(!minted.isEmpty)
    for token in minted {
      // Revoked when the session ended: the fake saw it, and the API answers 401.
      #expect(try fake.tokenRecord(token)?["revoked"] as? Bool == true)
      let answer = try FakeGitHubHarnessTests.get(fake, host: "api.github.test", path: "/user", token: token)
      #expect(answer["status"] as? Int == 401)
      #expect(!result.stdout.contains(token) && !result.stderr.contains(token))
    }

    // Nothing of the login on the remote side: no token bytes, no store.
    let remoteFiles =
      files(under: sshd.remoteHome, ownedByRemote: false) + files(under: "/tmp", ownedByRemote: true)
    for path in remoteFiles {
      guard let data = FileManager.default.contents(atPath: path) else { continue }
      for token in minted + [Self.parent] {
        #expect(data.range(of: Data(token.utf8)) == nil, "\(path) holds a token")
      }
      #expect(!path.hasSuffix("credentials.json"), "\(path)")
    }
    #expect(!FileManager.default.fileExists(atPath: sshd.remoteHome + "/.config/ghlogin"))

    let log = try stop(agent)
    #expect(log.contains("forward "), "\(log)")
    #expect(!log.contains(Self.parent))
    for token in minted { #expect(!log.contains(token)) }
  }

  /// The forward's socket in `--remote-dir`, removed after the session; a stale one (left by a
  /// session that did not clean up) answers "not reachable" at once.
  @Test func theRemoteDirectoryHoldsTheSocketUntilTheSessionEnds() throws {
    let sshd = try SSHServer(shell: "/bin/sh")
    let agent = try startAgent()
    defer { _ = try? stop(agent) }
    let remoteDirectory = try TemporaryDirectory(prefix: "ghlogin-ssh-remote")
    if let ids = SSHServer.remoteIDs { chown(remoteDirectory.path, ids.uid, ids.gid) }
    let script = """
      echo "sock=$GHLOGIN_AGENT_SOCK"; stat -c '%a' "$GHLOGIN_AGENT_SOCK"; ln "$GHLOGIN_AGENT_SOCK" "$GHLOGIN_AGENT_SOCK.kept"
      """
    let result = try runGHLogin(
      ["ssh", "--repo", "acme/api", "--remote-dir", remoteDirectory.path, "--"] + sshd.clientOptions + [
        sshd.destination, "sh", "-c", script,
      ], env: environment, timeout: 120)
    #expect(result.status == 0, "\(result.stderr)\n\(sshd.log)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let sock = String(try #require(lines.first { $0.hasPrefix("sock=") }).dropFirst("sock=".count))
    #expect(sock.hasPrefix(remoteDirectory.path + "/ghlogin-"))
    #expect(lines.dropFirst().first == "600")
    #expect(!FileManager.default.fileExists(atPath: sock))
    // The hard link the session left: a stale socket, not reachable, at once.
    let started = Date()
    let stale = try ChildProcess(
      executable: "/usr/bin/setpriv",
      arguments: [
        "--reuid=\(SSHServer.remoteUser)", "--regid=\(SSHServer.remoteUser)", "--clear-groups", "--",
        shared.at("ghlogin"), "token",
      ],
      environment: ["GHLOGIN_AGENT_SOCK": sock + ".kept", "HOME": sshd.remoteHome, "PATH": "/usr/bin:/bin"],
      stdin: ""
    ).finish(timeout: 30)
    #expect(Date().timeIntervalSince(started) < 3)
    #expect(stale.status == 1)
    #expect(stale.stdout == "")
    #expect(stale.stderr.contains("the ghlogin agent is not reachable"), "\(stale.stderr)")
  }

  /// ssh's exit status is ghlogin's; a refused option exits 2 and starts nothing; with no agent
  /// ghlogin ssh says how to start one.
  @Test func statusRefusalsAndNoAgent() throws {
    let sshd = try SSHServer(shell: "/bin/sh")
    let noAgent = try runGHLogin(
      ["ssh", "--repo", "acme/api", "--"] + sshd.clientOptions + [sshd.destination, "true"], env: environment)
    #expect(noAgent.status == 1)
    #expect(noAgent.stdout == "")
    #expect(
      noAgent.stderr
        == "ghlogin: ssh forwards the ghlogin agent, and no agent answers at \(agentDirectory.at("agent.sock")): "
        + "start it with 'eval \"$(ghlogin agent start)\"'\n")

    let agent = try startAgent()
    var noSSH = environment
    noSSH["PATH"] = "/nonexistent"
    let missing = try runGHLogin(
      ["ssh", "--repo", "acme/api", "--"] + sshd.clientOptions + [sshd.destination, "true"], env: noSSH)
    #expect(missing.status == 1)
    #expect(missing.stderr == "ghlogin: ssh: 'ssh' was not found on PATH; no forward was made\n")
    let refused = try runGHLogin(
      ["ssh", "--repo", "acme/api", "--"] + sshd.clientOptions + [
        "-o", "ControlPath=/tmp/x", sshd.destination, "true",
      ],
      env: environment)
    #expect(refused.status == 2)
    #expect(refused.stdout == "")
    #expect(
      refused.stderr.hasPrefix(
        "ghlogin ssh: ssh option -o ControlPath is refused: ghlogin ssh sets it (no control socket)\n"))
    let forwardsAfterRefusal = try runGHLogin(["agent", "list"], env: environment)
    #expect(forwardsAfterRefusal.stdout == "no forwards\n", "\(forwardsAfterRefusal.stdout)")

    let exited = try runGHLogin(
      ["ssh", "--repo", "acme/api", "--"] + sshd.clientOptions + [sshd.destination, "exit", "7"], env: environment,
      timeout: 60)
    #expect(exited.status == 7, "\(exited.stderr)")
    #expect(try runGHLogin(["agent", "list"], env: environment).stdout == "no forwards\n", "the forward ended")

    // GHLOGIN_AGENT_SOCK pointing into a forward: a forward cannot make another forward, so
    // nothing but the agent's own socket is ever forwarded.
    let made = try runGHLogin(["agent", "forward", "--repo", "acme/api"], env: environment)
    #expect(made.status == 0, "\(made.stderr)")
    var insideForward = environment
    insideForward["GHLOGIN_AGENT_SOCK"] = made.stdout.trimmingCharacters(in: .newlines)
    let nested = try runGHLogin(
      ["ssh", "--repo", "acme/api", "--"] + sshd.clientOptions + [sshd.destination, "true"], env: insideForward)
    #expect(nested.status == 2)
    #expect(nested.stdout == "")
    #expect(nested.stderr.contains("a forward cannot make, end or list forwards"), "\(nested.stderr)")
    _ = try stop(agent)
  }

  /// SIGTERM to ghlogin ssh is passed on to ssh, and the forward ends with the session.
  @Test func aSignalEndsTheSessionAndItsForward() throws {
    let sshd = try SSHServer(shell: "/bin/sh")
    let agent = try startAgent()
    defer { _ = try? stop(agent) }
    let session = try startGHLogin(
      ["ssh", "--repo", "acme/api", "--"] + sshd.clientOptions + [
        sshd.destination, "sh", "-c", "echo started; sleep 30",
      ], env: environment)
    _ = try session.waitForLine(.stdout, timeout: 30) { $0 == "started" }
    let during = try runGHLogin(["agent", "list"], env: environment)
    #expect(during.stdout.contains("when the process \(session.pid) ends"), "\(during.stdout)")
    let started = Date()
    session.send(signal: SIGTERM)
    let ended = try session.finish(timeout: 30)
    #expect(Date().timeIntervalSince(started) < 10, "ssh ends at once, not after the remote sleep")
    #expect(ended.status != 0)
    #expect(try runGHLogin(["agent", "list"], env: environment).stdout == "no forwards\n", "the forward ended")
  }

  /// A remote socket sshd cannot create (no such directory): ssh stops there
  /// (ExitOnForwardFailure), the command never runs, ghlogin exits 255 and the forward ends.
  @Test func aForwardSSHDCannotMakeStopsTheSession() throws {
    let sshd = try SSHServer(shell: "/bin/sh")
    let agent = try startAgent()
    defer { _ = try? stop(agent) }
    let result = try runGHLogin(
      ["ssh", "--repo", "acme/api", "--remote-dir", "/nonexistent-ghlogin-dir", "--"] + sshd.clientOptions + [
        sshd.destination, "echo", "ran",
      ], env: environment, timeout: 60)
    #expect(result.status == 255, "\(result.stderr)")
    #expect(result.stdout == "")
    #expect(result.stderr.contains("remote port forwarding failed"), "\(result.stderr)")
    #expect(try runGHLogin(["agent", "list"], env: environment).stdout == "no forwards\n")
  }

  /// `kill -9` of ghlogin ssh: the agent, watching its pid, ends the forward by itself.
  @Test func theAgentEndsTheForwardWhenGhloginSSHIsKilled() throws {
    let sshd = try SSHServer(shell: "/bin/sh")
    let agent = try startAgent()
    defer { _ = try? stop(agent) }
    let session = try startGHLogin(
      ["ssh", "--repo", "acme/api", "--"] + sshd.clientOptions + [
        sshd.destination, "sh", "-c", "echo started; sleep 30",
      ], env: environment)
    // ssh outlives the killed ghlogin in its process group: ended with the group.
    defer { kill(-session.pid, SIGKILL) }
    _ = try session.waitForLine(.stdout, timeout: 30) { $0 == "started" }
    #expect(try runGHLogin(["agent", "list"], env: environment).stdout != "no forwards\n")
    session.send(signal: SIGKILL)
    let deadline = Date(timeIntervalSinceNow: 5)
    var listed = ""
    repeat {
      listed = try runGHLogin(["agent", "list"], env: environment).stdout
      if listed == "no forwards\n" { break }
      usleep(100_000)
    } while Date() < deadline
    #expect(listed == "no forwards\n", "the agent ends the forward of a killed ghlogin ssh")
  }

  /// No command, on a terminal: ghlogin adds -t and the remote side runs the login shell (not
  /// exec'd) with the variable set; its exit status is ghlogin's, and the socket is removed after.
  @Test func withoutACommandATerminalGetsTheLoginShell() throws {
    let sshd = try SSHServer(shell: "/bin/dash")
    let agent = try startAgent()
    defer { _ = try? stop(agent) }
    let (status, output) = try runOnPseudoTerminal(
      [try HarnessPaths.ghloginBinary(), "ssh", "--repo", "acme/api", "--"] + sshd.clientOptions + [sshd.destination],
      env: environment.merging(["TERM": "dumb"]) { $1 },
      steps: [("$ ", "echo \"SOCK=[$GHLOGIN_AGENT_SOCK]\"; test -S \"$GHLOGIN_AGENT_SOCK\" && exit 3\n")])
    #expect(status == 3, "\(output)")
    let shown = try #require(output.range(of: "SOCK=[/tmp/ghlogin-"), "\(output)")
    let sock = String(output[output.index(shown.lowerBound, offsetBy: 6)...].prefix { $0 != "]" })
    #expect(sock.hasSuffix(".sock"))
    #expect(!FileManager.default.fileExists(atPath: sock))
  }

  /// Every login shell sshd may run the script with: the arguments arrive byte for byte.
  @Test(arguments: ["/bin/bash", "/bin/dash", "/usr/bin/zsh", "/usr/bin/fish"])
  func argumentsArriveExactlyWhateverTheLoginShell(shell: String) throws {
    guard FileManager.default.isExecutableFile(atPath: shell) else {
      #expect((ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty, "\(shell) is missing (.ci/run installs it)")
      return
    }
    let sshd = try SSHServer(shell: shell)
    let agent = try startAgent()
    defer { _ = try? stop(agent) }
    let hostile = [
      "a b", "it's", "\"double\"", "$HOME", "`id`", "$(id)", "line1\nline2", "back\\slash", "\\'", "*", "-n", "--",
      "", "trailing\n", "%s\\0101", "ünï ✓", "\t", "!", "~", "{a,b}", ";", "&", "|",
    ]
    let printer = #"printf '%s|' "$GHLOGIN_AGENT_SOCK"; for a; do printf '%s\0' "$a"; done"#
    let result = try runGHLogin(
      ["ssh", "--repo", "acme/api", "--"] + sshd.clientOptions + [sshd.destination, "/bin/sh", "-c", printer, "sh"]
        + hostile, env: environment, timeout: 60)
    #expect(result.status == 0, "\(shell): \(result.stderr)")
    let parts = result.stdout.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
    #expect(parts.count == 2)
    #expect(parts.first?.hasPrefix("/tmp/ghlogin-") == true, "\(shell)")
    #expect(String(parts.last ?? "") == hostile.map { $0 + "\0" }.joined(), "\(shell)")
  }
}
