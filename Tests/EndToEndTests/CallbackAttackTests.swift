import Foundation
import Testing

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Requests to the loopback listener that are not the pending callback, sent while
/// `ghlogin auth` waits (R7–R12, R21, R83). Each is refused, no code from it is exchanged, and
/// the real callback that follows still logs in.
@Suite struct CallbackAttackTests {
  /// One bad request, and the status the listener must answer it with.
  enum Attack: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case wrongState, missingState, accessDeniedWithWrongState, favicon, root, dotSegments, post, foreignHost,
      duplicateCode, duplicateState, hugeHeaders, junkBytes, emptyState

    var testDescription: String { rawValue }

    /// The status the listener answers with.
    var expectedStatus: Int {
      switch self {
      case .favicon, .root, .dotSegments: 404
      case .post: 405
      case .hugeHeaders: 431
      default: 400
      }
    }

    /// Sends the attack to `pending`'s listener and returns the status and whether the
    /// connection was closed. Browser-made attacks carry a real code the fake issued.
    func send(to pending: PendingLogin) async throws -> (status: Int?, closed: Bool) {
      func browse(_ args: [String]) async throws -> (Int?, Bool) {
        let result = try await pending.browse(args)
        #expect(result.exitStatus == 0, "\(result.report)")
        #expect(result.issuedCode != nil, "the fake issued a real code for the attack")
        return (result.callbackStatus, true)  // fake_browser reads each answer to its end
      }
      func raw(_ bytes: [UInt8]) async throws -> (Int?, Bool) {
        let answer = try await pending.raw(bytes)
        return (answer.status, answer.closed)
      }
      switch self {
      case .wrongState: return try await browse(["--state", "WRONG"])
      case .missingState: return try await browse(["--drop-state"])
      case .emptyState: return try await browse(["--state", ""])
      case .accessDeniedWithWrongState:
        return try await browse(["--drop-code", "--state", "WRONG", "--add-param", "error=access_denied"])
      case .favicon: return try await browse(["--path", "/favicon.ico"])
      case .root: return try await browse(["--path", "/"])
      case .dotSegments: return try await browse(["--path", "/callback/../x"])
      case .post: return try await browse(["--method", "POST"])
      case .foreignHost: return try await browse(["--host-header", "evil.test:\(pending.port)"])
      case .duplicateCode: return try await browse(["--add-param", "code=b"])
      case .duplicateState: return try await browse(["--add-param", "state=x"])
      case .hugeHeaders:
        let filler = String(repeating: "X-Filler: " + String(repeating: "a", count: 1000) + "\r\n", count: 100)
        return try await raw(Array("GET /callback HTTP/1.1\r\nHost: 127.0.0.1:\(pending.port)\r\n\(filler)\r\n".utf8))
      case .junkBytes:
        // A TLS ClientHello's first bytes, then binary noise: not HTTP.
        return try await raw([
          0x16, 0x03, 0x01, 0x00, 0xA5, 0x01, 0x00, 0x00, 0xA1, 0x03, 0x03, 0x00, 0xFF, 0x0D, 0x0A, 0x0D, 0x0A,
        ])
      }
    }
  }

  @Test(arguments: Attack.allCases)
  func refusedAndTheLoginKeepsWaiting(_ attack: Attack) async throws {
    let scenario = try await Scenario.start()
    let pending = try await scenario.startAuth()

    let answer = try await attack.send(to: pending)
    #expect(answer.status == attack.expectedStatus, "\(attack)")
    #expect(answer.closed, "the connection is closed after the answer")
    #expect(try scenario.tokenRequests().isEmpty, "no code from a refused request is exchanged")
    #expect(!pending.child.hasExited, "the login keeps waiting")

    let browser = try await pending.browse()
    #expect(browser.callbackStatus == 200, "\(browser.report)")
    let result = try await pending.finish()
    #expect(result.status == 0, "\(result)")
    #expect(
      result.stderr.hasSuffix("Logged in to github.test as octocat\nTo let git use this login: ghlogin setup-git\n"))
    let exchanges = try scenario.tokenRequests()
    #expect(exchanges.count == 1)
    #expect(exchanges.first?.formValue("code") == browser.issuedCode, "only the real callback's code")
  }

  /// R11: a connection that sends nothing and one that sends a byte a second do not delay the
  /// real callback.
  @Test func stalledConnectionsDoNotDelayTheRealCallback() async throws {
    let scenario = try await Scenario.start()
    let pending = try await scenario.startAuth()
    guard case .success(let idle) = RawHTTP.connect(port: pending.port) else {
      Issue.record("could not open the idle connection")
      return
    }
    defer { close(idle) }
    let dribbler = try Dribbler(port: pending.port, interval: 1)
    defer { dribbler.stop() }
    // Ready when the dribbler has sent a byte and ghlogin has accepted both connections.
    let (pid, port) = (pending.child.pid, pending.port)
    let ready = try await offload {
      guard dribbler.waitForFirstByte(timeout: 10) else { return false }
      let deadline = Date(timeIntervalSinceNow: 10)
      while RawHTTP.acceptedConnections(pid: pid, port: port) < 2 {
        guard Date() < deadline else { return false }
        usleep(5_000)
      }
      return true
    }
    #expect(ready, "ghlogin accepted both stalled connections and the dribbler sent a byte")

    let start = Date()
    let browser = try await pending.browse()
    let elapsed = Date().timeIntervalSince(start)
    #expect(browser.callbackStatus == 200, "\(browser.report)")
    // A listener blocked on either would hold the callback for its 10 s read timeout; 8 s leaves
    // room for a loaded machine (the fake browser is a Python process).
    #expect(elapsed < 8, "the real callback took \(elapsed) s")
    let result = try await pending.finish(timeout: 10)
    #expect(result.status == 0, "\(result)")
    // The stalled connections were closed with the listener, unanswered.
    RawHTTP.setTimeout(idle, 2)
    let leftover = RawHTTP.receive(idle, until: Date(timeIntervalSinceNow: 2))
    #expect(leftover.closed && leftover.bytes.isEmpty)
  }

  /// R12, R21, R83: an error redirect with our state ends the login: exit 1, the error and
  /// description quoted with control characters stripped, HTML-escaped on the page, nothing stored.
  @Test func accessDeniedWithOurStateEndsTheLogin() async throws {
    let scenario = try await Scenario.start()
    try scenario.fake.script([
      "responses": [
        "authorize": [
          [
            "kind": "oauth_error", "error": "access_denied",
            "error_description": "<script>alert(1)</script>\u{1b}[31mred\u{07}",
          ]
        ]
      ]
    ])
    let (run, browser, _) = try await scenario.login()
    #expect(run.status == 1, "\(run)")
    #expect(
      run.stderr.hasSuffix(
        "ghlogin: the login to github.test was denied in the browser "
          + "(access_denied: <script>alert(1)</script>[31mred); run 'ghlogin auth --host github.test' again to retry\n"),
      "\(run)")
    #expect(!run.stderr.contains("\u{1b}") && !run.stderr.contains("\u{07}"))
    #expect(browser.callbackStatus == 200)
    let page = try #require(browser.callbackBody)
    #expect(page.contains("access_denied: &lt;script&gt;alert(1)&lt;/script&gt;[31mred"), "\(page)")
    #expect(!page.contains("<script"))
    #expect(try scenario.tokenRequests().isEmpty)
    expectNothingStored(scenario)
    #expect(RawHTTP.isRefused(port: try #require(URLComponents(string: browser.location ?? "")?.port)))
  }
}
