import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Forwards of the agent (issue 35 §2, §3; R116, R117; T101): the built binary as the agent,
/// with a login the fake can narrow, and clients whose `GHLOGIN_AGENT_SOCK` is a forward's
/// socket and whose HOME is empty.
@Suite struct AgentForwardEndToEndTests {
  static let parent = "ghu_e2eFWDparent000000000000000000000001"

  /// The fake, the sandbox with the login (narrowable unless `narrowable` is false), and the
  /// agent's directory `$HOME/run` (0700).
  func loggedIn(narrowable: Bool = true) throws -> (FakeGitHub, Sandbox) {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    var token: [String: Any] = ["access_token": Self.parent, "login": "octocat"]
    var account: [String: Any] = ["login": "octocat", "token": Self.parent]
    if narrowable {
      token["kind"] = "app"
      token["client_id"] = "Iv1.testclient"
      account["client_id"] = "Iv1.testclient"
    }
    try fake.register(["tokens": [token]])
    try sandbox.writeCredentials([account])
    for directory in ["run", "empty"] {
      try FileManager.default.createDirectory(
        atPath: sandbox.home + "/" + directory, withIntermediateDirectories: false,
        attributes: [.posixPermissions: 0o700])
    }
    return (fake, sandbox)
  }

  func agentEnvironment(_ sandbox: Sandbox, _ extra: [String: String] = [:]) -> [String: String] {
    sandbox.environment(["GHLOGIN_AGENT_DIR": sandbox.home + "/run"].merging(extra) { $1 })
  }

  /// A client with an empty HOME and `socket` as its agent.
  func clientEnvironment(_ sandbox: Sandbox, socket: String) -> [String: String] {
    [
      "HOME": sandbox.home + "/empty", "XDG_CONFIG_HOME": sandbox.home + "/empty/.config",
      "GHLOGIN_AGENT_SOCK": socket, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
    ]
  }

  func startAgent(_ sandbox: Sandbox, _ extra: [String: String] = [:]) throws -> ChildProcess {
    let agent = try startGHLogin(["agent", "--foreground"], env: agentEnvironment(sandbox, extra))
    _ = try agent.waitForLine(.stdout, timeout: 20) { $0.hasPrefix("ready ") }
    return agent
  }

  /// `agent forward ARGS`: its path (exit 0 expected).
  func forward(_ sandbox: Sandbox, _ arguments: [String]) throws -> String {
    let made = try runGHLogin(["agent", "forward"] + arguments, env: agentEnvironment(sandbox))
    #expect(made.status == 0, "\(made.stderr)")
    return made.stdout.trimmingCharacters(in: .newlines)
  }

