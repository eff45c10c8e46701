import Testing

import GHLoginTestSupport

@testable import GHLoginCore

@Suite struct CallbackTests {
  static let state = "Zk3v1x_QbN-7yTq0P2aLc9RmWs4EoUh6JdGf8KiXn5B"
  let validator = CallbackValidator(port: 4242, state: state)
  let host = HTTPHeaders([("Host", "127.0.0.1:4242")])

  @Test func acceptsTheRealCallback() {
    #expect(
      validator.decide(method: "GET", target: "/callback?code=abc123&state=\(Self.state)", headers: host)
        == .accept(code: "abc123"))
    // Parameter order and unrelated parameters do not matter.
    #expect(
      validator.decide(method: "GET", target: "/callback?state=\(Self.state)&code=c&x=1", headers: host)
        == .accept(code: "c"))
    // A percent-encoded state decodes exactly once.
    #expect(
      validator.decide(
        method: "GET", target: "/callback?code=c&state=Zk3v1x%5FQbN-7yTq0P2aLc9RmWs4EoUh6JdGf8KiXn5B", headers: host)
        == .accept(code: "c"))
  }

  /// R13: parameters such as `next` are ignored; never a redirect.
  @Test func ignoresRedirectParameters() {
    #expect(
      validator.decide(
        method: "GET", target: "/callback?code=c&state=\(Self.state)&next=https%3A%2F%2Fevil.test", headers: host)
        == .accept(code: "c"))
  }

  /// R7: only exactly /callback.
  @Test(arguments: [
    "/favicon.ico", "/", "/callback/../x", "/callback/", "/Callback?code=c", "/%63allback?code=c", "/callbackx",
    "http://127.0.0.1:4242/callback?code=c", "*", "//callback",
  ])
  func otherPathsAreNotFound(target: String) {
    #expect(
      validator.decide(method: "GET", target: target, headers: host) == .reject(status: 404, reason: "Not found."))
  }

  @Test(arguments: ["POST", "HEAD", "PUT", "get"])
  func otherMethodsAreRefused(method: String) {
    #expect(
      validator.decide(method: method, target: "/callback?code=c&state=\(Self.state)", headers: host)
        == .reject(status: 405, reason: "Only GET is allowed here."))
  }

  /// R10: Host must be exactly 127.0.0.1:PORT, checked before anything else.
  @Test(arguments: [
    [("Host", "evil.test:4242")], [("Host", "localhost:4242")], [("Host", "127.0.0.1")], [("Host", "127.0.0.1:4243")],
    [("Host", "127.0.0.1:4242 ")], [], [("Host", "127.0.0.1:4242"), ("Host", "127.0.0.1:4242")],
    [("Host", "127.0.0.1:04242")],
  ])
  func foreignHostIsRefused(fields: [(String, String)]) {
    let headers = HTTPHeaders(fields.map { (name: $0.0, value: $0.1) })
    #expect(
      validator.decide(method: "GET", target: "/callback?code=c&state=\(Self.state)", headers: headers)
        == .reject(status: 400, reason: "This request was not addressed to 127.0.0.1:4242."))
    #expect(
      validator.decide(method: "POST", target: "/favicon.ico", headers: headers)
        == .reject(status: 400, reason: "This request was not addressed to 127.0.0.1:4242."))
  }

  @Test func hostHeaderNameIsCaseInsensitive() {
    #expect(
      validator.decide(
        method: "GET", target: "/callback?code=c&state=\(Self.state)",
        headers: HTTPHeaders([("hOsT", "127.0.0.1:4242")])) == .accept(code: "c"))
  }

  /// R8, R9, R12, R21, R83 and malformed queries: the exact outcome of each.
  @Test(arguments: [
    ("/callback?code=c", 400, "The callback has no state; this login did not start it."),  // R8
    ("/callback?code=c&state=", 400, "The callback has no state; this login did not start it."),
    ("/callback", 400, "The callback has no state; this login did not start it."),
    ("/callback?code=c&state=WRONG", 400, "The callback's state does not match this login."),  // R8
    ("/callback?code=c&state=\(state)x", 400, "The callback's state does not match this login."),
    ("/callback?code=c&state=\(state.dropLast())", 400, "The callback's state does not match this login."),
    ("/callback?code=c&state=\(state.lowercased())", 400, "The callback's state does not match this login."),
    ("/callback?error=access_denied&state=WRONG", 400, "The callback's state does not match this login."),  // R8
    ("/callback?error=access_denied", 400, "The callback has no state; this login did not start it."),
    ("/callback?code=a&code=b&state=\(state)", 400, "The callback repeats a parameter."),  // R9
    ("/callback?state=x&state=\(state)&code=c", 400, "The callback repeats a parameter."),  // R9
    ("/callback?state=\(state)&state=\(state)&code=c", 400, "The callback repeats a parameter."),
    ("/callback?code=c&state=\(state)&x=1&x=2", 400, "The callback repeats a parameter."),
    ("/callback?code=c%ZZ&state=\(state)", 400, "The callback query is not correctly encoded."),
    ("/callback?code=c%2&state=\(state)", 400, "The callback query is not correctly encoded."),
    ("/callback?code=%FF&state=\(state)", 400, "The callback query is not correctly encoded."),
    ("/callback?state=\(state)", 400, "The callback has no authorization code."),
    ("/callback?code=&state=\(state)", 400, "The callback has no authorization code."),
    ("/callback?code=a%20b&state=\(state)", 400, "The authorization code is not valid."),
    ("/callback?code=a%0Ab&state=\(state)", 400, "The authorization code is not valid."),
    (
      "/callback?code=\(String(repeating: "a", count: 513))&state=\(state)", 400, "The authorization code is not valid."
    ),
    ("/callback?code=c&error=access_denied&state=\(state)", 400, "The callback has both a code and an error."),
  ])
  func rejects(target: String, status: Int, reason: String) {
    #expect(validator.decide(method: "GET", target: target, headers: host) == .reject(status: status, reason: reason))
  }

  @Test func doubleEncodedStateIsDecodedOnlyOnce() {
    let validator = CallbackValidator(port: 4242, state: "a%41")
    #expect(
      validator.decide(method: "GET", target: "/callback?code=c&state=a%2541", headers: host) == .accept(code: "c"))
    #expect(
      validator.decide(method: "GET", target: "/callback?code=c&state=aA", headers: host)
        == .reject(status: 400, reason: "The callback's state does not match this login."))
  }

  /// R12, R21, R83: an error with the right state ends the login, values as received.
  @Test func authorizationErrorWithMatchingState() {
    let target =
      "/callback?error=access_denied&error_description=%3Cscript%3Ealert(1)%3C%2Fscript%3E&error_uri=https%3A%2F%2Fdocs&state=\(Self.state)"
    #expect(
      validator.decide(method: "GET", target: target, headers: host)
        == .authorizationError(
          AuthorizationErrorResponse(
            error: "access_denied", description: "<script>alert(1)</script>", uri: "https://docs")))
    #expect(
      validator.decide(
        method: "GET", target: "/callback?error=application_suspended&state=\(Self.state)", headers: host)
        == .authorizationError(AuthorizationErrorResponse(error: "application_suspended")))
  }

  @Test func rejectionReasonsNeverEchoTheRequest() {
    let targets = [
      "/callback?code=SECRETCODE&state=WRONGSTATE", "/x?code=SECRETCODE",
      "/callback?code=SECRETCODE&code=SECRETCODE&state=\(Self.state)",
    ]
    for target in targets {
      guard case .reject(_, let reason) = validator.decide(method: "GET", target: target, headers: host) else {
        Issue.record("expected a rejection for \(target)")
        continue
      }
      #expect(!reason.contains("SECRETCODE"))
      #expect(!reason.contains("WRONGSTATE"))
    }
  }
}
