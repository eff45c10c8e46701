import Foundation
import GHLoginTestSupport
import Testing

/// The agent (issue 35 §1, doc/agent.md): the built binary as `ghlogin agent --foreground` with a
/// stored login, and its clients with `GHLOGIN_AGENT_SOCK` set and HOME an empty directory
/// (T100, T103; R115, R118).
@Suite(.serialized) struct AgentEndToEndTests {
  static let token = "gho_E2Eagent000000000000000000000000000001"
  static let notFound = "credentials not found in native keychain\n"

  let root: TemporaryDirectory

  init() throws {
    root = try TemporaryDirectory(prefix: "ghlogin-agent")
    for directory in ["home", "home/.config", "home/.config/ghlogin", "empty", "run"] {
      try FileManager.default.createDirectory(
        atPath: root.at(directory), withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }
    try CredentialsFile.write(
      ["github.com": ("octocat", 1, Self.token)], to: root.at("home/.config/ghlogin/credentials.json"),
      scopes: ["repo", "read:packages"])
  }

  var socket: String { root.at("run/agent.sock") }

  /// The agent's environment: the HOME with the login, the agent's directory.
  var agentEnvironment: [String: String] {
    [
      "HOME": root.at("home"), "XDG_CONFIG_HOME": root.at("home/.config"), "GHLOGIN_AGENT_DIR": root.at("run"),
      "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
    ]
  }

  /// A client's environment: an empty HOME, the agent's socket.
  var clientEnvironment: [String: String] {
    [
      "HOME": root.at("empty"), "XDG_CONFIG_HOME": root.at("empty/.config"), "GHLOGIN_AGENT_SOCK": socket,
      "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
    ]
  }

  /// `ghlogin agent --foreground`, once it printed its ready line.
  func startAgent() throws -> ChildProcess {
    let agent = try startGHLogin(["agent", "--foreground"], env: agentEnvironment)
    _ = try agent.waitForLine(.stdout, timeout: 20) { $0.hasPrefix("ready ") }
    return agent
  }

  func stop(_ agent: ChildProcess) throws -> String {
    agent.send(signal: SIGTERM)
    return try agent.finish(timeout: 10).stderr
  }

  /// Every path under `directory`.
  func contents(of directory: String) -> [String] {
    (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? []).sorted()
  }

  /// A raw client in Python: sends `payload` (from a thread), reads the answer until EOF, prints it.
  func rawClient(_ payload: String) throws -> (answer: String, seconds: Double) {
    let script = """
      import socket, sys, threading, time
      s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
      s.connect(sys.argv[1])
      payload = eval(sys.argv[2])
      def send():
          try:
              s.sendall(payload)
          except OSError:
              pass
      threading.Thread(target=send, daemon=True).start()
      start = time.monotonic()
      data = b""
      s.settimeout(20)
      try:
          while True:
              chunk = s.recv(65536)
              if not chunk:
                  break
              data += chunk
      except OSError:
          pass
      sys.stdout.write("%.3f\\n" % (time.monotonic() - start))
      sys.stdout.write(data.decode("utf-8", "replace"))
      """
    let run = try ChildProcess(
      executable: HarnessPaths.python3, arguments: ["-c", script, socket, payload], environment: nil, stdin: nil
    ).finish(timeout: 30)
    let lines = run.stdout.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    return (lines.count > 1 ? String(lines[1]) : "", Double(lines.first ?? "") ?? -1)
  }

  /// T103: token, git's and docker's helpers answer through the agent; nothing lands in HOME.
  @Test func clientsAnswerThroughTheAgentAndWriteNothingInHome() throws {
    let agent = try startAgent()
    let token = try runGHLogin(["token"], env: clientEnvironment)
    #expect(token.status == 0)
    #expect(token.stdout == Self.token + "\n")
    let git = try runGHLogin(
      ["git-credential", "get"], env: clientEnvironment, stdin: "protocol=https\nhost=github.com\n\n")
    #expect(git.status == 0)
    #expect(git.stdout == "username=octocat\npassword=\(Self.token)\n")
    let docker = try runGHLogin(["docker-credential", "get"], env: clientEnvironment, stdin: "ghcr.io\n")
    #expect(docker.status == 0)
    #expect(docker.stdout == #"{"ServerURL":"ghcr.io","Username":"octocat","Secret":"\#(Self.token)"}"# + "\n")
    let other = try runGHLogin(
      ["git-credential", "get"], env: clientEnvironment, stdin: "protocol=https\nhost=example.com\n\n")
    #expect(other.status == 0)
    #expect(other.stdout == "")
    let env = try runGHLogin(["env"], env: clientEnvironment)
    #expect(env.status == 0)
    #expect(env.stdout == "export GH_TOKEN='\(Self.token)'\nexport GITHUB_TOKEN='\(Self.token)'\n")
    let goauth = try runGHLogin(["goauth", "https://github.com/acme/api"], env: clientEnvironment)
    #expect(goauth.status == 0)
    #expect(goauth.stdout.contains("Authorization: Basic "))
    let whoami = try runGHLogin(["whoami"], env: clientEnvironment)
    #expect(whoami.status == 0)
    #expect(whoami.stdout == "octocat on github.com, through the ghlogin agent at \(socket)\n")
    let elsewhere = try runGHLogin(["token", "--host", "ghe.example.test"], env: clientEnvironment)
    #expect(elsewhere.status == 4)
    #expect(elsewhere.stdout == "")
    #expect(elsewhere.stderr.contains("not logged in to ghe.example.test"))
    var otherHost = clientEnvironment
    otherHost["GH_HOST"] = "ghe.example.test"
    #expect(try runGHLogin(["token"], env: otherHost).status == 4, "the client's GH_HOST is sent")
    #expect(contents(of: root.at("empty")) == [])
    let log = try stop(agent)
    #expect(!log.contains(Self.token))
    #expect(log.contains("get for=token host=github.com account=octocat narrowing=none token="))
    #expect(log.contains("get for=git host=github.com account=octocat"))
    #expect(log.contains("get for=docker host=github.com account=octocat"))
    #expect(!FileManager.default.fileExists(atPath: socket), "the agent removes its socket")
  }

  @Test func startReusesTheAgentAndStopEndsIt() throws {
    var environment = agentEnvironment
    environment["GHLOGIN_AGENT_SOCK"] = nil
    let first = try runGHLogin(["agent", "start"], env: environment)
    #expect(first.status == 0)
    #expect(first.stdout == "export GHLOGIN_AGENT_SOCK='\(socket)'\n")
    let status = try runGHLogin(["agent", "status"], env: environment)
    #expect(status.status == 0)
    #expect(status.stdout.hasPrefix("the ghlogin agent answers at \(socket) (pid "))
    let again = try runGHLogin(["agent", "start", "--shell", "fish"], env: environment)
    #expect(again.stdout == "set -gx GHLOGIN_AGENT_SOCK '\(socket)'\n")
    #expect(try runGHLogin(["agent", "status"], env: environment).stdout == status.stdout, "the same agent")
    #expect(try runGHLogin(["agent", "list"], env: environment).stdout == "no forwards\n")
    let stopped = try runGHLogin(["agent", "stop"], env: environment)
    #expect(stopped.status == 0)
    let after = try runGHLogin(["agent", "status"], env: environment)
    #expect(after.status == 1)
    #expect(after.stderr == "ghlogin: no agent answers at \(socket)\n")
  }

  /// R118: a 1 MiB request and a request that never ends are refused within the timeout.
  @Test func oversizeAndUnfinishedRequestsAreRefusedInTime() throws {
    let agent = try startAgent()
    defer { _ = try? stop(agent) }
    let big = try rawClient("b'ghlogin-agent=1\\ncommand=get\\nhost=' + b'a' * (1 << 20) + b'\\n\\n'")
    #expect(big.answer.contains("status=error\n"))
    #expect(
      big.answer.contains(
        "message=the agent's protocol: refusing the message: the message is larger than 65536 bytes\n"))
    #expect(big.seconds >= 0 && big.seconds < 5)
    let unfinished = try rawClient("b'ghlogin-agent=1\\ncommand=get\\n'")
    #expect(unfinished.answer.contains("message=the request did not arrive within 5 seconds\n"))
    #expect(unfinished.seconds >= 4.5 && unfinished.seconds < 8)
    let wrong = try rawClient("b'ghlogin-agent=2\\ncommand=get\\nuser=SECRETVALUE\\n\\n'")
    #expect(wrong.answer.contains("the protocol version is not 1"))
    #expect(!wrong.answer.contains("SECRETVALUE"))
    #expect(!wrong.answer.contains("secret="))
    // The agent still answers after all that.
    #expect(try runGHLogin(["token"], env: clientEnvironment).stdout == Self.token + "\n")
  }