  func scopedTokens(_ fake: FakeGitHub) throws -> [[String: Any]] {
    (try fake.state()["tokens"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "scoped" }
  }

  func forwardRecords(_ sandbox: Sandbox) -> [[String: Any]] {
    (sandbox.storedAccounts().first?["narrowed"] as? [[String: Any]] ?? []).filter {
      $0["consumer"] as? String == "forward"
    }
  }

  /// T101: through a forward for acme/api, `token` gets a token narrowed to the whole policy;
  /// another repository (`--repo`, git's path), host or account is refused with a clear
  /// message and nothing is minted for it; `whoami` shows the forward and its policy.
  @Test func aForwardHandsOutOnlyItsPolicy() throws {
    let (fake, sandbox) = try loggedIn()
    let agent = try startAgent(sandbox)
    let path = try forward(sandbox, ["--repo", "acme/api,acme/web", "--permission", "contents:read"])
    #expect(path.hasPrefix(sandbox.home + "/run/forward-") && path.hasSuffix(".sock"))
    let client = clientEnvironment(sandbox, socket: path)
    let token = try runGHLogin(["token"], env: client)
    #expect(token.status == 0, "\(token.stderr)")
    let minted = try #require(try scopedTokens(fake).first)
    #expect(token.stdout == "\(minted["access_token"] as? String ?? "-")\n")
    #expect((minted["repositories"] as? [String])?.sorted() == ["acme/api", "acme/web"], "the whole policy")
    let narrowed = try runGHLogin(["token", "--repo", "acme/api"], env: client)
    #expect(narrowed.stdout == token.stdout, "inside the policy: the forward's one token")
    let git = try runGHLogin(
      ["git-credential", "get"], env: client, stdin: "protocol=https\nhost=github.test\npath=acme/api.git\n\n")
    #expect(git.stdout.hasPrefix("username=octocat\npassword=\(minted["access_token"] as? String ?? "-")\n"))

    let other = try runGHLogin(["token", "--repo", "acme/secret"], env: client)
    #expect(other.status == 2)
    #expect(other.stdout == "")
    #expect(
      other.stderr.contains("a repository asked for is outside its policy; its repositories are acme/api,acme/web"))
    let otherPath = try runGHLogin(
      ["git-credential", "get"], env: client, stdin: "protocol=https\nhost=github.test\npath=acme/secret.git\n\n")
    #expect(otherPath.status == 0)
    #expect(otherPath.stdout == "")
    #expect(otherPath.stderr.contains("the repository path asked for is outside its policy"))
    let otherHost = try runGHLogin(
      ["git-credential", "get"], env: client, stdin: "protocol=https\nhost=example.com\npath=acme/api.git\n\n")
    #expect(otherHost.stdout == "")
    #expect(otherHost.stderr.contains("another host was asked for; it answers for octocat on github.test only"))
    let otherUser = try runGHLogin(["token", "--user", "hubot"], env: client)
    #expect(otherUser.status == 2)
    #expect(otherUser.stderr.contains("another account was asked for"))
    let write = try runGHLogin(["token", "--repo", "acme/api", "--permission", "contents:write"], env: client)
    #expect(write.status == 2)
    #expect(write.stderr.contains("a permission asked for is outside its policy"))
    #expect(try fake.counter("scoped_tokens") == 1, "nothing minted for a refused request")

    let whoami = try runGHLogin(["whoami"], env: client)
    #expect(whoami.status == 0)
    #expect(whoami.stdout.hasPrefix("octocat on github.test, through the forward "))
    #expect(whoami.stdout.contains("  policy: repositories acme/api,acme/web; permissions contents:read\n"))
    let refusedMake = try runGHLogin(["agent", "forward", "--repo", "acme/api"], env: client)
    #expect(refusedMake.status == 2, "a forward makes no forwards")
    #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.home + "/empty") == [])
    agent.send(signal: SIGTERM)
    let log = try agent.finish(timeout: 20).stderr
    #expect(log.contains("refused: the repository path asked for is outside its policy"))
    #expect(!log.contains(minted["access_token"] as? String ?? "-"))
  }

  /// A login that cannot be narrowed: refused for a forward without --unscoped (exit 2, the
  /// narrowing message); --unscoped needs --ttl; with both, the login's own token is handed out,
  /// every client's stderr says so, and ending the forward does not revoke it.
  @Test func anUnnarrowableLoginNeedsUnscoped() throws {
    let (fake, sandbox) = try loggedIn(narrowable: false)
    let agent = try startAgent(sandbox)
    let refused = try runGHLogin(["agent", "forward", "--repo", "acme/api"], env: agentEnvironment(sandbox))
    #expect(refused.status == 2)
    #expect(refused.stdout == "")
    #expect(refused.stderr.contains("cannot be narrowed"))
    #expect(refused.stderr.contains("only when made with --unscoped (and --ttl)"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.home + "/run") == ["agent.sock"])
    let noTTL = try runGHLogin(
      ["agent", "forward", "--repo", "acme/api", "--unscoped"], env: agentEnvironment(sandbox))
    #expect(noTTL.status == 2)
    #expect(noTTL.stderr.contains("--unscoped hands out the login's own token: give the forward a --ttl"))
    let made = try runGHLogin(
      ["agent", "forward", "--repo", "acme/api", "--unscoped", "--ttl", "10m", "--name", "loose"],
      env: agentEnvironment(sandbox))
    #expect(made.status == 0, "\(made.stderr)")
    #expect(made.stdout == sandbox.home + "/run/loose.sock\n")
    #expect(made.stderr.contains("this forward is unscoped: it hands out the login's own token"))
    let token = try runGHLogin(["token"], env: clientEnvironment(sandbox, socket: sandbox.home + "/run/loose.sock"))
    #expect(token.status == 0)
    #expect(token.stdout == Self.parent + "\n")
    #expect(token.stderr.contains("warning: this forward is unscoped"))
    let list = try runGHLogin(["agent", "list"], env: agentEnvironment(sandbox))
    #expect(list.stdout.contains("UNSCOPED: hands out the login's own token"))
    let again = try runGHLogin(
      ["agent", "forward", "--repo", "acme/api", "--unscoped", "--ttl", "10m", "--name", "loose"],
      env: agentEnvironment(sandbox))
    #expect(again.status == 2)
    #expect(again.stderr.contains("the forward name loose is already in use"))
    let revoke = try runGHLogin(["agent", "revoke", "loose"], env: agentEnvironment(sandbox))
    #expect(revoke.status == 0, "\(revoke.stderr)")
    #expect(!FileManager.default.fileExists(atPath: sandbox.home + "/run/loose.sock"))
    #expect(try fake.tokenRecord(Self.parent)?["revoked"] as? Bool == false, "the login's own token is kept")
    agent.send(signal: SIGTERM)
    _ = try agent.finish(timeout: 20)
  }

