/// What checking a token that another program reported as rejected found (R102).
///
/// A caller's 401 (git's `erase`, Go's `GOAUTH=git` after a probe of a server root) says only
/// that some request failed; the login is forgotten only when the host's own API rejects that
/// exact token now.
package enum RejectionCheck: Sendable, Equatable {
  /// Why a login was forgotten.
  package enum Cause: Sendable, Equatable {
    /// `GET /user` answered 401 for the token.
    case rejected
    /// The token had expired and its refresh failed for good (a dead or expired refresh token).
    case sessionOver
  }

  /// No stored login of the host has that token (and that username): nothing was done.
  case notStored
  /// The API accepts the token: the login was kept.
  case accepted(login: String)
  /// The token had expired; it was refreshed, the API accepts the new one, which is stored.
  case refreshed(login: String)
  /// The token could not be checked now (network, timeout, an answer other than 200 or 401, a
  /// refresh that may work later): the login was kept, for this reason.
  case unchecked(login: String, reason: String)
  /// The login was removed, for `cause`.
  case forgotten(login: String, cause: Cause)
}

extension Workspace {
  /// Seconds each request of ``checkReportedRejection(token:on:username:remedies:)`` may take.
  package static let rejectionCheckTimeout = 5.0

  /// The one check behind every report that a token was rejected (R102): git's `erase` now, a
  /// library "this API answered 401" later.
  ///
  /// Finds the login of `host` whose token is exactly `token` (constant-time; and whose login is
  /// `username`, ignoring case, when given). An expired token with a refresh token is refreshed
  /// first (under the store's lock, as every refresh) and the new token is checked. Then
  /// `GET /user` with that token, within ``rejectionCheckTimeout``: 200 keeps the login, 401
  /// removes exactly that account (under the lock, matched by token again), anything else keeps
  /// it. A refresh that fails for good removes it; one that may work later keeps it.
  package func checkReportedRejection(
    token: String, on host: GitHubHost, username: String?, remedies: Remedies
  ) throws -> RejectionCheck {
    guard let account = Self.account(in: try store.load(), on: host, token: token, username: username) else {
      return .notStored
    }
    let login = account.login
    var current = account
    if RefreshPolicy.hasExpired(account, now: environment.clock.now()), account.refreshToken != nil {
      do {
        current = try refresher(for: host, timeout: Self.rejectionCheckTimeout)
          .refresh(account, force: false).credential
      } catch let error as RefreshError where error.kind == .sessionExpired {
        return try forget(token: token, on: host, login: login, cause: .sessionOver)
      } catch let error as RefreshError {
        if case .accountGone = error.kind { return .notStored }
        return .unchecked(login: login, reason: error.reason(remedies))
      }
    }
    do {
      _ = try api(for: host, timeout: Self.rejectionCheckTimeout).user(token: current.token)
      return current.token == token ? .accepted(login: login) : .refreshed(login: login)
    } catch let error as GitHubAPIError where error.kind == .tokenRejected {
      return try forget(token: current.token, on: host, login: login, cause: .rejected)
    } catch {
      return .unchecked(login: login, reason: (error as? any ReportableError)?.message(remedies) ?? "\(error)")
    }
  }

  /// Removes the account of `host` whose token is exactly `token`, checked again under the lock
  /// (the file may have changed since it was read).
  private func forget(
    token: String, on host: GitHubHost, login: String, cause: RejectionCheck.Cause
  ) throws -> RejectionCheck {
    let removed: Bool = try store.update { credentials in
      guard Self.account(in: credentials, on: host, token: token, username: nil) != nil else { return false }
      credentials.remove(from: host.name) { CredentialHostMatch.constantTimeEqual($0.token, token) }
      return true
    }
    return removed ? .forgotten(login: login, cause: cause) : .notStored
  }

  /// The account of `host` whose token is exactly `token` (compared in constant time), and whose
  /// login is `username` (ignoring case) when one is named.
  package static func account(
    in credentials: Credentials, on host: GitHubHost, token: String, username: String?
  ) -> Credential? {
    guard !token.isEmpty else { return nil }
    return credentials.hosts[host.name]?.accounts.first { account in
      CredentialHostMatch.constantTimeEqual(account.token, token)
        && (username.map { $0.lowercased() == account.login.lowercased() } ?? true)
    }
  }
}
