/// A browser login that ended without a token to store.
///
/// Messages quote server text only sanitized, and never a code, state, verifier or token.
package struct LoginError: ConfigSettingError, Equatable {
  /// How the login ended.
  package enum Kind: Sendable, Equatable {
    /// No valid callback before the deadline.
    case timedOut(seconds: Int)
    /// The user interrupted (SIGINT) while waiting.
    case interrupted
    /// The authorization server redirected back an error with the right state (R21).
    case authorizationError(AuthorizationErrorResponse)
    /// `/user` named another account than the one asked for (R24).
    case userMismatch(expected: String, actual: String)
  }

  package var kind: Kind
  package var host: GitHubHost
  package init(_ kind: Kind, host: GitHubHost) {
    self.kind = kind
    self.host = host
  }

  /// The setting to check when the authorize request itself was refused; the reporting layer names the file.
  package var configKeys: [String] {
    guard case .authorizationError(let response) = kind, let key = Self.requestRefusals[response.error] else {
      return []
    }
    return [key]
  }

  /// The setting to check for each refusal of the authorize request itself (RFC 6749 §4.1.2.1,
  /// R85): retrying cannot help, the configuration (or the server) is wrong.
  static let requestRefusals: [String: String] = [
    "invalid_request": "authorize_url",
    "unsupported_response_type": "authorize_url",
    "unauthorized_client": "client_id",
    "invalid_scope": "scopes",
  ]

  package var exitStatus: ExitStatus {
    switch kind {
    case .interrupted: return .interrupted
    case .authorizationError(let response) where Self.requestRefusals[response.error] != nil: return .usage
    default: return .failure
    }
  }

  package var errorKind: ErrorKind {
    switch kind {
    case .timedOut: .timedOut
    case .interrupted: .cancelled
    case .authorizationError(let response) where Self.requestRefusals[response.error] != nil: .configuration
    case .authorizationError: .denied
    case .userMismatch: .wrongAccount
    }
  }

  package func message(configFile: String?, remedies: Remedies) -> String {
    switch kind {
    case .timedOut(let seconds):
      return "timed out after \(DurationText.spoken(Double(seconds))) waiting for the browser; nothing was stored. "
        + "If the browser showed a redirect_uri error, the app's callback URL must be http://127.0.0.1/callback"
    case .interrupted:
      return "interrupted; nothing was stored"
    case .authorizationError(let response):
      return Self.message(for: response, host: host, configFile: configFile, remedies: remedies)
    case .userMismatch(let expected, let actual):
      return "logged in to \(host) as \(Sanitize.terminal(actual)), but \(Sanitize.terminal(expected)) was asked for; "
        + "nothing was stored. Switch accounts in the browser and \(remedies.retry(host: host.name))"
    }
  }

  /// Short text for the result page: what went wrong, without guidance meant for the terminal.
  var pageReason: String {
    switch kind {
    case .authorizationError(let response):
      return Self.described(response)
    case .userMismatch(let expected, let actual):
      return "you logged in as \(actual), but \(expected) was asked for. Nothing was stored."
    default:
      return message
    }
  }

  /// `error: description`, sanitized.
  private static func described(_ response: AuthorizationErrorResponse) -> String {
    var text = Sanitize.terminal(response.error, maxCharacters: 80)
    if let description = response.description, !description.isEmpty { text += ": " + Sanitize.terminal(description) }
    return text
  }

  private static func message(
    for response: AuthorizationErrorResponse, host: GitHubHost, configFile: String?, remedies: Remedies
  ) -> String {
    let retry = remedies.retry(host: host.name)
    let detail = described(response)
    if let setting = requestRefusals[response.error] {
      let file = shown(configFile)
      let why =
        switch setting {
        case "client_id": " in \(file): the app must be allowed the authorization code flow"
        case "scopes":
          " in \(file)\(remedies.option(.scopes).map { " (or \($0))" } ?? ""): every scope must be one the server knows"
        default: " in \(file): it must be the server's OAuth authorization endpoint"
        }
      return "\(host) refused the authorize request (\(detail)); this is a configuration problem, "
        + "retrying will not help: check \(remedies.quoted(key: setting))\(why)"
    }
    switch response.error {
    case "access_denied":
      return
        "the login to \(host) was denied in the browser (\(detail)); \(retry) to retry"
    case "application_suspended":
      return "the OAuth app is suspended on \(host) (\(detail)); ask its owner, or configure another client_id"
    case "redirect_uri_mismatch":
      return "\(host) rejected the redirect URI (\(detail)); the app's callback URL must be "
        + "http://127.0.0.1/callback"
    default:
      return "\(host) refused the authorization (\(detail)); \(retry)"
    }
  }
}