  /// Bad forward options are refused before anything is made (exit 2, nothing listens).
  @Test(arguments: [
    (["--repo", "acme/api", "--ttl", "30s"], "--ttl takes a duration from 1m to 24h"),
    (["--repo", "acme/api", "--ttl", "25h"], "--ttl takes a duration from 1m to 24h"),
    (["--repo", "acme/api", "--ttl", "1.5h"], "--ttl takes a duration from 1m to 24h"),
    (["--repo", "acme/api", "--name", "../x"], "a forward's name is 1 to 64 letters"),
    (["--repo", "acme/api", "--max-tokens", "0"], "--max-tokens must be a whole number from 1"),
    (["--repo", "acme/api,other/web"], "--repo: "),
    (["--repo", "acme/api", "--permission", "contents:admin"], "--permission: "),
    (["--permission", "contents:read"], "a forward needs --repo OWNER/NAME[,...]"),
  ])
  func badForwardOptionsAreRefused(arguments: [String], message: String) throws {
    let (_, sandbox) = try loggedIn()
    let made = try runGHLogin(["agent", "forward"] + arguments, env: agentEnvironment(sandbox))
    #expect(made.status == 2)
    #expect(made.stdout == "")
    #expect(made.stderr.contains(message), "\(made.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.home + "/run") == [])
  }

  /// `--confirm`: no askpass program denies; one that exits 0 allows (asked with
  /// SSH_ASKPASS_PROMPT=confirm and a one-line question); one that exits 1 denies.
  @Test(arguments: [(nil, false), (0, true), (1, false)] as [(Int?, Bool)])
  func confirmAsksTheAskpassProgram(exit: Int?, allowed: Bool) throws {
    let (fake, sandbox) = try loggedIn()
    var extra: [String: String] = [:]
    let asked = sandbox.home + "/asked"
    if let exit {
      let script = sandbox.binDirectory + "/askpass"
      try "#!/bin/sh\nprintf '%s|%s\\n' \"$SSH_ASKPASS_PROMPT\" \"$1\" >> '\(asked)'\nexit \(exit)\n".write(
        toFile: script, atomically: true, encoding: .utf8)
      chmod(script, 0o755)
      extra["GHLOGIN_ASKPASS"] = script
    }
    let agent = try startAgent(sandbox, extra)
    let path = try forward(sandbox, ["--repo", "acme/api", "--confirm"])
    let token = try runGHLogin(["token"], env: clientEnvironment(sandbox, socket: path))
    if allowed {
      #expect(token.status == 0, "\(token.stderr)")
      #expect(try fake.counter("scoped_tokens") == 1)
      let again = try runGHLogin(["token"], env: clientEnvironment(sandbox, socket: path))
      #expect(again.stdout == token.stdout, "a reused token is not asked for again")
    } else {
      #expect(token.status == 1)
      #expect(token.stdout == "")
      #expect(token.stderr.contains(exit == nil ? "no GHLOGIN_ASKPASS or SSH_ASKPASS program" : "said no (exit 1)"))
      #expect(try fake.counter("scoped_tokens") == 0)
    }
    if exit != nil {
      let lines = try String(contentsOfFile: asked, encoding: .utf8).split(separator: "\n")
      #expect(lines.count == 1)
      #expect(lines.first?.hasPrefix("confirm|ghlogin agent: allow a new token for the forward ") == true)
      #expect(lines.first?.contains("repositories acme/api, permissions the login's own, asked by pid:") == true)
    }
    agent.send(signal: SIGTERM)
    _ = try agent.finish(timeout: 20)
  }

