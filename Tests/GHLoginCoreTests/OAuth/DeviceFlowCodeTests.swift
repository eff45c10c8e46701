import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// The `/login/device/code` request and every shape of its answer (R33, R37).
@Suite(.verifiesFakes) struct DeviceFlowCodeTests {
  static let endpoint = GitHubHost.gitHubDotCom.defaultEndpoints.deviceCode

  func parse(_ response: HTTPResponse) throws -> DeviceAuthorization {
    try DeviceAuthorization.parse(response, host: .gitHubDotCom, endpoint: Self.endpoint)
  }

  func unavailable(_ reason: String) -> DeviceFlowError {
    DeviceFlowError(.unavailable(reason: reason), host: .gitHubDotCom)
  }

  @Test func readsAGoodAnswer() throws {
    let parsed = try parse(DeviceStub.codeAnswer())
    #expect(parsed.deviceCode == DeviceStub.deviceCode)
    #expect(parsed.userCode == "WDJB-MJHT")
    #expect(parsed.verificationURI.description == "https://github.com/login/device")
    #expect(parsed.expiresIn == 900)
    #expect(parsed.interval == 5)
    #expect(!parsed.description.contains(DeviceStub.deviceCode))
  }

  @Test func readsAFormEncodedAnswer() throws {
    let body =
      "device_code=abc&user_code=AB12-CD34&verification_uri=https%3A%2F%2Fghe.test%2Flogin%2Fdevice"
      + "&expires_in=60&interval=1"
    let parsed = try parse(.typed("application/x-www-form-urlencoded", body))
    #expect(parsed.userCode == "AB12-CD34")
    #expect(parsed.verificationURI.host == "ghe.test")
    #expect(parsed.expiresIn == 60)
    #expect(parsed.interval == 1)
  }

  /// R34 and nonsense values: a missing, zero, negative or non-numeric interval is 5 s.
  @Test(arguments: [nil, "0", "-3", "\"soon\"", "1.5"])
  func intervalDefaultsToFive(_ value: String?) throws {
    #expect(try parse(DeviceStub.codeAnswer(["interval": value])).interval == 5)
  }

  @Test func missingExpiresInDefaultsTo900() throws {
    #expect(try parse(DeviceStub.codeAnswer(["expires_in": nil])).expiresIn == 900)
  }

