import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `ghlogin container-args` and a container stand-in (issue 35 §3, §4; R115, R116): the
/// arguments it prints, and a process in other mount and pid namespaces that sees only what a
/// `podman run` with those arguments would show it. The stand-in is `unshare --mount --pid
/// --fork` because `podman run` cannot start containers in this sandbox (it drops
/// CAP_SYS_RESOURCE); where `podman run` works, ``podmanRunWithTheArguments()`` runs for real.
@Suite struct ContainerStandInEndToEndTests {
  static let parent = "ghu_e2eCONTAINERparent0000000000000000001"

  let fake: FakeGitHub
  let sandbox: Sandbox
  let git: GitSandbox
  let server: ChildProcess
  let host: String
  let certificates: String

  init() throws {
    fake = try FakeGitHub.start()
    sandbox = try Sandbox(fake: fake)
    git = try GitSandbox()
    let server = try GitHTTPServer.acme(readme: "contained\n", in: git, fake: fake)
    (self.server, host, certificates) = (server.process, server.host, server.certificates)
    // The GitHub host is the git server's 127.0.0.1:PORT (its API the fake's), so git's
    // credential request names the forward's host.
    try sandbox.writeConfig(["host": host, "container_registries": ["registry.test"]])
    try fake.register([
      "tokens": [["access_token": Self.parent, "login": "octocat", "kind": "app", "client_id": "Iv1.testclient"]]
    ])
    try sandbox.writeCredentials(
      host: host, [["login": "octocat", "token": Self.parent, "client_id": "Iv1.testclient"]])
    try FileManager.default.createDirectory(
      atPath: sandbox.home + "/run", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
  }

  var agentEnvironment: [String: String] { sandbox.environment(["GHLOGIN_AGENT_DIR": sandbox.home + "/run"]) }

  func startAgent() throws -> ChildProcess {
    let agent = try startGHLogin(["agent", "--foreground"], env: agentEnvironment)
    _ = try agent.waitForLine(.stdout, timeout: 20) { $0.hasPrefix("ready ") }
    return agent
  }

  /// `container-args` prints, one per line, the mounts of the forward and the binary and the
  /// environment issue 35 §3 lists; never the main socket.
  @Test func containerArgsPrintsTheRunArguments() throws {
    let agent = try startAgent()
    defer {
      agent.send(signal: SIGTERM)
      _ = try? agent.finish(timeout: 20)
    }
    let binary = try HarnessPaths.ghloginBinary()
    let made = try runGHLogin(
      ["container-args", "--repo", "acme/api", "--ttl", "1h", "--selinux", "--podman-keep-id"], env: agentEnvironment)
    #expect(made.status == 0, "\(made.stderr)")
    let lines = made.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let forward = try #require(lines.dropFirst().first?.split(separator: ":").first.map(String.init))
    #expect(forward.hasPrefix(sandbox.home + "/run/forward-") && forward != sandbox.home + "/run/agent.sock")
    #expect(
      lines == [
        "-v", "\(forward):/run/ghlogin/agent.sock:z", "-v", "\(binary):/usr/local/bin/ghlogin:ro,z", "-v",
        "\(binary):/usr/local/bin/docker-credential-ghlogin:ro,z", "-e", "GHLOGIN_AGENT_SOCK=/run/ghlogin/agent.sock",
        "-e", "GIT_CONFIG_COUNT=3", "-e", "GIT_CONFIG_KEY_0=credential.helper", "-e", "GIT_CONFIG_VALUE_0=", "-e",
        "GIT_CONFIG_KEY_1=credential.helper", "-e", "GIT_CONFIG_VALUE_1=!ghlogin git-credential", "-e",
        "GIT_CONFIG_KEY_2=credential.useHttpPath", "-e", "GIT_CONFIG_VALUE_2=true", "--userns=keep-id", "",
      ])
    let devcontainer = try runGHLogin(
      ["container-args", "--repo", "acme/api", "--devcontainer"], env: agentEnvironment)
    #expect(devcontainer.status == 0)
    #expect(devcontainer.stdout.hasPrefix("\"mounts\": [\"source=\(sandbox.home)/run/forward-"))
    #expect(devcontainer.stdout.contains("\"containerEnv\": {\"GHLOGIN_AGENT_SOCK\": \"/run/ghlogin/agent.sock\""))
    let bad = try runGHLogin(["container-args", "--repo", "acme/api", "--ttl", "0"], env: agentEnvironment)
    #expect(bad.status == 2)
    #expect(bad.stdout == "")
  }

