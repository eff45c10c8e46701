/// A login whose token was issued but could not be stored (R96): the lock was held elsewhere
/// past its timeout, the disk failed, the file turned unusable meanwhile.
///
/// The new token is revoked at GitHub (best effort) so no valid token is left that ghlogin does
/// not know about, and the message says which of the two happened. The exit status is the store
/// failure's (1).
package struct UnstoredLogin: ReportableError {
  /// Why storing failed (a ``StoreError`` or ``KeyringError`` as a rule); its status and kind
  /// are this error's.
  package var storeFailure: any ReportableError
  package var host: GitHubHost
  /// What became of the new token.
  package var revocation: Outcome

  package init(storeFailure: any ReportableError, host: GitHubHost, revocation: Outcome) {
    self.storeFailure = storeFailure
    self.host = host
    self.revocation = revocation
  }

  package enum Outcome: Sendable {
    /// GitHub revoked it (or no longer knew it).
    case revoked
    /// No way to revoke is configured (no client secret, no revocation_url); where to do it
    /// by hand (a URL, or "the server that issued it").
    case notRevocable(manualURL: String)
    /// The revocation failed: why (said in the voice of the message), and where to do it by hand.
    case failed(reason: any ReportableError, manualURL: String)
  }

  package var message: String { message(.words) }

  package func message(_ remedies: Remedies) -> String {
    let head = "\(storeFailure.message(remedies)). The login to \(host) was not stored"
    switch revocation {
    case .revoked:
      let again =
        remedies.command(.logIn(host: nil)).map { "Run '\($0)' again" } ?? "Log in again once that is fixed"
      return head + "; the new token was revoked at \(host), so nothing is left behind. \(again)"
    case .notRevocable(let url):
      return head + "; the new token could not be revoked (no client secret is configured): revoke it at \(url)"
    case .failed(let reason, let url):
      return head + "; revoking the new token failed (\(reason.message(remedies))): revoke it at \(url)"
    }
  }

  package var exitStatus: ExitStatus { storeFailure.exitStatus }
  package var errorKind: ErrorKind { storeFailure.errorKind }
}

extension Workspace {
  /// The error for a login of `host` whose `token` could not be stored because of `error`, after
  /// revoking that token (and its `refreshToken`), best effort (R96, R103).
  func unstoredLogin(
    token: String, refreshToken: String? = nil, on host: GitHubHost, after error: any Error
  ) -> UnstoredLogin {
    let manual = revokeByHand(on: host)
    let outcome: UnstoredLogin.Outcome
    // The token was just issued to the configured app: nothing to compare.
    switch revoke(token: token, refreshToken: refreshToken, issuedTo: nil, on: host) {
    case .revoked, .alreadyInvalid: outcome = .revoked
    case .notConfigured: outcome = .notRevocable(manualURL: manual)
    case .failed(let reason): outcome = .failed(reason: reason, manualURL: manual)
    }
    return UnstoredLogin(
      storeFailure: error as? any ReportableError ?? UnexpectedError(error, kind: .store), host: host,
      revocation: outcome)
  }
}
