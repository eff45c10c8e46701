import Foundation
import GHLoginTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Peers that connect and send nothing do not stall the agent (issue 35 §1, R118): it reads
/// every connection's request at once, each with its own 5-second deadline, so `ghlogin token`
/// is answered at once while stalled connections wait for their refusal.
@Suite(.serialized) struct AgentStallEndToEndTests {
  static let parent = "ghu_e2eSTALLparent0000000000000000000001"
  static let timedOut = "the request did not arrive within 5 seconds"

  /// The fake, and a sandbox where octocat is logged in to github.test with a login the fake can
  /// narrow; the agent's directory `$HOME/run` and a client's empty HOME (both 0700).
  func loggedIn() throws -> (FakeGitHub, Sandbox) {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    try fake.register([
      "tokens": [["access_token": Self.parent, "login": "octocat", "kind": "app", "client_id": "Iv1.testclient"]]
    ])
    try sandbox.writeCredentials([["login": "octocat", "token": Self.parent, "client_id": "Iv1.testclient"]])
    for directory in ["run", "empty"] {
      try FileManager.default.createDirectory(
        atPath: sandbox.home + "/" + directory, withIntermediateDirectories: false,
        attributes: [.posixPermissions: 0o700])
    }
    return (fake, sandbox)
  }

  func agentEnvironment(_ sandbox: Sandbox) -> [String: String] {
    sandbox.environment(["GHLOGIN_AGENT_DIR": sandbox.home + "/run"])
  }

  /// A client with an empty HOME and `socket` as its agent.
  func clientEnvironment(_ sandbox: Sandbox, socket: String) -> [String: String] {
    [
      "HOME": sandbox.home + "/empty", "XDG_CONFIG_HOME": sandbox.home + "/empty/.config",
      "GHLOGIN_AGENT_SOCK": socket, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
    ]
  }

  func startAgent(_ sandbox: Sandbox) throws -> ChildProcess {
    let agent = try startGHLogin(["agent", "--foreground"], env: agentEnvironment(sandbox))
    _ = try agent.waitForLine(.stdout, timeout: 20) { $0.hasPrefix("ready ") }
    return agent
  }

  /// Stalled peers in Python: connects `count` sockets to each path in turn and sends nothing;
  /// prints `connected` once all are; then, for each connection in order, when the agent closed
  /// it (seconds after `connected`) and the answer's `message=`.
  func stall(_ paths: [String], count: Int) throws -> ChildProcess {
    let script = """
      import selectors, socket, sys, time
      count, paths = int(sys.argv[1]), sys.argv[2:]
      sockets = []
      for path in paths:
          for _ in range(count):
              s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
              s.connect(path)
              s.setblocking(False)
              sockets.append(s)
      start = time.monotonic()
      print("connected", flush=True)
      selector = selectors.DefaultSelector()
      data, closed = {}, {}
      for index, s in enumerate(sockets):
          selector.register(s, selectors.EVENT_READ, index)
          data[index] = b""
      while len(closed) < len(sockets) and time.monotonic() - start < 40:
          for key, _ in selector.select(timeout=1):
              try:
                  chunk = key.fileobj.recv(65536)
              except OSError:
                  chunk = b""
              if chunk:
                  data[key.data] += chunk
              else:
                  selector.unregister(key.fileobj)
                  closed[key.data] = time.monotonic() - start
      for index in range(len(sockets)):
          lines = data[index].decode("utf-8", "replace").splitlines()
          message = next((line[8:] for line in lines if line.startswith("message=")), "-")
          print("%.3f %s" % (closed.get(index, -1), message))
      """
    let child = try ChildProcess(
      executable: HarnessPaths.python3, arguments: ["-c", script, String(count)] + paths, environment: nil,
      stdin: nil)
    _ = try child.waitForLine(.stdout, timeout: 20) { $0 == "connected" }
    return child
  }

  /// What each stalled connection got: when it was closed (seconds after all were connected)
  /// and the message of the answer.
  func outcomes(_ stalled: ChildProcess) throws -> [(seconds: Double, message: String)] {
    let lines = try stalled.finish(timeout: 60).stdout.split(separator: "\n").dropFirst()
    return lines.map { line in
      let parts = line.split(separator: " ", maxSplits: 1)
      return (Double(parts.first ?? "") ?? -1, parts.count > 1 ? String(parts[1]) : "")
    }
  }

