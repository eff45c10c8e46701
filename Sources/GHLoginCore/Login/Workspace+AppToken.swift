/// A GitHub App installation token (issue 34 §1, `ghlogin app token`), minted with the app's JWT
/// (R114) and checked as a narrowed token is (R113). The one reason this file changes is the
/// rules of minting one.
extension Workspace {
  /// Mints an installation token of `request.app` on the host `hostOption` chooses (else
  /// github.com), with the private key `key` gives (read before any request: a key file that is
  /// not a 0600 regular file of the user is refused there, T99).
  ///
  /// The installation is `request.installation`, else the one covering the first repository,
  /// else the owner's (organisation, then user). When repositories or permissions were asked
  /// for, GitHub's answer must be exactly those (R113,
  /// ``ScopedTokenAnswer/problem(for:repositories:)``; with permissions alone, the permissions
  /// plus `metadata: read`); otherwise the token is revoked with `DELETE /installation/token`
  /// and ``NarrowingNotVerified`` thrown (exit 1).
  package func appToken(
    _ request: AppTokenRequest, key: () throws -> (PrivateKeyBytes, AppKeyError.Source), hostOption: String?
  ) throws -> NarrowedToken {
    let host = try chosenHost(hostOption) ?? .gitHubDotCom
    let (keyBytes, source) = try key()
    let now = environment.clock.now()
    let jwt: String
    do {
      jwt = try AppJWT.make(app: request.app, now: now, key: keyBytes)
    } catch {
      throw AppKeyError(error, source: source)
    }
    let client = InstallationTokenClient(host: host, api: endpoints(for: host).api, transport: transport(for: host))
    let installation: Int64
    switch request.target {
    case .installation(let id): installation = id
    case .owner(let owner):
      if let narrowing = request.narrowing, let first = narrowing.repositories.first {
        installation = try client.installation(for: .repository(owner: owner, name: first), jwt: jwt, now: now)
      } else {
        installation = try client.installation(for: .account(owner), jwt: jwt, now: now)
      }
    }
    let answer = try client.mint(
      installation: installation, jwt: jwt, repositories: request.narrowing?.repositories,
      permissions: request.permissions, now: environment.clock.now())
    if let problem = request.problem(with: answer) {
      let revoked: String?
      do {
        try client.revoke(token: answer.token)
        revoked = nil
      } catch {
        revoked = (error as? any ReportableError)?.message ?? "\(error)"
      }
      throw NarrowingNotVerified(host: host, problem: problem, revocationFailure: revoked, expiresAt: answer.expiresAt)
    }
    return NarrowedToken(token: answer.token, expiresAt: answer.expiresAt, host: host, login: request.app)
  }
}

/// What `ghlogin app token` asks for: the app, whose installation, and the narrowing.
package struct AppTokenRequest: Sendable, Equatable {
  package enum Target: Sendable, Equatable {
    /// The installation on this account (or, with repositories, the one covering them).
    case owner(String)
    /// This installation.
    case installation(Int64)
  }

  /// The app's client ID or numeric app ID (the JWT's `iss`).
  package var app: String
  package var target: Target
  /// The repositories (and permissions) asked for; nil: the installation's repositories.
  package var narrowing: Narrowing?
  /// The permissions asked for (with or without repositories); empty: the installation's.
  package var permissions: [String: String]

  package init(app: String, target: Target, narrowing: Narrowing?, permissions: [String: String]) {
    self.app = app
    self.target = target
    self.narrowing = narrowing
    self.permissions = permissions
  }

  /// Why `answer` is not what was asked (R113), or nil. Nothing asked: nothing to check.
  func problem(with answer: ScopedTokenAnswer) -> String? {
    if let narrowing {
      guard let listed = answer.repositories else {
        return "GitHub's answer does not list the token's repositories"
      }
      return answer.problem(for: narrowing, repositories: listed)
    }
    guard !permissions.isEmpty else { return nil }
    var withMetadata = permissions
    if withMetadata["metadata"] == nil { withMetadata["metadata"] = "read" }
    guard answer.permissions == permissions || answer.permissions == withMetadata else {
      return "GitHub granted the permissions "
        + "\(Sanitize.terminal(Narrowing.describe(answer.permissions), maxCharacters: 200)), "
        + "not \(Narrowing.describe(permissions))"
    }
    return nil
  }
}
