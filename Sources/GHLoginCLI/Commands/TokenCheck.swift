import GHLoginCore

/// What GitHub said about a stored token when `status` asked (`GET /user`, no refresh, no write).
enum TokenCheck: Sendable, Equatable {
  /// GitHub accepted it; `login` is the account it named.
  case valid(login: String)
  /// GitHub answered 401: revoked, expired or otherwise dead.
  case rejected
  /// No answer that says either (network, TLS, rate limit, 5xx, ...), with the reason.
  case unknown(reason: String)
  /// Not asked: the access token has expired by its own clock (a refresh is due).
  case expired

  /// Seconds each check may take.
  static let deadline: Double = 5

  /// What else GitHub's answers said about a valid token.
  struct Details: Sendable, Equatable {
    /// GitHub's expiry of the token (`GitHub-Authentication-Token-Expiration`), if sent.
    var gitHubExpiration: Double?
    /// How many organisations `GET /user/orgs` left out because the token is not authorised
    /// for their SAML SSO (`X-GitHub-SSO: partial-results`); nil when that was not answered.
    var unauthorizedOrganizations: Int?
    /// What `GET /user/orgs` said when it was refused for SSO (`X-GitHub-SSO: required`).
    var ssoRequired: String?
  }

  /// Asks `api` whose `token` it is and, when GitHub accepts it, which organisations it may
  /// not see for SSO (`GET /user/orgs`).
  static func check(_ token: String, api: GitHubAPI) -> (TokenCheck, Details) {
    var details = Details()
    do {
      let user = try api.user(token: token)
      details.gitHubExpiration = user.tokenExpiration
      do {
        details.unauthorizedOrganizations = try api.unauthorizedOrganizations(token: token)
      } catch let error as GitHubAPIError {
        if case .ssoRequired = error.kind { details.ssoRequired = error.cliMessage }
      } catch {}
      return (.valid(login: user.login), details)
    } catch let error as GitHubAPIError where error.kind == .tokenRejected {
      return (.rejected, details)
    } catch let error as any ReportableError {
      return (.unknown(reason: error.cliMessage), details)
    } catch {
      return (.unknown(reason: "\(error)"), details)
    }
  }

  /// A login as the checks are keyed: its user id and the app that issued it (two apps' logins
  /// of one user are two logins, R111).
  struct Key: Hashable, Sendable {
    var userID: Int64
    var clientID: String?

    init(_ account: Credential) {
      userID = account.userID
      clientID = account.clientID
    }
  }

  /// Checks every account of `hosts` in `credentials` at the same time, each within
  /// ``deadline``; the result is keyed by host name, then by login (``Key``).
  static func checkAll(
    _ credentials: Credentials, hosts: [String], workspace: Workspace
  ) -> (checks: [String: [TokenCheck.Key: TokenCheck]], details: [String: [Key: Details]]) {
    var jobs: [@Sendable () -> (String, Key, TokenCheck, Details)] = []
    let now = workspace.environment.clock.now()
    for name in hosts {
      guard let entry = credentials.hosts[name], let host = try? GitHubHost(validating: name) else { continue }
      var api = workspace.api(for: host)
      api.timeout = deadline
      for account in entry.accounts {
        let (id, token) = (Key(account), account.token)
        if token.isEmpty {
          // A keyring token that could not be read: nothing to ask GitHub about (status says why).
          jobs.append { (name, id, .unknown(reason: "its token could not be read from the keyring"), Details()) }
        } else if let expiresAt = account.expiresAt, expiresAt <= now {
          jobs.append { (name, id, .expired, Details()) }
        } else {
          jobs.append { [api] in
            let (result, details) = check(token, api: api)
            return (name, id, result, details)
          }
        }
      }
    }
    var results: [String: [TokenCheck.Key: TokenCheck]] = [:]
    var details: [String: [Key: Details]] = [:]
    for (host, id, check, more) in Concurrently.run(jobs) {
      results[host, default: [:]][id] = check
      details[host, default: [:]][id] = more
    }
    return (results, details)
  }

  /// The words `status` prints after `online:`.
  func describe(host: String, storedLogin: String) -> String {
    switch self {
    case .valid(let login) where login.lowercased() != storedLogin.lowercased():
      return "valid, but GitHub says it belongs to \(Sanitize.terminal(login))"
    case .valid: return "valid"
    case .rejected: return "rejected by \(host) (revoked or expired); run 'ghlogin auth --host \(host)'"
    case .unknown(let reason): return "could not check (\(reason))"
    case .expired: return "not checked (the access token has expired)"
    }
  }

  /// The `check` member of `status --json`.
  var json: JSONValue {
    switch self {
    case .valid(let login): ["result": "valid", "login": .string(login)]
    case .rejected: ["result": "rejected"]
    case .unknown(let reason): ["result": "unknown", "reason": .string(reason)]
    case .expired: ["result": "expired"]
    }
  }
}
