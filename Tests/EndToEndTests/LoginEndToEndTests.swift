import Foundation
import Testing
import GHLoginTestSupport

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// The browser login through the built binary, end to end against the fake GitHub, then the
/// commands that use what it stored (R1, R2, R4, R6, R11–R17, R19, R20, R22, R26).
@Suite struct LoginEndToEndTests {
  /// The base64url alphabet (RFC 4648 §5).
  static let base64URL = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
  /// RFC 3986 unreserved characters, the PKCE verifier's alphabet (RFC 7636 §4.1).
  static let unreserved = base64URL.union(".~")

  /// BASE64URL(SHA-256(text)) computed by Python's hashlib: an implementation other than ours.
  static func s256(_ text: String) async throws -> String {
    let code = """
      import base64, hashlib, sys
      print(base64.urlsafe_b64encode(hashlib.sha256(sys.argv[1].encode()).digest()).rstrip(b"=").decode())
      """
    return try await offload { try runPython(code, [text]).stdout }.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The LISTEN sockets on `port` in `/proc/net/tcp` (IPv4) and `/proc/net/tcp6`, as the local
  /// address in hex. The kernel prints these tables in pages, and an entry can be skipped when
  /// other sockets come and go between two reads, so a few reads are tried before "none".
  static func listeners(on port: Int) -> [String] {
    let portHex = String(format: "%04X", port)
    for _ in 0..<10 {
      var found: [String] = []
      for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        guard let text = readProcFile(table) else { continue }
        for line in text.split(separator: "\n").dropFirst() {
          let fields = line.split(separator: " ")
          guard fields.count > 3, fields[3] == "0A" else { continue }  // 0A = TCP_LISTEN
          let local = fields[1].split(separator: ":")
          if local.count == 2, local[1] == portHex { found.append(String(local[0])) }
        }
      }
      if !found.isEmpty { return found }
    }
    return []
  }

  @Test func fullLoginThenWhoamiTokenStatusLogout() async throws {
    let scenario = try await Scenario.start()
    let fake = scenario.fake
    let pending = try await scenario.startAuth()

    // R2, R15, R19: the authorize URL.
    #expect(pending.url.hasPrefix(fake.webBase + "/login/oauth/authorize?"))
    #expect(pending.query["client_id"] == "Iv1.testclient")
    #expect(pending.url.hasPrefix(fake.webBase + "/login/oauth/authorize?response_type=code&client_id="), "R85")
    #expect(pending.query["redirect_uri"] == "http://127.0.0.1:\(pending.port)/callback")
    #expect(pending.url.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A\(pending.port)%2Fcallback&"))
    #expect(pending.query["scope"] == "repo read:org gist")
    #expect(pending.query["code_challenge_method"] == "S256")
    let state = try #require(pending.query["state"])
    let challenge = try #require(pending.query["code_challenge"])
    #expect(state.count >= 22 && state.allSatisfy(Self.base64URL.contains), "state: \(state)")
    #expect(challenge.count == 43 && challenge.allSatisfy(Self.base64URL.contains), "challenge: \(challenge)")
    // R1: exactly one listener, on 127.0.0.1, none on a wildcard or IPv6 address.
    #expect(Self.listeners(on: pending.port) == ["0100007F"])

    let browser = try await pending.browse()
    #expect(browser.exitStatus == 0, "\(browser.report)")
    #expect(browser.authorizeStatus == 302)
    #expect(browser.callbackStatus == 200)
    #expect(browser.callbackBody?.contains("You are logged in to github.test as octocat.") == true)
    #expect(browser.callbackBody?.contains("<title>ghlogin: Logged in</title>") == true, "the command line's title")
    let code = try #require(browser.issuedCode)

    let auth = try await pending.finish()
    #expect(auth.status == 0, "\(auth)")
    #expect(auth.stdout == "")
    let lines = auth.stderr.split(separator: "\n").map(String.init)
    #expect(lines.first == "Open this URL in your browser to log in to github.test:")
    #expect(lines.contains(pending.url))
    #expect(lines.suffix(2) == ["Logged in to github.test as octocat", "To let git use this login: ghlogin setup-git"])
    expectNoSecrets([code, testClientSecret], in: [auth.stdout, auth.stderr, browser.callbackBody ?? ""])

    // R4, R20, R26: one token request, POST, everything in the form body, same redirect_uri,
    // verifier checked.
    let exchanges = try scenario.tokenRequests()
    #expect(exchanges.count == 1)
    let exchange = try #require(exchanges.first)
    #expect(exchange["method"] as? String == "POST")
    #expect(exchange["query"] as? String == "")
    #expect(exchange.header("Accept") == "application/json")
    #expect(exchange.header("Content-Type") == "application/x-www-form-urlencoded")
    let form = try #require(exchange["form"] as? [String: [String]])
    #expect(
      Set(form.keys) == ["client_id", "client_secret", "code", "redirect_uri", "code_verifier", "grant_type"])
    #expect(form.values.allSatisfy { $0.count == 1 })
    #expect(exchange.formValue("client_id") == "Iv1.testclient")
    #expect(exchange.formValue("client_secret") == testClientSecret)
    #expect(exchange.formValue("code") == code)
    #expect(exchange.formValue("redirect_uri") == pending.query["redirect_uri"])
    #expect(exchange.formValue("grant_type") == "authorization_code")
    let verifier = try #require(exchange.formValue("code_verifier"))
    #expect((43...128).contains(verifier.count) && verifier.allSatisfy(Self.unreserved.contains))
    #expect(try await Self.s256(verifier) == challenge)
    #expect(exchange["status"] as? Int == 200)
    expectNoSecrets([verifier], in: [auth.stdout, auth.stderr, pending.url])
    // The listener is gone once the login is over.
    #expect(RawHTTP.isRefused(port: pending.port))

