import Foundation
import Testing

/// Proves the end-to-end harness works without ghlogin: the fake serves TLS with the test CA,
/// logs what it saw, the scripted browser follows a redirect, and the process helpers stream.
@Suite struct FakeGitHubHarnessTests {
  /// A raw HTTPS GET with the test CA and real SNI, printing {"status", "body"} as JSON.
  static let tlsGet = """
    import json, socket, ssl, sys
    port, (host, path, token, ca) = int(sys.argv[1]), sys.argv[2:6]
    ctx = ssl.create_default_context(cafile=ca)
    raw = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        s = ctx.wrap_socket(raw, server_hostname=host)
    except ssl.SSLError as e:
        print(json.dumps({"tls_error": str(e)}))
        sys.exit(0)
    request = ["GET %s HTTP/1.1" % path, "Host: %s:%d" % (host, port), "User-Agent: harness/1",
               "Authorization: Bearer " + token, "Accept: application/vnd.github+json",
               "Connection: close", "", ""]
    s.sendall("\\r\\n".join(request).encode())
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\\r\\n\\r\\n")
    print(json.dumps({"status": int(head.split(b" ")[1]), "body": body.decode()}))
    """

  static func get(
    _ fake: FakeGitHub, host: String, path: String, token: String
  ) throws -> [String: Any] {
    let result = try runPython(tlsGet, [String(fake.port), host, path, token, fake.caFile])
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    return try #require(object, "python said: \(result.stdout) \(result.stderr)")
  }

  @Test func userOverTLSIsAnsweredAndLogged() throws {
    let fake = try FakeGitHub.start()
    let unknown = try Self.get(fake, host: "api.github.test", path: "/user", token: "gho_unknown")
    #expect(unknown["status"] as? Int == 401)
    #expect((unknown["body"] as? String)?.contains("Bad credentials") == true)

    try fake.register(["tokens": [["access_token": "gho_harness", "login": "octocat"]]])
    let known = try Self.get(fake, host: "api.github.test", path: "/user", token: "gho_harness")
    #expect(known["status"] as? Int == 200)
    #expect((known["body"] as? String)?.contains("\"login\":\"octocat\"") == true)

    let entries = try fake.requests(path: "/user")
    #expect(entries.count == 2)
    let last = try #require(entries.last)
    #expect(last["method"] as? String == "GET")
    #expect(last["sni"] as? String == "api.github.test")
    #expect(last.header("Authorization") == "Bearer gho_harness")
    #expect(last.header("Host") == "api.github.test:\(fake.port)")
    #expect(last["status"] as? Int == 200)
    #expect(try fake.counter("user_requests") == 2)
  }

  @Test func browserFollowsTheAuthorizeRedirectToLoopback() throws {
    let fake = try FakeGitHub.start()
    try fake.register([
      "apps": [["client_id": "Iv1.echo", "callback_url": "http://127.0.0.1/control/echo"]]
    ])
    let redirect = "http%3A%2F%2F127.0.0.1%3A\(fake.controlPort)%2Fcontrol%2Fecho"
    let url =
      fake.webBase + "/login/oauth/authorize?response_type=code&client_id=Iv1.echo&redirect_uri=\(redirect)"
      + "&scope=repo%20gist&state=S-1&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
      + "&code_challenge_method=S256"
    let result = try runBrowser(url: url, fake: fake)
    #expect(result.exitStatus == 0, "\(result.report)")
    #expect(result.authorizeStatus == 302)
    #expect(result.callbackStatus == 200)
    let echoed = try #require(
      try JSONSerialization.jsonObject(with: Data((result.callbackBody ?? "").utf8))
        as? [String: Any])
    let query = try #require(echoed["query"] as? String)
    #expect(query.hasPrefix("code=") && query.hasSuffix("&state=S-1"))

    let authorize = try #require(try fake.requests(path: "/login/oauth/authorize").first)
    #expect(authorize.queryValue("code_challenge_method") == "S256")
    #expect(authorize.queryValue("scope") == "repo gist")

