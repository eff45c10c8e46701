import Synchronization
import Testing

import GHLoginCore

/// Stubs and recordings shared by the device-flow tests.
package enum DeviceStub {
  package static let codeURL = "https://github.com/login/device/code"
  package static let tokenURL = "https://github.com/login/oauth/access_token"
  package static let userURL = "https://api.github.com/user"
  package static let app = OAuthApp(clientID: "Iv1.device", clientSecret: "app-secret", scopes: ["repo", "read:org"])
  package static let deviceCode = "3584d83530557fdd1f46af8289938c8ef79f9dc5"

  /// A `/login/device/code` answer with `members` over the defaults (a nil value removes one).
  package static func codeAnswer(_ members: [String: String?] = [:], status: Int = 200) -> HTTPResponse {
    var fields: [String: String] = [
      "device_code": "\"\(deviceCode)\"", "user_code": "\"WDJB-MJHT\"",
      "verification_uri": "\"https://github.com/login/device\"", "expires_in": "900", "interval": "5",
    ]
    for (key, value) in members { fields[key] = value }
    let body = fields.keys.sorted().map { "\"\($0)\":\(fields[$0] ?? "")" }.joined(separator: ",")
    return .json("{\(body)}", status: status)
  }

  /// A token-endpoint error body `{"error": code, ...}` (HTTP 200, as GitHub sends them).
  package static func oauthError(_ code: String, extra: String = "", status: Int = 200) -> HTTPResponse {
    .json("{\"error\":\"\(code)\",\"error_description\":\"d\"\(extra)}", status: status)
  }

  package static let token = HTTPResponse.json(#"{"access_token":"gho_device","token_type":"bearer","scope":"repo"}"#)
  package static let user = HTTPResponse.json(#"{"login":"octocat","id":1}"#, headers: [("X-OAuth-Scopes", "repo")])

  package static func endpoint(_ transport: FakeTransport) -> TokenEndpoint {
    TokenEndpoint(url: tokenEndpointURL, host: .gitHubDotCom, transport: transport)
  }

  package static var tokenEndpointURL: WebURL { GitHubHost.gitHubDotCom.defaultEndpoints.token }

  package static func authorization(interval: Int = 5, expiresIn: Int = 900) -> DeviceAuthorization {
    DeviceAuthorization(
      deviceCode: deviceCode, userCode: "WDJB-MJHT",
      verificationURI: WebURL(scheme: .https, host: "github.com", pathAndQuery: "/login/device"),
      expiresIn: expiresIn, interval: interval)
  }
}

/// Answers the token endpoint from a script, recording the monotonic time of each poll.
package final class PollScript: Sendable {
  /// One scripted answer.
  package enum Answer: Sendable {
    case respond(HTTPResponse)
    case fail(HTTPError)
  }

  private let state: TestLock<(answers: [Answer], times: [Double])>
  package let clock: ManualClock

  package init(clock: ManualClock, _ answers: [Answer]) {
    self.clock = clock
    state = TestLock((answers, []))
  }

  /// Stubs `POST tokenURL` on `transport` once per scripted answer; answers left when the poller
  /// stops are not a failure (the tests check `times`).
  package func install(on transport: FakeTransport) {
    let count = state.withLock { $0.answers.count }
    transport.on(
      "POST", DeviceStub.tokenURL, times: count,
      mayGoUnused: "a poll that stops (an error, a deadline) leaves the rest of the script; tests count the polls"
    ) { [self] _ in try next() }
  }

  private func next() throws -> HTTPResponse {
    let answer = state.withLock { state -> Answer in
      state.times.append(clock.monotonic())
      return state.answers.removeFirst()
    }
    switch answer {
    case .respond(let response): return response
    case .fail(let error): throw error
    }
  }

  /// The monotonic time of every poll, in order.
  package var times: [Double] { state.withLock { $0.times } }

  /// The gaps between consecutive polls, the first from `start`.
  package func gaps(from start: Double) -> [Double] {
    var previous = start
    return times.map { time in
      defer { previous = time }
      return time - previous
    }
  }
}

extension PollScript.Answer {
  package static var pending: Self { .respond(DeviceStub.oauthError("authorization_pending")) }
  package static var token: Self { .respond(DeviceStub.token) }
  package static func slowDown(interval: Int? = nil) -> Self {
    .respond(DeviceStub.oauthError("slow_down", extra: interval.map { ",\"interval\":\($0)" } ?? ""))
  }
}

/// Whether `a` and `b` are equal to within a microsecond each (sums of float waits are not exact).
package func approximately(_ a: [Double], _ b: [Double]) -> Bool {
  a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-6 }
}