  /// The stand-in's script: a tmpfs over /run (so /run/user/UID too), /usr/local/bin and /tmp
  /// (where HOME, the store and the agent's directory are), the socket bind-mounted at
  /// /run/ghlogin/agent.sock and the binary at /usr/local/bin, then `body` with an empty
  /// environment but for the container's.
  func standIn(socket: String, environment: [String: String], body: String) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    let binary = try HarnessPaths.ghloginBinary()
    let exports = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(shellQuoted($0.value))" }
      .joined(separator: " ")
    let script = """
      set -e
      mount -t tmpfs tmpfs /run
      mkdir -p /run/ghlogin
      cp \(shellQuoted(certificates + "/ca.pem")) /run/ghlogin/ca.pem
      touch /run/ghlogin/agent.sock
      mount --bind \(shellQuoted(socket)) /run/ghlogin/agent.sock
      mount -t tmpfs tmpfs /usr/local/bin
      touch /usr/local/bin/ghlogin /usr/local/bin/docker-credential-ghlogin
      mount --bind -o ro \(shellQuoted(binary)) /usr/local/bin/ghlogin
      mount --bind -o ro \(shellQuoted(binary)) /usr/local/bin/docker-credential-ghlogin
      mount -t tmpfs tmpfs /tmp
      mkdir /tmp/home
      cd /tmp/home
      set +e
      exec env -i HOME=/tmp/home PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 GIT_SSL_CAINFO=/run/ghlogin/ca.pem \
        GIT_TERMINAL_PROMPT=0 GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=Test GIT_AUTHOR_EMAIL=t@example.com \
        GIT_COMMITTER_NAME=Test GIT_COMMITTER_EMAIL=t@example.com \(exports) sh -c \(shellQuoted(body))
      """
    return try ChildProcess(
      executable: "/usr/bin/unshare", arguments: ["--mount", "--pid", "--fork", "sh", "-c", script],
      environment: ["PATH": "/usr/bin:/bin"], stdin: ""
    ).finish(timeout: 60)
  }

  func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

  /// The container's environment from `container-args`' `-e` lines, and the forward's path.
  func containerArgs(_ arguments: [String]) throws -> (forward: String, environment: [String: String]) {
    let made = try runGHLogin(["container-args"] + arguments, env: agentEnvironment)
    #expect(made.status == 0, "\(made.stderr)")
    let lines = made.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var environment: [String: String] = [:]
    var forward = ""
    for (flag, value) in zip(lines, lines.dropFirst()) {
      if flag == "-e", let equals = value.firstIndex(of: "=") {
        environment[String(value[..<equals])] = String(value[value.index(after: equals)...])
      }
      if flag == "-v", value.hasSuffix(":/run/ghlogin/agent.sock") { forward = String(value.dropLast(24)) }
    }
    return (forward, environment)
  }

  /// In the stand-in with a forward mounted: real git (with the GIT_CONFIG_* of container-args)
  /// clones and pushes acme/api from the HTTPS git server and is refused on acme/secret;
  /// `docker-credential-ghlogin get` answers; nothing in the container holds a store; the agent
  /// tags the peer with another mount namespace.
  @Test(.enabled(if: geteuid() == 0, "needs root for unshare --mount --pid"))
  func gitAndDockerWorkThroughAForwardInTheStandIn() throws {
    let agent = try startAgent()
    let (forward, environment) = try containerArgs(["--repo", "acme/api", "--permission", "contents:write"])
    #expect(environment["GIT_CONFIG_VALUE_1"] == "!ghlogin git-credential")
    let body =
      "git clone -q https://\(host)/acme/api.git /tmp/api && cd /tmp/api && echo more > README "
      + "&& git commit -q -am second && git push -q origin main && echo pushed; "
      + "git ls-remote https://\(host)/acme/secret.git >/dev/null 2>&1 || echo refused; "
      + "printf registry.test | docker-credential-ghlogin get; echo; "
      + "ls -A /tmp/home; grep -rl ghu_ /tmp /run 2>/dev/null | grep -v '^/run/ghlogin/agent.sock$'; echo end"
    let run = try standIn(socket: forward, environment: environment, body: body)
    #expect(run.status == 0, "\(run.stderr)")
    let minted = try #require(
      (try fake.state()["tokens"] as? [[String: Any]] ?? []).first { $0["kind"] as? String == "scoped" })
    let token = try #require(minted["access_token"] as? String)
    #expect(minted["repositories"] as? [String] == ["acme/api"])
    #expect(
      run.stdout
        == "pushed\nrefused\n"
        + #"{"ServerURL":"registry.test","Username":"octocat","Secret":"\#(token)"}"# + "\n\nend\n",
      "\(run.stderr)")
    #expect(try fake.counter("scoped_tokens") == 1)
    agent.send(signal: SIGTERM)
    let log = try agent.finish(timeout: 30).stderr
    #expect(log.contains("(other),comm:"), "the peer is tagged with another mount namespace")
    #expect(log.contains("get for=git minted: repositories=acme/api"))
    #expect(try fake.tokenRecord(token)?["revoked"] as? Bool == true, "revoked when the agent stopped")
  }

  /// The same stand-in with the agent's MAIN socket bind-mounted gets no token: "use a forward".
  @Test(.enabled(if: geteuid() == 0, "needs root for unshare --mount --pid"))
  func theMainSocketInTheStandInIsRefused() throws {
    let agent = try startAgent()
    let (_, environment) = try containerArgs(["--repo", "acme/api"])
    let run = try standIn(
      socket: sandbox.home + "/run/agent.sock", environment: environment,
      body: "ghlogin token; echo status=$?; printf registry.test | docker-credential-ghlogin get; echo status=$?")
    #expect(
      run.stdout
        == "status=2\ncredentials not found in native keychain\nstatus=1\n")
    #expect(run.stderr.contains("ghlogin: the ghlogin agent: use a forward: ghlogin container-args\n"))
    #expect(try fake.counter("scoped_tokens") == 0)
    agent.send(signal: SIGTERM)
    let log = try agent.finish(timeout: 30).stderr
    #expect(log.contains("refused: another mount or user namespace; no token"))
  }

  /// Why `podman run` cannot be used here, or nil when it can: it needs a local image, and
  /// must start a container (this sandbox drops CAP_SYS_RESOURCE, which it needs).
  static let podmanProblem: String? = {
    guard let podman = GitSandbox.optionalProgram("podman") else { return "podman is not installed" }
    let images = try? ChildProcess(
      executable: podman, arguments: ["images", "--format", "{{.Repository}}:{{.Tag}}"], environment: nil, stdin: ""
    ).finish(timeout: 30)
    guard let image = images?.stdout.split(separator: "\n").first.map(String.init) else {
      return "podman has no local image to run (and no network to pull one)"
    }
    let probe = try? ChildProcess(
      executable: podman, arguments: ["run", "--rm", "--network=host", image, "true"], environment: nil, stdin: ""
    ).finish(timeout: 60)
    guard let probe, probe.status == 0 else {
      return "podman run cannot start a container here: "
        + (probe?.stderr.split(separator: "\n").last.map(String.init) ?? "it did not finish")
    }
    return nil
  }()

  /// The same with a real `podman run` and container-args' arguments, where podman can run.
  @Test(.enabled(if: podmanProblem == nil, Comment(rawValue: podmanProblem ?? "podman runs")))
  func podmanRunWithTheArguments() throws {
    let podman = try GitSandbox.program("podman")
    let image = try #require(
      try ChildProcess(
        executable: podman, arguments: ["images", "--format", "{{.Repository}}:{{.Tag}}"], environment: nil, stdin: ""
      ).finish(timeout: 30).stdout.split(separator: "\n").first.map(String.init))
    let agent = try startAgent()
    let made = try runGHLogin(["container-args", "--repo", "acme/api"], env: agentEnvironment)
    let arguments = made.stdout.split(separator: "\n").map(String.init)
    let run = try ChildProcess(
      executable: podman,
      arguments: ["run", "--rm", "--network=host"] + arguments + [
        image, "sh", "-c", "printf registry.test | docker-credential-ghlogin get",
      ], environment: nil, stdin: ""
    ).finish(timeout: 120)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains(#""Username":"octocat""#))
    agent.send(signal: SIGTERM)
    _ = try agent.finish(timeout: 30)
  }
}