  /// A stale socket (the agent killed): "not reachable" at once, exit 1; the helpers' "not found".
  @Test func aStaleSocketIsNotReachableAtOnce() throws {
    let agent = try startAgent()
    agent.send(signal: SIGKILL)
    _ = try? agent.finish(timeout: 10)
    #expect(FileManager.default.fileExists(atPath: socket), "a killed agent leaves its socket")
    let started = Date()
    let token = try runGHLogin(["token"], env: clientEnvironment)
    #expect(Date().timeIntervalSince(started) < 2)
    #expect(token.status == 1)
    #expect(token.stdout == "")
    #expect(token.stderr.hasPrefix("ghlogin: the ghlogin agent is not reachable at \(socket) (nothing answers there)"))
    let git = try runGHLogin(
      ["git-credential", "get"], env: clientEnvironment, stdin: "protocol=https\nhost=github.com\n\n")
    #expect(git.status == 0)
    #expect(git.stdout == "")
    #expect(git.stderr.contains("the ghlogin agent is not reachable"))
    let docker = try runGHLogin(["docker-credential", "get"], env: clientEnvironment, stdin: "ghcr.io\n")
    #expect(docker.status == 1)
    #expect(docker.stdout == Self.notFound)
    let goauth = try runGHLogin(["goauth", "https://github.com/acme/api"], env: clientEnvironment)
    #expect(goauth.status == 0)
    #expect(goauth.stdout == "")
    #expect(Date().timeIntervalSince(started) < 8)
    #expect(contents(of: root.at("empty")) == [])
    // The next start replaces the stale socket with a new agent.
    let restarted = try runGHLogin(["agent", "start"], env: agentEnvironment)
    #expect(restarted.status == 0)
    #expect(try runGHLogin(["token"], env: clientEnvironment).stdout == Self.token + "\n")
    #expect(try runGHLogin(["agent", "stop"], env: agentEnvironment).status == 0)
  }