  @Test(arguments: ["0", "-1", "\"x\"", "true"])
  func unusableExpiresInIsRefused(_ value: String) {
    #expect(throws: DeviceFlowError(.invalidAnswer(reason: "an unusable expires_in"), host: .gitHubDotCom)) {
      try parse(DeviceStub.codeAnswer(["expires_in": value]))
    }
  }

  /// R37: 401/403/404/422 mean the host has no device flow; no polling follows.
  @Test(arguments: [401, 403, 404, 422])
  func unavailableStatuses(_ status: Int) throws {
    #expect(throws: unavailable("https://github.com/login/device/code answered HTTP \(status)")) {
      try parse(.json(#"{"message":"Not Found"}"#, status: status))
    }
    #expect(throws: unavailable("https://github.com/login/device/code answered HTTP \(status) without a device code")) {
      try parse(.typed("text/html", "<html>no</html>", status: status))
    }
  }

  @Test func unavailableMessageAndStatus() {
    let error = unavailable("https://github.com/login/device/code answered HTTP 404")
    #expect(
      error.message.hasPrefix(
        "the device flow is not available on github.com (https://github.com/login/device/code answered HTTP 404)"))
    #expect(error.exitStatus == .failure)
  }

  /// R37: a 200 without `verification_uri` (or an HTML page) is "unavailable" too.
  @Test func twoHundredWithoutVerificationURI() {
    #expect(throws: unavailable("https://github.com/login/device/code answered without a verification_uri")) {
      try parse(DeviceStub.codeAnswer(["verification_uri": nil]))
    }
    #expect(throws: unavailable("https://github.com/login/device/code answered HTTP 200 without a device code")) {
      try parse(.typed("text/html", "<html>login</html>"))
    }
  }

  @Test func aRedirectIsUnavailable() {
    #expect(throws: unavailable("https://github.com/login/device/code answered with a redirect")) {
      try parse(HTTPResponse(status: 302, headers: HTTPHeaders([("Location", "https://evil.test/")]), body: []))
    }
  }

  @Test(arguments: ["\"http://evil.test/login/device\"", "\"javascript:alert(1)\"", "\"/login/device\"", "42"])
  func unusableVerificationURI(_ value: String) {
    #expect(throws: DeviceFlowError.self) { try parse(DeviceStub.codeAnswer(["verification_uri": value])) }
  }

  @Test func verificationURIWithControlCharactersIsSanitizedInTheMessage() throws {
    let error = try #require(throws: DeviceFlowError.self) {
      try parse(DeviceStub.codeAnswer(["verification_uri": "\"https://x.test/\\u001b[31mred\""]))
    }
    #expect(!error.message.contains("\u{1B}"))
    #expect(error.message.contains("'https://x.test/[31mred' is not an https URL"))
  }

  /// R37: `device_flow_disabled`, HTTP 400 or 200, names the "Enable Device Flow" setting.
  @Test(arguments: [200, 400])
  func deviceFlowDisabled(_ status: Int) throws {
    let error = try #require(throws: DeviceFlowError.self) {
      try parse(DeviceStub.oauthError("device_flow_disabled", status: status))
    }
    #expect(error.kind == .disabled)
    #expect(
      error.message.hasPrefix(
        "the OAuth app does not allow the device flow on github.com: tick \"Enable Device Flow\" in the app's "
          + "settings (https://github.com/settings/developers)"))
    #expect(error.exitStatus == .failure)
  }

  @Test func incorrectClientCredentialsFailsNamingTheConfig() throws {
    let error = try #require(throws: TokenError.self) {
      try parse(DeviceStub.oauthError("incorrect_client_credentials"))
    }
    #expect(error.exitStatus == .failure)
    #expect(error.configKeys == ["client_id", "client_secret"])
    #expect(error.message(configFile: "/cfg.json", remedies: .words).contains("in /cfg.json"))
  }

  @Test func otherOAuthErrorsAreReportedSanitized() throws {
    let error = try #require(throws: DeviceFlowError.self) {
      try parse(.json(#"{"error":"weird\u001b]0;x","error_description":"no \u001b[2Jway"}"#))
    }
    #expect(error.message == "github.com refused the device-code request: error 'weird]0;x': no [2Jway")
    #expect(error.exitStatus == .failure)
  }

  @Test func serverErrorIsAFailure() throws {
    let error = try #require(throws: TokenError.self) { try parse(.typed("text/html", "oops", status: 503)) }
    #expect(error.kind == .httpStatus(503))
    #expect(error.exitStatus == .failure)
  }

  @Test(
    arguments: [
      ("device_code", nil), ("device_code", "\"\""), ("device_code", "\"a b\""), ("device_code", "7"),
      ("user_code", nil), ("user_code", "\"\\u001b[31m\""), ("user_code", "\"\(String(repeating: "A", count: 65))\""),
    ] as [(String, String?)])
  func unusableCodes(_ member: String, _ value: String?) {
    #expect(throws: DeviceFlowError(.invalidAnswer(reason: "a missing or unusable \(member)"), host: .gitHubDotCom)) {
      try parse(DeviceStub.codeAnswer([member: value]))
    }
  }

  /// R33: the code request carries `client_id` and `scope`, never the client secret.
  @Test func requestCarriesNoSecret() throws {
    let transport = FakeTransport()
    transport.on("POST", DeviceStub.codeURL, respond: DeviceStub.codeAnswer())
    let endpoint = TokenEndpoint(url: Self.endpoint, host: .gitHubDotCom, transport: transport)
    _ = try DeviceFlow.requestCode(app: DeviceStub.app, endpoint: endpoint)
    let request = try #require(transport.requests.first)
    #expect(request.formParameters.map(\.name) == ["client_id", "scope"])
    #expect(request.formParameters.last?.value == "repo read:org")
    #expect(!String(decoding: request.body, as: UTF8.self).contains("secret"))
    #expect(request.headers["Accept"] == "application/json")
    #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
  }

  @Test func noScopesMeansNoScopeParameter() {
    #expect(DeviceFlow.codeParameters(app: OAuthApp(clientID: "c")).map(\.0) == ["client_id"])
  }
}
