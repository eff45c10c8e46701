/// A token narrowed to some repositories and permissions, minted from a stored login (issue 34,
/// first slice: a new one on every call, nothing cached). The one reason this file changes is
/// the rules of narrowing a login's token (R30, R113).
extension Workspace {
  /// A token narrowed to `narrowing`, minted now from the token of the account `selection`
  /// chooses (refreshed first when due, as ``usableCredentialReport(_:in:)`` does).
  ///
  /// Refused before any request (``NarrowingRefused``, exit 2) unless the login was issued by
  /// the app configured for the host and that app's client secret is configured. GitHub's
  /// answer is accepted only when it is exactly what was asked (R113,
  /// ``ScopedTokenAnswer/problem(for:repositories:)``); anything wider or unverifiable is revoked
  /// at once and thrown as ``NarrowingNotVerified`` (exit 1).
  package func narrowedToken(
    _ selection: AccountSelection, _ narrowing: Narrowing
  ) throws -> (token: NarrowedToken, warning: RefreshWarning?) {
    let (host, credential, warning) = try usableCredentialReport(selection)
    let app = try? app(for: host)
    guard let app, let secret = app.clientSecret, !secret.isEmpty else {
      throw NarrowingRefused(.noClientSecret(clientID: app?.clientID), host: host, login: credential.login)
    }
    guard let issuer = credential.clientID, issuer == app.clientID else {
      throw NarrowingRefused(
        .otherApp(issuer: credential.clientID, configured: app.clientID), host: host, login: credential.login)
    }
    let api = endpoints(for: host).api
    let client = ScopedTokenClient(
      host: host, api: api, clientID: app.clientID, clientSecret: secret, transport: transport(for: host))
    let answer = try client.mint(token: credential.token, narrowing: narrowing, now: environment.clock.now())
    let problem: String?
    do {
      if let listed = answer.repositories {
        problem = answer.problem(for: narrowing, repositories: listed)
      } else if answer.repositorySelection != "selected" {
        problem = answer.problem(for: narrowing, repositories: [])
      } else if let url = answer.repositoriesURL {
        problem = answer.problem(for: narrowing, repositories: try client.repositories(at: url, token: answer.token))
      } else {
        problem = "GitHub's answer names neither the token's repositories nor where to read them"
      }
    } catch {
      problem = (error as? any ReportableError)?.message ?? "\(error)"
    }
    if let problem {
      let revocation = Revocation(
        host: host, api: api, clientID: app.clientID, clientSecret: secret, transport: transport(for: host),
        isGitHub: isKnownGitHub(host))
      let revoked: String?
      do {
        _ = try revocation.revoke(token: answer.token)
        revoked = nil
      } catch {
        revoked = (error as? any ReportableError)?.message ?? "\(error)"
      }
      throw NarrowingNotVerified(host: host, problem: problem, revocationFailure: revoked, expiresAt: answer.expiresAt)
    }
    return (
      NarrowedToken(token: answer.token, expiresAt: answer.expiresAt, host: host, login: credential.login), warning
    )
  }
}

/// A token GitHub narrowed, checked to be exactly what was asked (R113).
package struct NarrowedToken: Sendable, Equatable {
  package var token: String
  /// GitHub's `expires_at`, as it wrote it.
  package var expiresAt: String?
  package var host: GitHubHost
  /// The login whose token it was narrowed from.
  package var login: String
}

/// A login that cannot be narrowed, refused before any request: exit 2, naming what is missing
/// and what would work (issue 34 §2).
package struct NarrowingRefused: ReportableError, Equatable {
  package enum Reason: Sendable, Equatable {
    /// No client secret is configured for the host's app (`clientID`: the app, if any).
    case noClientSecret(clientID: String?)
    /// The login was issued by another app than the configured one (`issuer` nil: the login
    /// records none, as a token stored by hand).
    case otherApp(issuer: String?, configured: String)
  }

  package var reason: Reason
  package var host: GitHubHost
  package var login: String

  package init(_ reason: Reason, host: GitHubHost, login: String) {
    self.reason = reason
    self.host = host
    self.login = login
  }

  package var exitStatus: ExitStatus { .usage }
  package var errorKind: ErrorKind { .configuration }

  package var message: String {
    let who = "the login \(Sanitize.terminal(login)) on \(host)"
    let works =
      "narrowing needs a login made with a GitHub App whose client_id and client_secret are configured for \(host)"
    switch reason {
    case .noClientSecret(let clientID?):
      return
        "\(who) cannot be narrowed: no client_secret is configured for the app \(Sanitize.terminal(clientID)); \(works)"
    case .noClientSecret(nil):
      return "\(who) cannot be narrowed: no app (client_id) is configured for \(host); \(works)"
    case .otherApp(let issuer?, let configured):
      return "\(who) cannot be narrowed: it was issued to the app \(Sanitize.terminal(issuer)), not to the "
        + "configured \(Sanitize.terminal(configured)), whose client_secret is the one configured; "
        + "log in again with the configured app, or configure that app's client_id and client_secret"
    case .otherApp(nil, _):
      return "\(who) cannot be narrowed: it records no app (a token stored as given, not a GitHub App's login); "
        + works
    }
  }
}

/// GitHub's answer to a scoped-token request was wider than asked or could not be verified:
/// the minted token was revoked (or the revocation failed, said too), nothing is printed, exit 1
/// (R113, T98).
package struct NarrowingNotVerified: ReportableError, Equatable {
  package var host: GitHubHost
  /// What came back.
  package var problem: String
  /// Why the minted token could not be revoked; nil when it was.
  package var revocationFailure: String?
  package var expiresAt: String?

  package var exitStatus: ExitStatus { .failure }
  package var errorKind: ErrorKind { .network }

  package var message: String {
    let head = "the token GitHub minted on \(host) is not the narrowed token asked for: \(problem); "
    guard let revocationFailure else { return head + "it was revoked and not used" }
    let expiry = expiresAt.map { " (it expires at \(Sanitize.terminal($0, maxCharacters: 40)))" } ?? ""
    return head + "it was not used, but revoking it failed\(expiry): \(revocationFailure)"
  }
}
