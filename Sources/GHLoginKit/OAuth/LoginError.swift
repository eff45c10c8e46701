/// A browser login that ended without a token to store.
///
/// Messages quote server text only sanitized, and never a code, state, verifier or token.
struct LoginError: ReportableError, Equatable {
  /// How the login ended.
  enum Kind: Sendable, Equatable {
    /// No valid callback before the deadline.
    case timedOut(seconds: Int)
    /// The user interrupted (SIGINT) while waiting.
    case interrupted
    /// The authorization server redirected back an error with the right state (R21).
    case authorizationError(AuthorizationErrorResponse)
    /// `/user` named another account than the one asked for (R24).
    case userMismatch(expected: String, actual: String)
  }

  var kind: Kind
  var host: GitHubHost

  init(_ kind: Kind, host: GitHubHost) {
    self.kind = kind
    self.host = host
  }

  var exitStatus: ExitStatus {
    if case .interrupted = kind { return .interrupted }
    return .failure
  }

  var message: String {
    switch kind {
    case .timedOut(let seconds):
      return "timed out after \(seconds) seconds waiting for the browser; nothing was stored. "
        + "If the browser showed a redirect_uri error, the app's callback URL must be http://127.0.0.1/callback"
    case .interrupted:
      return "interrupted; nothing was stored"
    case .authorizationError(let response):
      return Self.message(for: response, host: host)
    case .userMismatch(let expected, let actual):
      return "logged in to \(host) as \(Sanitize.terminal(actual)), but \(Sanitize.terminal(expected)) was asked for; "
        + "nothing was stored. Switch accounts in the browser and run 'ghlogin auth' again"
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

  private static func message(for response: AuthorizationErrorResponse, host: GitHubHost) -> String {
    let detail = described(response)
    switch response.error {
    case "access_denied":
      return "the login to \(host) was denied in the browser (\(detail)); run 'ghlogin auth' again to retry"
    case "application_suspended":
      return "the OAuth app is suspended on \(host) (\(detail)); ask its owner, or configure another client_id"
    case "redirect_uri_mismatch":
      return "\(host) rejected the redirect URI (\(detail)); the app's callback URL must be "
        + "http://127.0.0.1/callback"
    default:
      return "\(host) refused the authorization (\(detail)); run 'ghlogin auth' again"
    }
  }
}
