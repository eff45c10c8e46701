/// A token narrowed to some repositories and permissions, minted from a stored login and kept
/// beside it (issue 34 §1). The one reason this file changes is
/// the rules of narrowing a login's token (R30, R113).
extension Workspace {
  /// A token narrowed to `narrowing` from the account `selection` chooses (refreshed first
  /// when due, as ``usableCredentialReport(_:in:)`` does): the cached one for exactly this
  /// account, app and narrowing while it has more than five minutes left (issue 34 §1), else a
  /// new one, minted and cached under the store's lock (a cached token it replaces is revoked).
  /// For a login kept in the keyring the cached token is the record's keyring item
  /// (``NarrowedSecretItem``): a hit reads that one item, a missing item mints again (a keyring
  /// that keeps no narrowed tokens, as a library caller's, mints on every call).
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
    let client = try scopedTokenClient(for: credential, on: host)
    if var record = credential.cachedNarrowed(for: narrowing), record.isReusable(now: environment.clock.now()) {
      // A keyring login's cached token: its one item, read now.
      record = try store.resolvedNarrowed(record, of: credential, on: host.name)
      if !record.token.isEmpty { return (NarrowedToken(record, host: host, login: credential.login), warning) }
    }
    guard canKeepNarrowed(credential) else {
      return (try mint(narrowing, from: credential.token, client: client, login: credential.login), warning)
    }
    let (token, replaced) = try store.update { credentials -> (NarrowedToken, [NarrowedRecord]) in
      guard let index = credentials.hosts[host.name]?.accounts.firstIndex(where: { $0.isSameLogin(as: credential) }),
        let current = credentials.hosts[host.name]?.accounts[index], canKeepNarrowed(current)
      else {
        // Logged out or moved meanwhile: minted from the token in hand, kept nowhere.
        return (try mint(narrowing, from: credential.token, client: client, login: credential.login), [])
      }
      let now = environment.clock.now()
      if let record = current.cachedNarrowed(for: narrowing), !record.token.isEmpty, record.isReusable(now: now) {
        return (NarrowedToken(record, host: host, login: current.login), [])
      }
      let minted = try mint(narrowing, from: current.token, client: client, login: current.login)
      let replaced = current.narrowed.filter { $0.consumer == .cache && $0.isFor(narrowing) }
      var account = current
      account.narrowed.removeAll { $0.consumer == .cache && $0.isFor(narrowing) }
      account.narrowed.append(
        NarrowedRecord(
          token: minted.token, expiresAt: NarrowedRecord.parseExpiry(minted.expiresAt), narrowing: narrowing,
          consumer: .cache, createdAt: now))
      credentials.hosts[host.name]?.accounts[index] = account
      return (minted, replaced)
    }
    revokeDropped(replaced, issuedTo: credential.clientID, on: host)
    return (token, warning)
  }

  /// Whether narrowed tokens of `account` can be kept: in the credentials file, or in a keyring
  /// that keeps them (``SecretStore/keepsNarrowedTokens``: the Secret Service does).
  package func canKeepNarrowed(_ account: Credential) -> Bool {
    account.storage == .file || store.secrets.keepsNarrowedTokens
  }

  /// The client that narrows `credential`'s token on `host`; throws ``NarrowingRefused``
  /// (exit 2) unless the login was issued by the configured app and its client secret is set.
  func scopedTokenClient(for credential: Credential, on host: GitHubHost) throws -> ScopedTokenClient {
    let app = try? app(for: host)
    guard let app, let secret = app.clientSecret, !secret.isEmpty else {
      throw NarrowingRefused(.noClientSecret(clientID: app?.clientID), host: host, login: credential.login)
    }
    guard let issuer = credential.clientID, issuer == app.clientID else {
      throw NarrowingRefused(
        .otherApp(issuer: credential.clientID, configured: app.clientID), host: host, login: credential.login)
    }
    return ScopedTokenClient(
      host: host, api: endpoints(for: host).api, clientID: app.clientID, clientSecret: secret,
      transport: transport(for: host))
  }

  /// A token narrowed to `narrowing` minted from `parent` now, checked to be exactly what was
  /// asked (R113); anything else is revoked and thrown as ``NarrowingNotVerified``.
  func mint(
    _ narrowing: Narrowing, from parent: String, client: ScopedTokenClient, login: String
  ) throws -> NarrowedToken {
    let host = client.host
    let answer = try client.mint(token: parent, narrowing: narrowing, now: environment.clock.now())
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
      let revoked = revokeNarrowed(answer.token, on: host)
      throw NarrowingNotVerified(host: host, problem: problem, revocationFailure: revoked, expiresAt: answer.expiresAt)
    }
    return NarrowedToken(token: answer.token, expiresAt: answer.expiresAt, host: host, login: login)
  }

  /// Revokes one narrowed token at GitHub with the configured app; the reason it failed, or nil.
  func revokeNarrowed(_ token: String, on host: GitHubHost) -> String? {
    guard let app = try? app(for: host), let secret = app.clientSecret, !secret.isEmpty else {
      return "no client_secret is configured for \(host)"
    }
    let revocation = Revocation(
      host: host, api: endpoints(for: host).api, clientID: app.clientID, clientSecret: secret,
      transport: transport(for: host), isGitHub: isKnownGitHub(host))
    do {
      _ = try revocation.revoke(token: token)
      return nil
    } catch {
      return (error as? any ReportableError)?.message ?? "\(error)"
    }
  }

  /// Revokes narrowed tokens ghlogin dropped from the store (a refresh, a replaced cached
  /// token, a logout), best effort: only with the app that issued their parent (`issuer`);
  /// each failure goes to ``cleanupWarning`` (the token expires on its own within hours).
  package func revokeDropped(_ records: [NarrowedRecord], issuedTo issuer: String?, on host: GitHubHost) {
    for record in records where !record.token.isEmpty {
      let failure: String?
      if let issuer, let configured = try? app(for: host), configured.clientID != issuer {
        failure = "it was issued to another app than the configured one"
      } else {
        failure = revokeNarrowed(record.token, on: host)
      }
      if let failure {
        cleanupWarning(
          "could not revoke a narrowed token (\(record.repositoriesDescription)) on \(host): \(failure); "
            + "it expires on its own", environment)
      }
    }
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

  package init(token: String, expiresAt: String?, host: GitHubHost, login: String) {
    self.token = token
    self.expiresAt = expiresAt
    self.host = host
    self.login = login
  }

  /// The token of a stored record.
  init(_ record: NarrowedRecord, host: GitHubHost, login: String) {
    self.init(
      token: record.token, expiresAt: record.expiresAt.map(TokenExpirationHeader.format), host: host, login: login)
  }
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