    // R76: /user with the new token and GitHub's headers.
    let tokens = try #require(fake.state()["tokens"] as? [[String: Any]])
    #expect(tokens.count == 1)
    let token = try #require(tokens.first?["access_token"] as? String)
    let user = try #require(try fake.requests(path: "/user").first)
    #expect(user.header("Authorization") == "Bearer \(token)")
    #expect(user.header("Accept") == "application/vnd.github+json")
    #expect(user.header("X-GitHub-Api-Version") == "2022-11-28")
    #expect(user.header("User-Agent")?.hasPrefix("ghlogin/") == true)

    // Stored: 0600 file in a 0700 directory, holding that token.
    #expect(Scenario.mode(of: scenario.sandbox.credentialsFile) == 0o600)
    #expect(Scenario.mode(of: scenario.sandbox.configDirectory) == 0o700)
    let stored = try #require(scenario.sandbox.credentialsJSON())
    let account = try #require(
      ((stored["hosts"] as? [String: Any])?["github.test"] as? [String: Any]).flatMap {
        ($0["accounts"] as? [[String: Any]])?.first
      })
    #expect(account["token"] as? String == token)
    #expect(account["login"] as? String == "octocat")
    #expect(account["user_id"] as? Int == 1)

    // whoami
    let whoami = try await scenario.run(["whoami"])
    #expect(whoami.status == 0, "\(whoami)")
    #expect(whoami.stdout == "octocat (The Octocat) on github.test\n")
    #expect(whoami.stderr == "")

    // whoami --json: the /user body exactly as the fake sent it.
    let json = try await scenario.run(["whoami", "--json"])
    #expect(json.status == 0, "\(json)")
    let sent = try #require(try fake.requests(path: "/user").last?["response_body"] as? String)
    #expect(json.stdout == sent + "\n")
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect(object?["login"] as? String == "octocat")
    #expect(object?["id"] as? Int == 1)

    // token: exactly the token and a newline, and the fake knows it.
    let printed = try await scenario.run(["token"])
    #expect(printed.status == 0)
    #expect(printed.stdout == token + "\n")
    #expect(printed.stderr == "")

    // status: redacted.
    let status = try await scenario.run(["status"])
    #expect(status.status == 0, "\(status)")
    #expect(status.stdout.contains("octocat"))
    #expect(status.stdout.contains("token: gho_****\(token.suffix(4))"))
    expectNoSecrets([token, testClientSecret], in: [status.stdout, status.stderr])

    // logout, then token says not logged in (exit 4).
    let logout = try await scenario.run(["logout"])
    #expect(logout.status == 0, "\(logout)")
    // (What follows, about revoking the token at GitHub, is the revocation tests' business.)
    #expect(logout.stderr.hasPrefix("Logged out of github.test as octocat"), "\(logout)")
    let after = try await scenario.run(["token"])
    #expect(after.status == 4)
    #expect(after.stdout == "")
    #expect(after.stderr == "ghlogin: not logged in to github.test; run 'ghlogin auth --host github.test'\n")
    expectNoSecrets([token], in: [logout.stdout, logout.stderr, whoami.stdout, whoami.stderr])
  }

  /// R16, R17: every login has fresh state and PKCE; R1: each listener is on 127.0.0.1 only;
  /// Ctrl-C while waiting: death by SIGINT (130 in a shell), nothing stored, listener closed.
  @Test func twoLoginsHaveDifferentStateAndChallengeAndCtrlCStopsThem() async throws {
    let scenario = try await Scenario.start()
    let first = try await scenario.startAuth()
    let second = try await scenario.startAuth()
    #expect(first.port != second.port)
    #expect(first.query["state"] != second.query["state"])
    #expect(first.query["code_challenge"] != second.query["code_challenge"])
    for pending in [first, second] {
      #expect(Self.listeners(on: pending.port) == ["0100007F"])
    }

    for pending in [first, second] {
      pending.child.send(signal: SIGINT)
      let result = try await pending.finish(timeout: 10)
      #expect(result.status == -SIGINT, "\(result)")
      #expect(result.stderr.hasSuffix("ghlogin: interrupted; nothing was stored\n"), "\(result)")
      #expect(RawHTTP.isRefused(port: pending.port))
    }
    expectNothingStored(scenario)
    #expect(try scenario.fake.requests(path: "/login/oauth/access_token").isEmpty)
  }

  /// R4, R11: no callback before --timeout: exit 1, nothing stored, listener closed.
  @Test func timeoutEndsTheLoginCleanly() async throws {
    let scenario = try await Scenario.start()
    let start = Date()
    let pending = try await scenario.startAuth(["--timeout", "2"])
    let result = try await pending.finish(timeout: 15)
    #expect(result.stderr.contains("Waiting up to 2 seconds"), "\(result)")
    let elapsed = Date().timeIntervalSince(start)
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stderr.hasSuffix(
        "ghlogin: timed out after 2 seconds waiting for the browser; nothing was stored. "
          + "If the browser showed a redirect_uri error, the app's callback URL must be http://127.0.0.1/callback\n"),
      "\(result)")
    #expect(elapsed >= 1.9 && elapsed < 10, "took \(elapsed) s")
    #expect(RawHTTP.isRefused(port: pending.port))
    expectNothingStored(scenario)
  }

  /// R12, R13: the result page's headers and body; a `next=` parameter never becomes a redirect.
  @Test func resultPageIsStaticAndNeverRedirects() async throws {
    let scenario = try await Scenario.start()
    let (run, browser, pending) = try await scenario.login(browserArgs: [
      "--add-param", "next=https%3A%2F%2Fevil.test%2F",
    ])
    #expect(run.status == 0, "\(run)")
    #expect(browser.callbackStatus == 200)
    #expect(browser.callbackHeader("Location") == nil)
    #expect(browser.callbackHeader("Referrer-Policy") == "no-referrer")
    #expect(browser.callbackHeader("Cache-Control") == "no-store")
    #expect(browser.callbackHeader("Content-Type") == "text/html; charset=utf-8")
    #expect(browser.callbackHeader("Content-Security-Policy")?.hasPrefix("default-src 'none'") == true)
    #expect(browser.callbackHeader("X-Content-Type-Options") == "nosniff")
    let body = try #require(browser.callbackBody)
    #expect(body.contains("You are logged in to github.test as octocat."))
    for forbidden in ["<script", "src=", "href=", "http-equiv", "evil.test"] {
      #expect(!body.lowercased().contains(forbidden), "page has \(forbidden): \(body)")
    }
    let code = try #require(browser.issuedCode)
    let state = try #require(pending.query["state"])
    expectNoSecrets([code, state], in: [body], "on the result page")
  }

  /// R22: the same callback delivered again after the login succeeded is never exchanged again
  /// (the fake would revoke the token if the code came back, so whoami proves it is alive).
  @Test func redeliveredCodeIsNeverExchangedAgain() async throws {
    let scenario = try await Scenario.start()
    let (run, browser, _) = try await scenario.login(browserArgs: ["--repeat", "2"])
    #expect(run.status == 0, "\(run)")
    let deliveries = browser.report["callbacks"] as? [[String: Any]] ?? []
    #expect(deliveries.first?["status"] as? Int == 200)
    // The second delivery finds the listener closed: refused, or reset when it was still
    // queued as the listener closed; racing the close, at most a 400.
    if deliveries.count == 2 {
      #expect(deliveries[1]["status"] as? Int == 400)
    } else {
      let error = browser.error ?? ""
      #expect(error.contains("ConnectionRefused") || error.contains("ConnectionReset"), "\(browser.report)")
    }
    #expect(try scenario.tokenRequests().count == 1)
    let whoami = try await scenario.run(["whoami"])
    #expect(whoami.status == 0, "\(whoami)")
  }

  /// R6, R14: with a display, the browser is started from PATH (`xdg-open`) with the
  /// URL as its only argument, no shell, no secret, and no descriptor but 0–2; it follows the
  /// redirect and the login completes.
  @Test func browserIsLaunchedWithoutShellOrInheritedDescriptors() async throws {
    let scenario = try await Scenario.start()
    let stub = try scenario.sandbox.installBrowserStub(follow: true)
    let child = try startGHLogin(["auth"], env: scenario.environment(["DISPLAY": ":0"]))
    let result = try await offload { RunResult(try child.finish(timeout: 30)) }
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.contains("Opened your browser."))
    #expect(
      result.stderr.hasSuffix("Logged in to github.test as octocat\nTo let git use this login: ghlogin setup-git\n"))
    var calls = scenario.sandbox.browserCalls()
    let deadline = Date(timeIntervalSinceNow: 5)
    while calls.isEmpty && Date() < deadline {  // the stub logs right after starting its browser
      try await Task.sleep(for: .milliseconds(20))
      calls = scenario.sandbox.browserCalls()
    }
    #expect(calls.count == 1)
    let call = try #require(calls.first)
    let argv = try #require(call["argv"] as? [String])
    #expect(argv.count == 2)
    #expect(argv.first == stub)
    let url = try #require(argv.last)
    #expect(result.stderr.split(separator: "\n").contains(Substring(url)))
    #expect((call["fds"] as? [String: String]).map { Set($0.keys) } == ["0", "1", "2"], "\(call)")
    #expect(call["ppid"] as? Int == Int(child.pid), "started directly, not through a shell")
    let verifier = try #require(try scenario.tokenRequests().first?.formValue("code_verifier"))
    expectNoSecrets([verifier, testClientSecret], in: [url])
  }
}
