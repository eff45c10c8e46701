import GHLoginKit

/// GitHub's answers to the requests of a login, for a ``ScriptedTransport``'s queue.
extension GitHubLoginResponse {
  /// The device-code endpoint's answer (`POST /login/device/code`): the code the user types
  /// (`userCode`) and the page to type it on.
  public static func deviceCode(
    userCode: String = "WDJB-MJHT", deviceCode: String = "device-code",
    verificationURI: String = "https://github.com/login/device", expiresIn: Int = 900, interval: Int = 5
  ) -> GitHubLoginResponse {
    .json(
      "{\"device_code\":\(quoted(deviceCode)),\"user_code\":\(quoted(userCode)),"
        + "\"verification_uri\":\(quoted(verificationURI)),\"expires_in\":\(expiresIn),\"interval\":\(interval)}")
  }

  /// The token endpoint's answer with a token (`POST /login/oauth/access_token`: a code
  /// exchange, a device-flow poll or a refresh). With `expiresIn` the token expires (a GitHub
  /// App's user token), and `refreshToken` renews it.
  public static func accessToken(
    _ token: String = "gho_test", scope: String = "", refreshToken: String? = nil, expiresIn: Int? = nil,
    refreshTokenExpiresIn: Int? = nil
  ) -> GitHubLoginResponse {
    var fields = ["\"access_token\":\(quoted(token))", "\"token_type\":\"bearer\"", "\"scope\":\(quoted(scope))"]
    if let expiresIn { fields.append("\"expires_in\":\(expiresIn)") }
    if let refreshToken { fields.append("\"refresh_token\":\(quoted(refreshToken))") }
    if let refreshTokenExpiresIn { fields.append("\"refresh_token_expires_in\":\(refreshTokenExpiresIn)") }
    return .json("{" + fields.joined(separator: ",") + "}")
  }

  /// An OAuth error from the token endpoint: `authorization_pending` and `slow_down` while a
  /// device login waits, `access_denied`, `expired_token`, `bad_verification_code`,
  /// `invalid_grant`... GitHub answers them with status 200; RFC 6749 servers with 400.
  public static func oauthError(_ error: String, description: String? = nil, status: Int = 200) -> GitHubLoginResponse {
    var fields = ["\"error\":\(quoted(error))"]
    if let description { fields.append("\"error_description\":\(quoted(description))") }
    return .json("{" + fields.joined(separator: ",") + "}", status: status)
  }

  /// The API's `GET /user`: the account the token belongs to. `scopes` becomes the
  /// `X-OAuth-Scopes` header (the scopes granted; an OAuth app's tokens have it).
  public static func user(login: String = "octocat", id: Int = 1, name: String? = nil, scopes: String? = nil)
    -> GitHubLoginResponse
  {
    var fields = ["\"login\":\(quoted(login))", "\"id\":\(id)"]
    if let name { fields.append("\"name\":\(quoted(name))") }
    return .json("{" + fields.joined(separator: ",") + "}", headers: scopes.map { [("X-OAuth-Scopes", $0)] } ?? [])
  }

  /// `text` as a JSON string literal.
  private static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
