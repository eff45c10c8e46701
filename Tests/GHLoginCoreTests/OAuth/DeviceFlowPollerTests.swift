import Testing

import GHLoginTestSupport
@testable import GHLoginCore

#if canImport(Glibc)
  import Glibc
#endif

/// The poller driven by a manual clock: every wait is recorded, nothing really sleeps.
@Suite(.verifiesFakes) struct DeviceFlowPollerTests {
  let clock = ManualClock()
  let transport = FakeTransport()

  /// Polls with `answers`; the code "arrived" at the clock's current time.
  func poll(
    _ answers: [PollScript.Answer], interval: Int = 5, expiresIn: Int = 900, maxWait: Double? = nil,
    stopFD: Int32? = nil
  ) -> (result: Result<TokenResponse, any Error>, script: PollScript, start: Double, announced: [String]) {
    let script = PollScript(clock: clock, answers)
    script.install(on: transport)
    let poller = DeviceFlowPoller(
      authorization: DeviceStub.authorization(interval: interval, expiresIn: expiresIn), app: DeviceStub.app,
      endpoint: DeviceStub.endpoint(transport), clock: clock, stopFD: stopFD, maxWait: maxWait)
    let start = clock.monotonic()
    var announced: [String] = []
    let result = Result { try poller.run(issuedAt: start) { announced.append($0) } }
    return (result, script, start, announced)
  }

  /// R33, R34: pending ×2 then a token: the first poll ≥ 5 s after the code, every gap ≥ 5 s, the
  /// right parameters, and no client secret although the app has one (R33, R34).
  @Test func pendingTwiceThenToken() throws {
    let run = poll([.pending, .pending, .token])
    #expect(try run.result.get().accessToken == "gho_device")
    let gaps = run.script.gaps(from: run.start)
    #expect(gaps.count == 3)
    #expect(gaps.allSatisfy { $0 >= 5 })
    #expect(approximately(gaps, [6, 6, 6]))  // 5 s × the 1.2 margin (R38)
    for request in transport.requests {
      let form = request.formParameters
      #expect(form.map(\.name) == ["client_id", "device_code", "grant_type"])
      #expect(form.first { $0.name == "grant_type" }?.value == "urn:ietf:params:oauth:grant-type:device_code")
      #expect(form.first { $0.name == "device_code" }?.value == DeviceStub.deviceCode)
      #expect(form.first { $0.name == "client_id" }?.value == "Iv1.device")
      #expect(!String(decoding: request.body, as: UTF8.self).contains("secret"))
      #expect(request.headers["Accept"] == "application/json")
    }
  }

  /// R34: a code answer without `interval` gives 5 s (checked through the parser and the poller).
  @Test func missingIntervalMeansFiveSeconds() throws {
    let parsed = try DeviceAuthorization.parse(
      DeviceStub.codeAnswer(["interval": nil]), host: .gitHubDotCom, endpoint: DeviceStub.tokenEndpointURL)
    #expect(parsed.interval == 5)
    let run = poll([.pending, .token], interval: parsed.interval)
    #expect(run.script.gaps(from: run.start).allSatisfy { $0 >= 5 })
  }

  /// R34: `slow_down` with `"interval":10`: that poll and every later one wait ≥ 10 s.
  @Test func slowDownWithALargerServerInterval() throws {
    let run = poll([.pending, .slowDown(interval: 12), .pending, .pending, .token])
    #expect(try run.result.get().accessToken == "gho_device")
    let gaps = run.script.gaps(from: run.start)
    #expect(gaps.count == 5)
    #expect(approximately(Array(gaps[..<2]), [6, 6]))
    #expect(gaps[2...].allSatisfy { $0 >= 12 })
    let expected: [Double] = [16.8, 16.8, 16.8]  // 12 × 1.4
    #expect(approximately(Array(gaps[2...]), expected))
  }

  /// R34 with GitHub's literal `interval: 10` after 5: 5 + 5 = 10, and it stays.
  @Test func slowDownToTen() throws {
    let run = poll([.slowDown(interval: 10), .pending, .token])
    let gaps = run.script.gaps(from: run.start)
    #expect(gaps[1...].allSatisfy { $0 >= 10 })
  }

