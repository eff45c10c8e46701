/// A token that needed a refresh and could not be given one (R44).
///
/// Messages name the host and account, and quote other errors only through their own
/// (already secret-free, sanitized) messages, rendered in the voice of whoever shows this one:
/// the inner error is kept, not its words. Never a token or refresh token.
package typealias RefreshError = HostError<RefreshFailure>

/// Why a token that needed a refresh could not be given one (``RefreshError``).
package enum RefreshFailure: HostErrorMessage {
  /// The refresh token is dead (rejected, or past its expiry) or the account was already
  /// marked expired: log in again. Exit 4.
  case sessionExpired
  /// The token has expired and the refresh failed for a reason that may pass (network,
  /// server error) or that the config must fix: that error, whose exit status and kind this
  /// one takes. Nothing was changed.
  case failed(any ReportableError)
  /// The token has expired and no `client_id` is configured to refresh it with. Exit 2.
  case noClientID(configFile: String)
  /// The token has expired and the login `login` was issued by another OAuth app (`issuer`)
  /// than the one configured (`configured`): its refresh token is not sent with another app's
  /// credentials (SECURITY.md, "Two apps on one host"), so only a login with the configured app helps. Nothing was
  /// sent or changed. Exit 4.
  case otherApp(login: String, issuer: String, configured: String)
  /// The account disappeared from the credentials file (another ghlogin logged it out). Exit 4.
  case accountGone(login: String)
  /// The server issued a new pair but it could not be stored (the store's error): it is not
  /// used (R42), and the refresh token it replaced is spent. Exit 1.
  case notSaved(any ReportableError)

  /// Equal cases; inner errors are equal when they say the same in words, with the same exit
  /// status and kind.
  package static func == (lhs: RefreshFailure, rhs: RefreshFailure) -> Bool {
    func same(_ left: any ReportableError, _ right: any ReportableError) -> Bool {
      left.message == right.message && left.exitStatus == right.exitStatus && left.errorKind == right.errorKind
    }
    switch (lhs, rhs) {
    case (.sessionExpired, .sessionExpired): return true
    case (.failed(let left), .failed(let right)), (.notSaved(let left), .notSaved(let right)):
      return same(left, right)
    case (.noClientID(let left), .noClientID(let right)): return left == right
    case (.otherApp(let a, let b, let c), .otherApp(let d, let e, let f)): return (a, b, c) == (d, e, f)
    case (.accountGone(let left), .accountGone(let right)): return left == right
    default: return false
    }
  }

  package var exitStatus: ExitStatus {
    switch self {
    case .sessionExpired, .accountGone, .otherApp: .notLoggedIn
    case .failed(let cause): cause.exitStatus
    case .noClientID: .usage
    case .notSaved: .failure
    }
  }

  package var errorKind: ErrorKind {
    switch self {
    case .sessionExpired: .tokenRejected
    case .accountGone, .otherApp: .notLoggedIn
    case .failed(let cause): cause.errorKind
    case .noClientID: .configuration
    case .notSaved: .store
    }
  }

  package func message(host: GitHubHost, _ remedies: Remedies) -> String {
    let logIn = remedies.logIn(host: host.name)
    switch self {
    case .sessionExpired:
      return "the session for \(host) expired; \(logIn)"
    case .failed(let cause):
      return "the token for \(host) has expired and could not be refreshed: \(cause.message(remedies)). "
        + "The stored login was left as it was" + (cause.exitStatus == .failure ? "; try again later" : "")
    case .noClientID(let configFile):
      let variable = remedies.variable(.clientID).map { " (or set \($0))" } ?? ""
      return
        "the token for \(host) has expired and cannot be refreshed: no \(remedies.name(.clientID)) is configured for \(host). "
        + "Put the client ID of the app you logged in with in \(configFile)\(variable), or \(logIn)"
    case .otherApp(let login, let issuer, let configured):
      let shown = Sanitize.terminal(login)
      return "the token for \(host) (\(shown)) has expired and cannot be refreshed here: \(shown) logged in with "
        + "another OAuth app (client ID \(Sanitize.terminal(issuer))) than the configured one "
        + "(\(Sanitize.terminal(configured))), and a refresh token is only sent with the app that issued it. "
        + (remedies.logInCommand(host: host.name, user: login) == nil
          ? "Log in again with the configured app"
          : Remedies.sentence(remedies.logIn(host: host.name, user: login)) + " to log in with the configured app")
    case .accountGone(let login):
      return
        "\(Sanitize.terminal(login)) was logged out of \(host) by \(remedies.program.map { "another " + $0 } ?? "another program sharing its credentials"); \(logIn)"
    case .notSaved(let cause):
      return
        "the token for \(host) was refreshed, but the new one could not be saved: \(cause.message(remedies)). The refresh token "
        + "it replaced is spent, so the stored login no longer works; once that is fixed "
        + logIn
    }
  }
}
