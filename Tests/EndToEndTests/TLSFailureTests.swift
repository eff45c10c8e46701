import Foundation
import Testing

/// TLS failures stop before any request byte is sent, with a message that says which check
/// failed (R69–R71).
@Suite struct TLSFailureTests {
  /// Which trust store ghlogin gets in `SSL_CERT_FILE`.
  enum Trust: Sendable {
    /// The test CA that signed the fake's `server` certificate.
    case testCA
    /// The fake's self-signed certificate (a CA that did not sign `server`).
    case selfSigned
    /// A file that does not exist (and `SSL_CERT_DIR` empty).
    case nonexistent
  }

  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let certName: String
    let fakeArgs: [String]
    let trust: Trust
    /// What follows `ghlogin: TLS connection to api.github.test failed: `.
    let reason: String

    var testDescription: String { name }
  }

  static let privateCAHint = " (if the server uses a private CA, point SSL_CERT_FILE at its PEM bundle)"

  static let cases: [Case] = [
    Case(
      name: "T71 certificate for another host", certName: "wronghost", fakeArgs: [], trust: .testCA,
      reason: "certificate verify failed: hostname mismatch"),
    Case(
      name: "expired certificate", certName: "expired", fakeArgs: [], trust: .testCA,
      reason: "certificate verify failed: certificate has expired"),
    Case(
      name: "T72 self-signed certificate", certName: "selfsigned", fakeArgs: [], trust: .testCA,
      reason: "certificate verify failed: self-signed certificate" + privateCAHint),
    Case(
      name: "T72 SSL_CERT_FILE holds a CA that did not sign it", certName: "server", fakeArgs: [],
      trust: .selfSigned, reason: "certificate verify failed: unable to get local issuer certificate" + privateCAHint),
    Case(
      name: "T73 SSL_CERT_FILE does not exist", certName: "server", fakeArgs: [], trust: .nonexistent,
      reason: "certificate verify failed: unable to get local issuer certificate" + privateCAHint),
    Case(
      name: "T74 server speaks at most TLS 1.1", certName: "server", fakeArgs: ["--tls-max", "1.1"], trust: .testCA,
      reason: "tlsv1 alert protocol version"),
  ]

  static func certFile(_ trust: Trust, fake: FakeGitHub) -> [String: String] {
    switch trust {
    case .testCA: [:]
    case .selfSigned: ["SSL_CERT_FILE": fake.certDir + "/selfsigned.pem"]
    case .nonexistent: ["SSL_CERT_FILE": fake.certDir + "/nonexistent.pem", "SSL_CERT_DIR": ""]
    }
  }

  /// `whoami` with a stored token: the handshake with api.github.test fails, exit 1, and the
  /// fake saw a connection but not one request.
  @Test(arguments: cases)
  func whoamiStopsBeforeSendingAnything(_ testCase: Case) async throws {
    let scenario = try await Scenario.start(certName: testCase.certName, fakeArgs: testCase.fakeArgs)
    let token = "gho_tlsTestToken0123456789abcdefghijkl"
    try scenario.seedLogin(token: token)
    let before = scenario.sandbox.credentialsBytes()

    let run = try await scenario.run(["whoami"], env: Self.certFile(testCase.trust, fake: scenario.fake))
    #expect(run.status == 1, "\(run)")
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "ghlogin: identity check at api_url \(scenario.fake.apiBase)/: TLS connection to api.github.test failed: "
        + "\(testCase.reason)\n")
    let connections = try scenario.fake.connections()
    #expect(connections.count == 1, "\(connections)")
    #expect(connections.allSatisfy { $0["requests"] as? Int == 0 }, "\(connections)")
    #expect(connections.allSatisfy { $0["tls"] as? String == "failed" }, "\(connections)")
    #expect(try scenario.fake.requests().isEmpty)
    #expect(scenario.sandbox.credentialsBytes() == before)
    expectNoSecrets([token], in: [run.stderr])
  }

  /// R71 the other way: trusting the self-signed certificate itself makes it work (the API is
  /// reached under /api/v3 on github.test, the one name that certificate holds).
  @Test func trustingTheSelfSignedCertificateWorks() async throws {
    let scenario = try await Scenario.start(certName: "selfsigned")
    try scenario.sandbox.writeConfig(["api_url": scenario.fake.webBase + "/api/v3"])
    try scenario.seedLogin(token: "gho_selfSignedTrust0123456789abcdefgh")
    let run = try await scenario.run(["whoami"], env: Self.certFile(.selfSigned, fake: scenario.fake))
    #expect(run.status == 0, "\(run)")
    #expect(run.stdout == "octocat (The Octocat) on github.test\n")
  }

  /// The code exchange against a token endpoint with a certificate for another host: exit 1,
  /// nothing stored, and the code never reached either server's token endpoint.
  @Test func tokenEndpointWithWrongCertificateGetsNoCode() async throws {
    let scenario = try await Scenario.start()
    let bad = try await offload { try FakeGitHub.start(certName: "wronghost") }
    try scenario.sandbox.writeConfig(["token_url": bad.webBase + "/login/oauth/access_token"])
    let resolve = scenario.fake.resolveValue + "," + bad.resolveValue
    let (run, browser, _) = try await scenario.login(env: ["GHLOGIN_TEST_RESOLVE": resolve])
    #expect(run.status == 1, "\(run)")
    #expect(
      run.stderr.hasSuffix(
        "ghlogin: token exchange at token_url \(bad.webBase)/login/oauth/access_token: TLS connection to github.test "
          + "failed: certificate verify failed: hostname mismatch\n"),
      "\(run)")
    #expect(browser.callbackBody?.contains("Login failed") == true)
    expectNothingStored(scenario)
    #expect(try bad.requests().isEmpty)
    #expect(try bad.connections().allSatisfy { $0["requests"] as? Int == 0 })
    #expect(try scenario.tokenRequests().isEmpty)
    let code = try #require(browser.issuedCode)
    expectNoSecrets([code, testClientSecret], in: [run.stdout, run.stderr])
    let stopping = bad
    Thread { stopping.stop() }.start()
  }
}