  /// Two forwards with different repositories used at the same time each hand out only their
  /// own token; 200 concurrent requests on one forward are all answered by one mint.
  @Test func forwardsInParallelAndTwoHundredRequestsOneMint() throws {
    let (fake, sandbox) = try loggedIn()
    let agent = try startAgent(sandbox)
    let api = try forward(sandbox, ["--repo", "acme/api"])
    let web = try forward(sandbox, ["--repo", "acme/web"])
    let script = """
      import socket, sys, threading
      path, count = sys.argv[1], int(sys.argv[2])
      answers = [None] * count
      def ask(i):
          s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
          s.settimeout(30)
          s.connect(path)
          s.sendall(b"ghlogin-agent=1\\ncommand=get\\n\\n")
          data = b""
          while True:
              chunk = s.recv(65536)
              if not chunk:
                  break
              data += chunk
          answers[i] = data.decode()
      threads = [threading.Thread(target=ask, args=(i,)) for i in range(count)]
      for t in threads: t.start()
      for t in threads: t.join()
      secrets = set()
      for a in answers:
          fields = dict(l.split("=", 1) for l in (a or "").splitlines()[1:] if "=" in l)
          secrets.add(fields.get("secret", "MISSING:" + (a or "none")))
      print("\\n".join(sorted(secrets)))
      """
    // Both clients run at once: two children, then both are waited for.
    let children = try [(api, "200"), (web, "20")].map { path, count in
      (
        path,
        try ChildProcess(
          executable: HarnessPaths.python3, arguments: ["-c", script, path, count], environment: nil, stdin: nil)
      )
    }
    var results: [String: String] = [:]
    for (path, child) in children { results[path] = try child.finish(timeout: 60).stdout }
    let tokens = try scopedTokens(fake)
    #expect(tokens.count == 2, "one mint per forward: \(results)")
    for (path, repository) in [(api, "acme/api"), (web, "acme/web")] {
      let token = tokens.first { ($0["repositories"] as? [String]) == [repository] }?["access_token"] as? String
      #expect(results[path] == "\(token ?? "-")\n", "\(repository): \(results[path] ?? "")")
    }
    let list = try runGHLogin(["agent", "list"], env: agentEnvironment(sandbox))
    #expect(list.stdout.components(separatedBy: "tokens minted: 1").count == 3, "\(list.stdout)")
    agent.send(signal: SIGTERM)
    let log = try agent.finish(timeout: 30).stderr
    #expect(log.contains("ended (the agent stops): socket removed, 1 token(s) revoked"))
    for token in tokens {
      #expect(try fake.tokenRecord(token["access_token"] as? String ?? "")?["revoked"] as? Bool == true)
    }
    #expect(forwardRecords(sandbox).isEmpty)
  }

