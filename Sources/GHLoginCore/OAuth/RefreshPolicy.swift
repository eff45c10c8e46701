/// When a stored token must be refreshed, and whether it can be (R40, R44).
///
/// Pure: it looks at one ``Credential`` and a wall-clock time, nothing else.
package enum RefreshPolicy {
  /// Refresh this many seconds before the access token expires (R40: "for example 5 min").
  package static let margin = 300.0

  /// What to do with a stored credential before handing its token out.
  package enum Decision: Sendable, Equatable {
    /// Use the token as it is: it never expires, or not within the margin.
    case use
    /// Refresh it now: it expires within the margin (or was asked to be refreshed) and there is
    /// a refresh token that has not expired.
    case refresh
    /// It expires within the margin but there is no refresh token; use it while it lasts.
    case useUntilExpiry
    /// The session is over: the account is marked expired, its refresh token has expired, or
    /// its token has expired with nothing to refresh it with. Only `ghlogin auth` helps.
    case sessionOver
  }

  /// Decides for `credential` at wall-clock time `now` (Unix seconds).
  ///
  /// `force` (from `ghlogin refresh`) refreshes a token that has a refresh token even when it
  /// is not yet due. A token without `expiresAt` never needs a refresh.
  package static func decide(
    _ credential: Credential, now: Double, margin: Double = RefreshPolicy.margin, force: Bool = false
  ) -> Decision {
    if credential.isExpired { return .sessionOver }
    let due: Bool
    if let expiresAt = credential.expiresAt {
      due = force || expiresAt - now <= margin
    } else {
      due = force && credential.refreshToken != nil
    }
    guard due else { return .use }
    guard credential.refreshToken != nil else {
      if let expiresAt = credential.expiresAt, expiresAt <= now { return .sessionOver }
      return .useUntilExpiry
    }
    if let refreshExpiresAt = credential.refreshTokenExpiresAt, refreshExpiresAt <= now { return .sessionOver }
    return .refresh
  }

  /// Whether `credential`'s access token has expired at `now` (no margin).
  static func hasExpired(_ credential: Credential, now: Double) -> Bool {
    credential.expiresAt.map { $0 <= now } ?? false
  }
}