  /// `ghlogin token` with `environment`, and how long it took.
  func timedToken(_ environment: [String: String]) throws -> (
    run: (status: Int32, stdout: String, stderr: String), seconds: Double
  ) {
    let started = Date()
    let run = try runGHLogin(["token"], env: environment, timeout: 60)
    return (run, Date().timeIntervalSince(started))
  }

  /// Ten connections to the main socket and ten to a forward's, sending nothing: `token` through
  /// the main socket and through the forward is answered at once, and every stalled connection
  /// is refused after its own 5 seconds (all together, not one after another).
  @Test func stalledConnectionsDoNotDelayOtherClients() throws {
    let (fake, sandbox) = try loggedIn()
    let agent = try startAgent(sandbox)
    let main = sandbox.home + "/run/agent.sock"
    let made = try runGHLogin(["agent", "forward", "--repo", "acme/api"], env: agentEnvironment(sandbox))
    #expect(made.status == 0, "\(made.stderr)")
    let forward = made.stdout.trimmingCharacters(in: .newlines)
    let stalled = try stall([main, forward], count: 10)

    let direct = try timedToken(clientEnvironment(sandbox, socket: main))
    #expect(direct.run.status == 0, "\(direct.run.stderr)")
    #expect(direct.run.stdout == Self.parent + "\n")
    #expect(direct.seconds < 2, "the main socket's client waited \(direct.seconds) s")
    let forwarded = try timedToken(clientEnvironment(sandbox, socket: forward))
    #expect(forwarded.run.status == 0, "\(forwarded.run.stderr)")
    let minted = (try fake.state()["tokens"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "scoped" }
    #expect(minted.count == 1)
    #expect(forwarded.run.stdout == "\(minted.first?["access_token"] as? String ?? "-")\n")
    #expect(forwarded.seconds < 2, "the forward's client waited \(forwarded.seconds) s")

    let outcomes = try self.outcomes(stalled)
    #expect(outcomes.count == 20)
    for (index, outcome) in outcomes.enumerated() {
      #expect(outcome.message == Self.timedOut, "connection \(index)")
      #expect(outcome.seconds >= 4 && outcome.seconds < 8, "connection \(index) closed after \(outcome.seconds) s")
    }
    agent.send(signal: SIGTERM)
    let log = try agent.finish(timeout: 30).stderr
    let refusals = log.split(separator: "\n").filter { $0.hasSuffix("refused: no request within 5 s") }
    #expect(refusals.count == 20, "\(log)")
    #expect(refusals.filter { $0.contains(" forward=") }.count == 10, "\(log)")
    #expect(log.contains("get for=token host=github.test account=octocat narrowing=none token="))
  }

  /// More connections sending nothing than the agent reads at once (256): each new one beyond
  /// that refuses the oldest still arriving at once, the rest after their 5 seconds, and `token`
  /// is still answered at once.
  @Test func beyondTheCapTheOldestIsRefused() throws {
    let (_, sandbox) = try loggedIn()
    let agent = try startAgent(sandbox)
    let main = sandbox.home + "/run/agent.sock"
    let stalled = try stall([main], count: 260)
    let direct = try timedToken(clientEnvironment(sandbox, socket: main))
    #expect(direct.run.status == 0, "\(direct.run.stderr)")
    #expect(direct.run.stdout == Self.parent + "\n")
    #expect(direct.seconds < 2, "the client waited \(direct.seconds) s")

    let outcomes = try self.outcomes(stalled)
    #expect(outcomes.count == 260)
    let busy = outcomes.filter { $0.message == "the agent is reading too many requests at once; try again" }
    let late = outcomes.filter { $0.message == Self.timedOut }
    // 4 beyond the cap, and one more for `token`'s connection if it was accepted before its
    // request arrived.
    #expect(busy.count == 4 || busy.count == 5, "\(outcomes.map(\.message))")
    #expect(busy.count + late.count == 260, "\(outcomes.map(\.message))")
    #expect(outcomes.prefix(4).allSatisfy { $0.seconds < 2 && $0.message == busy.first?.message }, "the oldest first")
    #expect(late.allSatisfy { $0.seconds >= 4 && $0.seconds < 8 })
    agent.send(signal: SIGTERM)
    let log = try agent.finish(timeout: 30).stderr
    #expect(log.components(separatedBy: "refused: too many requests arriving at once").count - 1 == busy.count)
  }
}