  /// `agent revoke` and the TTL end a forward (R117): its socket is removed, its token revoked at
  /// GitHub and its record dropped; a client at the old socket gets "not reachable" at once.
  @Test func revokeAndTTLEndAForward() throws {
    let (fake, sandbox) = try loggedIn()
    let agent = try startAgent(sandbox)
    let path = try forward(sandbox, ["--repo", "acme/api", "--name", "dev"])
    #expect(path == sandbox.home + "/run/dev.sock")
    let token = try runGHLogin(["token"], env: clientEnvironment(sandbox, socket: path)).stdout
      .trimmingCharacters(in: .newlines)
    #expect(!token.isEmpty)
    #expect(forwardRecords(sandbox).count == 1)
    let list = try runGHLogin(["agent", "list"], env: agentEnvironment(sandbox))
    #expect(list.stdout.contains("(dev) \(path): octocat on github.test; repositories acme/api"))
    #expect(list.stdout.contains("ends on 'ghlogin agent revoke dev' or 'ghlogin agent stop'"))
    let revoke = try runGHLogin(["agent", "revoke", "dev"], env: agentEnvironment(sandbox))
    #expect(revoke.status == 0, "\(revoke.stderr)")
    #expect(!FileManager.default.fileExists(atPath: path))
    #expect(try fake.tokenRecord(token)?["revoked"] as? Bool == true)
    #expect(forwardRecords(sandbox).isEmpty)
    let stale = try runGHLogin(["token"], env: clientEnvironment(sandbox, socket: path))
    #expect(stale.status == 1)
    #expect(stale.stderr.contains("the ghlogin agent is not reachable"))
    let unknown = try runGHLogin(["agent", "revoke", "dev"], env: agentEnvironment(sandbox))
    #expect(unknown.status == 2)
    #expect(unknown.stderr.contains("no forward dev"))

    let timed = try forward(sandbox, ["--repo", "acme/api", "--ttl", "1m"])
    let second = try runGHLogin(["token"], env: clientEnvironment(sandbox, socket: timed)).stdout
      .trimmingCharacters(in: .newlines)
    #expect(!second.isEmpty && second != token)
    let deadline = Date(timeIntervalSinceNow: 90)
    while FileManager.default.fileExists(atPath: timed) && Date() < deadline { usleep(200_000) }
    #expect(!FileManager.default.fileExists(atPath: timed), "the TTL ended the forward")
    _ = try agent.waitForLine(.stderr, timeout: 10) { $0.contains("ended (its time to live ended)") }
    #expect(try fake.tokenRecord(second)?["revoked"] as? Bool == true)
    #expect(forwardRecords(sandbox).isEmpty)
    agent.send(signal: SIGTERM)
    _ = try agent.finish(timeout: 20)
  }

