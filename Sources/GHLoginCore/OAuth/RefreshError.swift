/// A token that needed a refresh and could not be given one (R44).
///
/// Messages name the host and account, and quote other errors only through their own
/// (already secret-free, sanitized) messages; never a token or refresh token.
package struct RefreshError: ReportableError, Equatable {
  /// What went wrong.
  package enum Kind: Sendable, Equatable {
    /// The refresh token is dead (rejected, or past its expiry) or the account was already
    /// marked expired: log in again. Exit 4.
    case sessionExpired
    /// The token has expired and the refresh failed for a reason that may pass (network,
    /// server error) or that the config must fix; `reason` is that error's message and
    /// `status` and `kind` its exit status and kind. Nothing was changed.
    case failed(reason: String, status: ExitStatus, kind: ErrorKind)
    /// The token has expired and no `client_id` is configured to refresh it with. Exit 2.
    case noClientID(configFile: String)
    /// The token has expired and the login `login` was issued by another OAuth app (`issuer`)
    /// than the one configured (`configured`): its refresh token is not sent with another app's
    /// credentials (SECURITY.md, "Two apps on one host"), so only a login with the configured app helps. Nothing was
    /// sent or changed. Exit 4.
    case otherApp(login: String, issuer: String, configured: String)
    /// The account disappeared from the credentials file (another ghlogin logged it out). Exit 4.
    case accountGone(login: String)
    /// The server issued a new pair but it could not be stored (`reason`): it is not used (R42),
    /// and the refresh token it replaced is spent. Exit 1.
    case notSaved(reason: String)
  }

  package var kind: Kind
  package var host: GitHubHost

  package init(_ kind: Kind, host: GitHubHost) {
    self.kind = kind
    self.host = host
  }

  package var exitStatus: ExitStatus {
    switch kind {
    case .sessionExpired, .accountGone, .otherApp: .notLoggedIn
    case .failed(_, let status, _): status
    case .noClientID: .usage
    case .notSaved: .failure
    }
  }

  package var errorKind: ErrorKind {
    switch kind {
    case .sessionExpired: .tokenRejected
    case .accountGone, .otherApp: .notLoggedIn
    case .failed(_, _, let kind): kind
    case .noClientID: .configuration
    case .notSaved: .store
    }
  }

  package var message: String { message(.words) }

  package func message(_ remedies: Remedies) -> String {
    let logIn = remedies.logIn(host: host.name)
    switch kind {
    case .sessionExpired:
      return "the session for \(host) expired; \(logIn)"
    case .failed(let reason, let status, _):
      return "the token for \(host) has expired and could not be refreshed: \(reason). "
        + "The stored login was left as it was" + (status == .failure ? "; try again later" : "")
    case .noClientID(let configFile):
      return
        "the token for \(host) has expired and cannot be refreshed: no \(remedies.name(.clientID)) is configured for \(host). "
        + "Put the client ID of the app you logged in with in \(configFile) (or set GHLOGIN_CLIENT_ID), "
        + "or \(logIn)"
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
    case .notSaved(let reason):
      return "the token for \(host) was refreshed, but the new one could not be saved: \(reason). The refresh token "
        + "it replaced is spent, so the stored login no longer works; once that is fixed "
        + logIn
    }
  }
}
