/// The answer of `/login/device/code` (RFC 8628 §3.2), validated (R37, R39).
///
/// `description` hides the device code, the secret half of the pair.
package struct DeviceAuthorization: Sendable, Equatable, CustomStringConvertible {
  /// The code polled with; never shown.
  package var deviceCode: String
  /// The code the user types on the verification page (`XXXX-XXXX` on GitHub).
  package var userCode: String
  /// Where the user enters the code, parsed strictly (https, or http to a loopback test server).
  package var verificationURI: WebURL
  /// Seconds the codes live (from the answer, at most an hour; 900 when absent).
  package var expiresIn: Int
  /// The minimum seconds between polls (5 when absent, RFC 8628 §3.2; at most 300).
  package var interval: Int

  package init(deviceCode: String, userCode: String, verificationURI: WebURL, expiresIn: Int, interval: Int) {
    self.deviceCode = deviceCode
    self.userCode = userCode
    self.verificationURI = verificationURI
    self.expiresIn = expiresIn
    self.interval = interval
  }

  package var description: String {
    "DeviceAuthorization(deviceCode: <redacted>, userCode: \(userCode), verificationURI: \(verificationURI), "
      + "expiresIn: \(expiresIn), interval: \(interval))"
  }

  /// The interval when the answer has none, or a nonsensical one (RFC 8628 §3.2).
  static let defaultInterval = 5
  /// The lifetime when the answer has none (GitHub's is 900 s).
  static let defaultExpiresIn = 900
  /// The longest device or user code accepted.
  static let maxCodeLength = 512
  /// Statuses that mean the host has no device flow (cli/oauth treats them so).
  static let unavailableStatuses: Set<Int> = [401, 403, 404, 422]

  /// Reads the answer of `endpoint` for `host` (R37).
  ///
  /// An OAuth `error` wins whatever the status: `device_flow_disabled` → ``DeviceFlowFailure/disabled``,
  /// `incorrect_client_credentials` → ``TokenError`` (a configuration error), others
  /// ``DeviceFlowFailure/refused(_:)``. Then 401/403/404/422, a redirect, or a 2xx without
  /// a usable `verification_uri` → ``DeviceFlowFailure/unavailable(reason:)``; any other
  /// non-2xx → ``TokenError`` `httpStatus`; a bad code or number → `invalidAnswer`.
  package static func parse(
    _ response: HTTPResponse, host: GitHubHost, endpoint: WebURL
  ) throws -> DeviceAuthorization {
    func unavailable(_ reason: String) -> DeviceFlowError { DeviceFlowError(.unavailable(reason: reason), host: host) }
    func invalid(_ reason: String) -> DeviceFlowError { DeviceFlowError(.invalidAnswer(reason: reason), host: host) }
    if (300...399).contains(response.status) { throw unavailable("\(endpoint) answered with a redirect") }
    let fields: TokenFields
    do { fields = try TokenFields(response) } catch {
      if (200...299).contains(response.status) || unavailableStatuses.contains(response.status) {
        throw unavailable("\(endpoint) answered HTTP \(response.status) without a device code")
      }
      throw TokenError(.httpStatus(response.status), host: host, endpoint: endpoint)
    }
    if let code = fields.errorCode {
      let body = OAuthErrorBody(
        code: code, description: fields.string("error_description"), uri: fields.string("error_uri"))
      switch code {
      case "device_flow_disabled": throw DeviceFlowError(.disabled, host: host)
      case "incorrect_client_credentials":
        throw TokenError(.oauth(body), host: host, endpoint: endpoint)
      default: throw DeviceFlowError(.refused(body), host: host)
      }
    }
    if unavailableStatuses.contains(response.status) {
      throw unavailable("\(endpoint) answered HTTP \(response.status)")
    }
    guard (200...299).contains(response.status) else {
      throw TokenError(.httpStatus(response.status), host: host, endpoint: endpoint)
    }
    guard let uriText = fields.string("verification_uri"), !uriText.isEmpty else {
      throw unavailable("\(endpoint) answered without a verification_uri")
    }
    guard let uri = try? WebURL(parsing: uriText), uri.scheme == .https || uri.isLoopback else {
      throw unavailable("the verification_uri '\(Sanitize.terminal(uriText, maxCharacters: 100))' is not an https URL")
    }
    guard let deviceCode = fields.string("device_code"), isUsableCode(deviceCode) else {
      throw invalid("a missing or unusable device_code")
    }
    guard let userCode = fields.string("user_code"), isUsableCode(userCode), userCode.utf8.count <= 64 else {
      throw invalid("a missing or unusable user_code")
    }
    var expiresIn = defaultExpiresIn
    if fields.has("expires_in") {
      // Clamped to an hour (R89, ``ServerDuration``): 2^63 used to trap before the first poll.
      guard let seconds = fields.seconds("expires_in", max: ServerDuration.maxDeviceCodeLifetime), seconds > 0 else {
        throw invalid("an unusable expires_in")
      }
      expiresIn = seconds
    }
    var interval = defaultInterval
    if let seconds = fields.seconds("interval", max: ServerDuration.maxPollInterval), seconds > 0 { interval = seconds }
    return DeviceAuthorization(
      deviceCode: deviceCode, userCode: userCode, verificationURI: uri, expiresIn: expiresIn, interval: interval)
  }

  /// Whether a device or user code can be sent in a form and shown: 1–512 visible ASCII characters.
  static func isUsableCode(_ code: String) -> Bool {
    !code.isEmpty && code.utf8.count <= maxCodeLength && code.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
  }
}

/// The device authorization grant (RFC 8628): its request parameters and the code request.
///
/// No `client_secret` is ever sent, neither for the code nor for the polls (R33).
enum DeviceFlow {
  /// The `grant_type` of a device-code poll.
  static let grantType = "urn:ietf:params:oauth:grant-type:device_code"

  /// `client_id` and, when any, `scope` (space-separated) for `/login/device/code`.
  static func codeParameters(app: OAuthApp) -> [(String, String)] {
    var params = [("client_id", app.clientID)]
    if !app.scopes.isEmpty { params.append(("scope", app.scopes.joined(separator: " "))) }
    return params
  }

  /// `client_id`, `device_code` and `grant_type` for one poll of the token endpoint.
  static func pollParameters(app: OAuthApp, deviceCode: String) -> [(String, String)] {
    [("client_id", app.clientID), ("device_code", deviceCode), ("grant_type", grantType)]
  }

  /// POSTs the code request to `endpoint` (whose `url` is the device-code URL) once and reads it.
  ///
  /// Throws what ``DeviceAuthorization/parse(_:host:endpoint:)`` throws,
  /// ``InsecureEndpointError``, or a network failure as an ``EndpointRequestError``
  /// ("device code request at device_code_url https://…: …"); a ``TokenError`` names that step.
  static func requestCode(app: OAuthApp, endpoint: TokenEndpoint) throws -> DeviceAuthorization {
    try EndpointStep("device code request", setting: .deviceCodeURL, url: endpoint.url).run {
      try DeviceAuthorization.parse(
        endpoint.send(codeParameters(app: app)), host: endpoint.host, endpoint: endpoint.url)
    }
  }
}