  /// kill -9 of the agent: clients at the forward say "not reachable" at once; the minted token
  /// is in the credentials store only; the next `agent start` revokes it (the fake sees it).
  @Test func theNextAgentRevokesWhatAKilledOneMinted() throws {
    let (fake, sandbox) = try loggedIn()
    let first = try runGHLogin(["agent", "start"], env: agentEnvironment(sandbox))
    #expect(first.status == 0, "\(first.stderr)")
    let path = try forward(sandbox, ["--repo", "acme/api"])
    let token = try runGHLogin(["token"], env: clientEnvironment(sandbox, socket: path)).stdout
      .trimmingCharacters(in: .newlines)
    #expect(!token.isEmpty)
    let status = try runGHLogin(["agent", "status"], env: agentEnvironment(sandbox)).stdout
    let pid = try #require(
      Int32(status.split(separator: "(pid ").last?.split(separator: ")").first.map(String.init) ?? ""))
    kill(pid, SIGKILL)
    var waited = 0
    while kill(pid, 0) == 0 && waited < 100 {
      usleep(50_000)
      waited += 1
    }
    let start = Date()
    let stale = try runGHLogin(["token"], env: clientEnvironment(sandbox, socket: path))
    #expect(stale.status == 1)
    #expect(stale.stderr.contains("the ghlogin agent is not reachable"))
    #expect(Date().timeIntervalSince(start) < 3, "at once")
    let git = try runGHLogin(
      ["git-credential", "get"], env: clientEnvironment(sandbox, socket: path),
      stdin: "protocol=https\nhost=github.test\n\n")
    #expect(git.status == 0 && git.stdout == "")
    #expect(forwardRecords(sandbox).map { $0["token"] as? String } == [token], "recorded in the store")
    let holders = try FileManager.default.subpathsOfDirectory(atPath: sandbox.home).filter { file in
      (FileManager.default.contents(atPath: sandbox.home + "/" + file).map { String(decoding: $0, as: UTF8.self) }
        ?? "").contains(token)
    }
    #expect(holders == [".config/ghlogin/credentials.json"], "no token outside the credentials store")
    #expect(try fake.tokenRecord(token)?["revoked"] as? Bool == false)
    let next = try runGHLogin(["agent", "start"], env: agentEnvironment(sandbox))
    #expect(next.status == 0, "\(next.stderr)")
    #expect(try fake.tokenRecord(token)?["revoked"] as? Bool == true)
    #expect(forwardRecords(sandbox).isEmpty)
    let stop = try runGHLogin(["agent", "stop"], env: agentEnvironment(sandbox))
    #expect(stop.status == 0)
  }

  /// A forward made with `watch_pid` (as `ghlogin ssh` makes them) ends when that process ends.
  @Test func aWatchedProcessEndingEndsTheForward() throws {
    let (_, sandbox) = try loggedIn()
    let agent = try startAgent(sandbox)
    let sleeper = try ChildProcess(executable: "/bin/sleep", arguments: ["30"], environment: nil, stdin: nil)
    let script = """
      import socket, sys
      s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
      s.connect(sys.argv[1])
      s.sendall(("ghlogin-agent=1\\ncommand=forward\\nrepo=acme/api\\nwatch_pid=%s\\n\\n" % sys.argv[2]).encode())
      data = b""
      while True:
          chunk = s.recv(65536)
          if not chunk:
              break
          data += chunk
      print(data.decode())
      """
    let made = try ChildProcess(
      executable: HarnessPaths.python3, arguments: ["-c", script, sandbox.home + "/run/agent.sock", "\(sleeper.pid)"],
      environment: nil, stdin: nil
    ).finish(timeout: 20)
    let path = try #require(
      made.stdout.split(separator: "\n").first { $0.hasPrefix("path=") }.map { String($0.dropFirst(5)) })
    #expect(FileManager.default.fileExists(atPath: path))
    let list = try runGHLogin(["agent", "list"], env: agentEnvironment(sandbox))
    #expect(list.stdout.contains("when the process \(sleeper.pid) ends"))
    sleeper.send(signal: SIGKILL)
    _ = try sleeper.finish(timeout: 10)
    _ = try agent.waitForLine(.stderr, timeout: 10) { $0.contains("the process \(sleeper.pid) it watched ended") }
    #expect(!FileManager.default.fileExists(atPath: path))
    agent.send(signal: SIGTERM)
    _ = try agent.finish(timeout: 20)
  }

  /// git's `erase` through a forward checks the forward's token with GitHub (R102): kept while
  /// GitHub accepts it, dropped once it rejects it; the next `get` mints again, within
  /// `--max-tokens` (then refused); docker's `store`/`erase` change nothing.
  @Test func eraseDropsOnlyARejectedTokenAndTheBudgetHolds() throws {
    let (fake, sandbox) = try loggedIn()
    let agent = try startAgent(sandbox)
    let path = try forward(sandbox, ["--repo", "acme/api", "--max-tokens", "2"])
    let client = clientEnvironment(sandbox, socket: path)
    let first = try runGHLogin(["token"], env: client).stdout.trimmingCharacters(in: .newlines)
    let id = try #require(path.split(separator: "forward-").last?.dropLast(5))
    let erase = "protocol=https\nhost=github.test\nusername=octocat\npassword=\(first)\n\n"
    let kept = try runGHLogin(["git-credential", "erase"], env: client, stdin: erase)
    #expect(kept.status == 0)
    #expect(
      kept.stderr
        == "ghlogin: git reported the token of the forward \(id) as rejected, but github.test still accepts it; "
        + "kept it.\n")
    #expect(try runGHLogin(["token"], env: client).stdout == first + "\n")
    let docker = try runGHLogin(["docker-credential", "erase"], env: client, stdin: "ghcr.io\n")
    #expect(docker.status == 0)
    #expect(try runGHLogin(["token"], env: client).stdout == first + "\n")
    try fake.revoke(first)
    let dropped = try runGHLogin(["git-credential", "erase"], env: client, stdin: erase)
    #expect(
      dropped.stderr
        == "ghlogin: git reported the token of the forward \(id) as rejected, and github.test rejects it; "
        + "dropped it.\n")
    #expect(!dropped.stderr.contains(first))
    let second = try runGHLogin(["token"], env: client)
    #expect(second.status == 0)
    #expect(second.stdout != first + "\n")
    #expect(try fake.counter("scoped_tokens") == 2)
    #expect(forwardRecords(sandbox).count == 1, "the rejected token's record is dropped")
    try fake.revoke(second.stdout.trimmingCharacters(in: .newlines))
    _ = try runGHLogin(
      ["git-credential", "erase"], env: client, stdin: erase.replacingOccurrences(of: first, with: "x"))
    let spent = try runGHLogin(["token"], env: client)
    #expect(spent.status == 1)
    #expect(spent.stdout == "")
    #expect(spent.stderr.contains("its budget of 2 token(s) (--max-tokens) is spent"))
    #expect(try fake.counter("scoped_tokens") == 2)
    agent.send(signal: SIGTERM)
    _ = try agent.finish(timeout: 20)
  }
}