    let tampered = try runBrowser(url: url, fake: fake, extraArgs: ["--state", "WRONG"])
    #expect((tampered.callbackBody ?? "").contains("state=WRONG"))
  }

  @Test func failedHandshakeIsLoggedWithoutRequests() throws {
    let fake = try FakeGitHub.start(certName: "wronghost")
    let answer = try Self.get(fake, host: "github.test", path: "/user", token: "x")
    #expect((answer["tls_error"] as? String)?.contains("CERTIFICATE_VERIFY_FAILED") == true)
    let connections = try fake.connections()
    #expect(connections.count == 1)
    #expect(connections.first?["tls"] as? String == "failed")
    #expect(connections.first?["requests"] as? Int == 0)
    #expect(try fake.requests().isEmpty)
  }

  @Test func scriptValidationAndReset() throws {
    let fake = try FakeGitHub.start()
    #expect(throws: HarnessError.self) { try fake.script(["no_such_key": 1]) }
    #expect(throws: HarnessError.self) {
      try fake.script(["responses": ["token": [["kind": "teapot"]]]])
    }
    try fake.script([
      "device": ["interval": 1],
      "responses": ["device_poll": ["authorization_pending", "success"]],
    ])
    let device =
      try #require(try fake.state()["script"] as? [String: Any])["device"] as? [String: Any]
    #expect(device?["interval"] as? Int == 1)
    try fake.reset()
    let reset =
      try #require(try fake.state()["script"] as? [String: Any])["device"] as? [String: Any]
    #expect(reset?["interval"] as? Int == 5)
  }

  @Test func sandboxConfigAndEnvironment() throws {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig(["client_secret": NSNull(), "scopes": ["repo"]])
    let written = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: sandbox.configFile)))
        as? [String: Any])
    #expect(written["client_secret"] == nil)
    #expect(
      written["token_url"] as? String == "https://github.test:\(fake.port)/login/oauth/access_token"
    )
    #expect(written["api_url"] as? String == "https://api.github.test:\(fake.port)")
    let env = sandbox.environment()
    #expect(env["HOME"] == sandbox.home)
    #expect(env["XDG_CONFIG_HOME"] == sandbox.home + "/.config")
    #expect(env["SSL_CERT_FILE"] == fake.caFile)
    #expect(env["GHLOGIN_TEST_RESOLVE"]?.hasPrefix("github.test:\(fake.port):127.0.0.1,") == true)
    #expect(env.keys.filter { $0.lowercased().contains("proxy") }.isEmpty)
    let mode =
      try FileManager.default.attributesOfItem(atPath: sandbox.configDirectory)[.posixPermissions]
      as? Int
    #expect(mode == 0o700)
    #expect(sandbox.credentialsBytes() == nil)
  }

  @Test func childProcessStreamsStderrWhileRunning() throws {
    let code =
      "import sys; print('https://github.test/x', file=sys.stderr, flush=True); "
      + "line = sys.stdin.readline(); print('got ' + line.strip()); sys.exit(3)"
    let child = try ChildProcess(executable: HarnessPaths.python3, arguments: ["-c", code])
    let line = try child.waitForLine(.stderr, timeout: 10) { $0.hasPrefix("https://") }
    #expect(line == "https://github.test/x")
    child.writeStdin("go\n")
    let result = try child.finish(timeout: 10)
    #expect(result.status == 3)
    #expect(result.stdout == "got go\n")
  }

  /// What a child wrote to one stream before it wrote to the other is in `text` as soon as the
  /// second is seen, however late the first stream's reader runs: a server's log line written
  /// before its answer is there once the client that got the answer is done. Each round: a line
  /// on stderr, then one on stdout, then the child waits; seen the stdout line, the stderr one
  /// must be there. (Before `text` read the pipe itself, the stderr reader could still be asleep.)
  @Test func textHoldsWhatTheChildWroteBeforeWhatWasSeen() throws {
    for round in 1...50 {
      let script = "printf 'logged %s\\n' \"$1\" >&2; echo seen; exec cat"
      let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", script, "sh", "\(round)"])
      _ = try child.waitForLine(.stdout, timeout: 10) { $0 == "seen" }
      #expect(child.text(.stderr) == "logged \(round)\n", "round \(round)")
      child.closeStdin()
      #expect(try child.finish(timeout: 10).status == 0)
    }
  }

  @Test func childrenInheritOnlyStandardStreamsAndDefaultSignals() throws {
    let fds = try runPython(
      "import os; print(sorted(int(f) for f in os.listdir('/proc/self/fd')), "
        + "os.getpgrp() == os.getpid())")
    // 0, 1, 2 and the descriptor listdir itself opened; the child leads its own process group.
    #expect(fds.stdout == "[0, 1, 2, 3] True\n", "\(fds.stderr)")

    let cat = try ChildProcess(executable: "/bin/cat", arguments: ["/proc/self/status"], stdin: "")
    let lines = try cat.finish(timeout: 10).stdout.split(separator: "\n")
    func mask(_ field: String) -> UInt64? {
      lines.first { $0.hasPrefix(field + ":\t") }.flatMap {
        UInt64($0.dropFirst(field.count + 2), radix: 16)
      }
    }
    // No classic signal (1-31) blocked or ignored, although the test runner blocks or ignores some.
    // (glibc reserves signals 32 and 33 for itself; posix_spawn cannot reset those.)
    let classic: UInt64 = 0x7FFF_FFFF
    #expect(mask("SigBlk").map { $0 & classic } == 0)
    #expect(mask("SigIgn").map { $0 & classic } == 0)
  }

  @Test func browserStubRecordsCallsAndFollows() throws {
    let fake = try FakeGitHub.start()
    try fake.register([
      "apps": [["client_id": "Iv1.echo", "callback_url": "http://127.0.0.1/control/echo"]]
    ])
    let sandbox = try Sandbox(fake: fake)
    let stub = try sandbox.installBrowserStub(follow: true)
    let url =
      fake.webBase + "/login/oauth/authorize?response_type=code&client_id=Iv1.echo&redirect_uri="
      + "http%3A%2F%2F127.0.0.1%3A\(fake.controlPort)%2Fcontrol%2Fecho&state=z"
      + "&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256"
    // Run it the way ghlogin would: by name, from PATH, with the sandbox environment.
    let sh = try ChildProcess(
      executable: "/bin/sh", arguments: ["-c", "xdg-open \"$1\"", "sh", url],
      environment: sandbox.environment(), stdin: "")
    let ran = try sh.finish(timeout: 20)
    #expect(ran.status == 0, "\(ran.stderr)")
    let call = try #require(sandbox.browserCalls().first)
    #expect(call["argv"] as? [String] == [stub, url])
    #expect((call["fds"] as? [String: String]).map { Set($0.keys) } == ["0", "1", "2"])
    let report = try sandbox.followedBrowserReport(of: call)
    let callback = try #require(report["callback"] as? [String: Any])
    #expect(callback["status"] as? Int == 200)
    #expect((callback["body"] as? String)?.contains("&state=z") == true)
  }

  @Test func theBuiltBinaryIsFoundAndRuns() throws {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    let result = try runGHLogin(["version"], env: sandbox.environment(), timeout: 10)
    #expect(result.status == 0)
    #expect(result.stdout.contains("ghlogin"))
  }
}