  /// R34: `slow_down` without `interval`: +5 s, for all later polls; a smaller server interval is ignored.
  @Test func slowDownWithoutIntervalAddsFive() throws {
    let run = poll([.slowDown(), .pending, .slowDown(interval: 2), .pending, .token])
    #expect(try run.result.get().accessToken == "gho_device")
    let gaps = run.script.gaps(from: run.start)
    #expect(gaps.count == 5)
    let expected: [Double] = [6, 14, 14, 21, 21]  // 5 × 1.2, then 10 × 1.4, then 15 × 1.4
    #expect(approximately(gaps, expected))
  }

  /// A dropped connection on poll 2 is retried with a doubled interval; success later (R35).
  @Test func networkErrorBacksOffAndRetries() throws {
    let dropped = HTTPError.badResponse(host: "github.com", .noResponse)
    let run = poll([.pending, .fail(dropped), .pending, .token])
    #expect(try run.result.get().accessToken == "gho_device")
    let gaps = run.script.gaps(from: run.start)
    #expect(approximately(gaps, [6, 6, 12, 12]))
    #expect(run.announced.count == 1)
    #expect(
      run.announced.first?.hasPrefix(
        "device flow polling at token_url https://github.com/login/oauth/access_token: no response from github.com")
        == true, "\(run.announced)")
    #expect(run.announced.first?.hasSuffix("; trying again in 12 seconds") == true)
  }

  /// R35: repeated network errors double up to 60 s, never beyond.
  @Test func backoffIsCappedAtSixtySeconds() throws {
    let refused = HTTPError.connect(host: "github.com", port: 443, reason: "Connection refused")
    let run = poll(Array(repeating: .fail(refused), count: 6) + [.token], interval: 5, expiresIn: 3600)
    #expect(try run.result.get().accessToken == "gho_device")
    let intervals = run.script.gaps(from: run.start).map { $0 / 1.2 }
    #expect(approximately(intervals, [5, 10, 20, 40, 60, 60, 60]))
  }

  /// A TLS failure on a poll is not transient: it stops at once, naming the step, the config
  /// key and the URL, exit 1.
  @Test func tlsFailureIsTerminal() throws {
    let run = poll([.fail(.tls(host: "github.com", reason: "certificate verify failed"))])
    let error = try #require(throws: EndpointRequestError.self) { try run.result.get() }
    #expect(error.message.hasPrefix("device flow polling at token_url \(DeviceStub.tokenURL): "))
    #expect(error.underlying == .tls(host: "github.com", reason: "certificate verify failed"))
    #expect(error.exitStatus == .failure)
    #expect(run.script.times.count == 1)
  }

  /// R36: `expired_token` and `token_expired` both stop at once with the rerun message.
  @Test(arguments: ["expired_token", "token_expired"])
  func expiredCodes(_ code: String) throws {
    let run = poll([.pending, .respond(DeviceStub.oauthError(code)), .token])
    let error = try #require(throws: DeviceFlowError.self) { try run.result.get() }
    #expect(error == DeviceFlowError(.expired, host: .gitHubDotCom))
    #expect(error.exitStatus == .failure)
    #expect(run.script.times.count == 2)
  }

  /// R36: `access_denied` stops and reports the cancellation.
  @Test func accessDenied() throws {
    let run = poll([.respond(DeviceStub.oauthError("access_denied")), .token])
    let error = try #require(throws: DeviceFlowError.self) { try run.result.get() }
    #expect(error.kind == .denied)
    #expect(error.message.hasPrefix("the login to github.com was denied (access_denied); nothing was stored."))
    #expect(error.exitStatus == .failure)
    #expect(run.script.times.count == 1)
  }

  /// R37 on the poll: `device_flow_disabled` (HTTP 200 or 400) says to tick "Enable Device Flow".
  @Test(arguments: [200, 400])
  func deviceFlowDisabledOnPoll(_ status: Int) throws {
    let run = poll([.respond(DeviceStub.oauthError("device_flow_disabled", status: status)), .token])
    let error = try #require(throws: DeviceFlowError.self) { try run.result.get() }
    #expect(error.kind == .disabled)
    #expect(error.message.contains("tick \"Enable Device Flow\" in the app's settings"))
    #expect(error.exitStatus == .failure)
    #expect(run.script.times.count == 1)
  }

  /// R34, R37: other error codes, 5xx and garbage are terminal after one poll.
  @Test(arguments: ["incorrect_device_code", "unsupported_grant_type", "foo_error", "incorrect_client_credentials"])
  func otherErrorsAreTerminal(_ code: String) throws {
    let run = poll([.respond(DeviceStub.oauthError(code)), .token])
    let error = try #require(throws: TokenError.self) { try run.result.get() }
    #expect(error.oauthCode == code)
    let expected: GHLoginCore.ExitStatus = .failure
    #expect(error.exitStatus == expected)
    #expect(run.script.times.count == 1)
  }

  @Test func serverErrorIsTerminal() throws {
    let broken = poll([.respond(.typed("text/html", "<html>oops</html>", status: 502)), .token])
    let error = try #require(throws: TokenError.self) { try broken.result.get() }
    #expect(error.kind == .httpStatus(502))
    #expect(broken.script.times.count == 1)
  }

  @Test func garbageIsTerminal() throws {
    let garbage = poll([.respond(.json("{not json")), .token])
    let parseError = try #require(throws: TokenError.self) { try garbage.result.get() }
    #expect(parseError.kind == .malformed("invalid JSON at line 1, column 2"))
    #expect(garbage.script.times.count == 1)
  }

  /// R36: the server never authorizes and the code lives 3 s: stop at ≈3 s, polls ≤ ceil(3/1)+1.
  @Test func codeLifetimeRunsOut() throws {
    let run = poll(Array(repeating: .pending, count: 10), interval: 1, expiresIn: 3)
    let error = try #require(throws: DeviceFlowError.self) { try run.result.get() }
    #expect(error.kind == .expired)
    #expect(run.script.times.count <= 4)
    #expect(run.script.times.count == 2)  // at 1.2 and 2.4; 3.6 would be past the deadline
    #expect(run.script.times.allSatisfy { $0 < run.start + 3 })
    #expect(approximately([clock.monotonic()], [run.start + 3]))
  }

  /// `--timeout` shorter than the code's life ends the wait sooner.
  @Test func maxWaitShortensTheDeadline() throws {
    let run = poll(Array(repeating: .pending, count: 10), interval: 1, expiresIn: 900, maxWait: 2)
    #expect(throws: DeviceFlowError(.expired, host: .gitHubDotCom)) { try run.result.get() }
    #expect(run.script.times.count == 1)
    #expect(approximately([clock.monotonic()], [run.start + 2]))
  }

  /// R38: `slow_down` to every poll stops after five in a row with a clock-drift hint.
  @Test func slowDownForeverStopsWithAClockDriftHint() throws {
    let run = poll(Array(repeating: .slowDown(), count: 20), expiresIn: 3600)
    let error = try #require(throws: DeviceFlowError.self) { try run.result.get() }
    #expect(error.kind == .clockDrift(slowDowns: 5))
    #expect(error.message.contains("the system clock is probably drifting"))
    #expect(run.script.times.count == 5)
  }

  /// A pending answer breaks the run of `slow_down`s.
  @Test func slowDownsInterruptedByPendingAreNotDrift() throws {
    let slow = PollScript.Answer.slowDown(interval: 1)
    let run = poll([slow, slow, slow, slow, .pending, slow, slow, .token], interval: 1, expiresIn: 3600)
    #expect(try run.result.get().accessToken == "gho_device")
  }

  /// Ctrl-C during a poll request ends the login like Ctrl-C while waiting.
  @Test func interruptDuringARequest() {
    let run = poll([.fail(.interrupted), .token])
    #expect(throws: LoginError(.interrupted, host: .gitHubDotCom)) { try run.result.get() }
    #expect(run.script.times.count == 1)
  }

  /// Ctrl-C (the stop descriptor readable) ends the wait before any poll: exit 130.
  @Test func interruptStopsPolling() throws {
    let stop = try TestPipe(signalled: true)
    let run = poll([.token], stopFD: stop.read)
    let error = try #require(throws: LoginError.self) { try run.result.get() }
    #expect(error == LoginError(.interrupted, host: .gitHubDotCom))
    #expect(error.exitStatus == .interrupted)
    #expect(run.script.times.isEmpty)
  }
}