  /// `token --repo` through the agent: the agent mints the narrowed token from its login, through
  /// the narrowing path `token --repo` uses, against the fake GitHub; the parent never crosses.
  @Test func aNarrowedTokenThroughTheAgent() throws {
    let parent = "ghu_e2eAGENTparent00000000000000000000001"
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    _ = try sandbox.writeConfig()
    try fake.register([
      "tokens": [["access_token": parent, "login": "octocat", "kind": "app", "client_id": "Iv1.testclient"]]
    ])
    try sandbox.writeCredentials([["login": "octocat", "token": parent, "client_id": "Iv1.testclient"]])
    let agent = try startGHLogin(
      ["agent", "--foreground"], env: sandbox.environment(["GHLOGIN_AGENT_DIR": root.at("run")]))
    _ = try agent.waitForLine(.stdout, timeout: 20) { $0.hasPrefix("ready ") }
    let run = try runGHLogin(
      ["token", "--repo", "acme/api", "--permission", "contents:read"], env: clientEnvironment, timeout: 60)
    #expect(run.status == 0, "\(run.stderr)")
    let minted = (try fake.state()["tokens"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "scoped" }
    let narrowed = try #require(minted.first?["access_token"] as? String)
    #expect(run.stdout == narrowed + "\n")
    #expect(narrowed != parent)
    #expect(minted.first?["repositories"] as? [String] == ["acme/api"])
    #expect(contents(of: root.at("empty")) == [])
    let log = try stop(agent)
    #expect(log.contains("narrowing=acme/api contents:read token="))
    #expect(!log.contains(parent) && !log.contains(narrowed))
  }

  /// Commands that change the login refuse with the variable set, before touching anything.
  @Test(arguments: [
    ["auth"], ["auth", "--with-token"], ["logout"], ["refresh"], ["migrate", "--to", "file"], ["switch"],
    ["run", "--repo", "acme/api", "--", "true"], ["app", "token", "--app", "1", "--key", "/nonexistent"],
  ])
  func loginCommandsRefuse(arguments: [String]) throws {
    let run = try runGHLogin(arguments, env: clientEnvironment, stdin: Self.token + "\n")
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(run.stderr.contains("the login lives where the ghlogin agent runs"))
    #expect(contents(of: root.at("empty")) == [])
  }

  /// T100: another uid on the main socket gets no token (as `nobody`, the directory opened for
  /// this test only).
  @Test(.enabled(if: geteuid() == 0, "needs root to run a client as nobody"))
  func anotherUserIsRefused() throws {
    let agent = try startAgent()
    defer { _ = try? stop(agent) }
    chmod(root.path, 0o711)
    chmod(root.at("run"), 0o711)
    chmod(socket, 0o777)
    chmod(root.at("empty"), 0o777)
    let run = try ChildProcess(
      executable: "/usr/bin/setpriv",
      arguments: [
        "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", try HarnessPaths.ghloginBinary(), "token",
      ], environment: clientEnvironment, stdin: ""
    ).finish(timeout: 30)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(run.stderr == "ghlogin: the ghlogin agent: use a forward: ghlogin container-args\n")
    let log = try stop(agent)
    #expect(log.contains("refused: another user; no token"))
  }

  /// A peer in another mount namespace (a container with the main socket mounted by hand) gets no token.
  @Test(.enabled(if: geteuid() == 0, "needs root for unshare --mount"))
  func anotherMountNamespaceIsRefused() throws {
    let agent = try startAgent()
    defer { _ = try? stop(agent) }
    let run = try ChildProcess(
      executable: "/usr/bin/unshare", arguments: ["--mount", "--", try HarnessPaths.ghloginBinary(), "token"],
      environment: clientEnvironment, stdin: ""
    ).finish(timeout: 30)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(run.stderr == "ghlogin: the ghlogin agent: use a forward: ghlogin container-args\n")
    let log = try stop(agent)
    #expect(log.contains("refused: another mount or user namespace; no token"))
  }
}
