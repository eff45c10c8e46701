import Foundation
import GHLoginTestSupport

/// Helpers for the token-lifecycle end-to-end tests: stored logins written straight into the
/// sandbox's credentials file, and tokens registered with the fake to match.
extension Sandbox {
  /// Writes `credentials.json` (mode 0600) with `accounts` on `host`, the first one active.
  /// Each account is the JSON object of the file format (`login`, `token`, `expires_at`, ...);
  /// `user_id`, `token_type`, `scopes` and `created_at` are filled in when missing. The file is
  /// version 2 when an account has a `client_id`, else version 1, as ghlogin writes it.
  func writeCredentials(host: String = "github.test", _ accounts: [[String: Any]]) throws {
    let now = Date().timeIntervalSince1970
    let filled = accounts.enumerated().map { index, account -> [String: Any] in
      var account = account
      account["user_id"] = account["user_id"] ?? index + 1
      account["token_type"] = account["token_type"] ?? "bearer"
      account["scopes"] = account["scopes"] ?? []
      account["created_at"] = account["created_at"] ?? now
      return account
    }
    let hosts: [String: Any] = [host: ["active": filled.first?["login"] ?? "", "accounts": filled]]
    let version = filled.contains { $0["client_id"] != nil } ? 2 : 1
    try CredentialsFile.write(hosts: hosts, to: credentialsFile, version: version)
  }

  /// The accounts of `host` in `credentials.json`.
  func storedAccounts(host: String = "github.test") -> [[String: Any]] {
    ((credentialsJSON()?["hosts"] as? [String: Any])?[host] as? [String: Any])?["accounts"] as? [[String: Any]] ?? []
  }
}

extension FakeGitHub {
  /// A fake and a sandbox with the default config, where octocat is logged in to github.test
  /// with `token` (registered with the fake and stored in the credentials file).
  static func loggedIn(token: String) throws -> (FakeGitHub, Sandbox) {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    try fake.register(["tokens": [["access_token": token, "login": "octocat"]]])
    try sandbox.writeCredentials([["login": "octocat", "token": token]])
    return (fake, sandbox)
  }

  /// Registers an expiring GitHub App style pair for octocat: `access` (valid for
  /// `expiresIn` seconds at the fake) and `refresh`, which rotates into a new pair.
  func registerExpiringPair(
    access: String, refresh: String, expiresIn: Int = 60, origin: String = "web", login: String = "octocat"
  ) throws {
    try register([
      "tokens": [["access_token": access, "login": login, "expires_in": expiresIn, "kind": "app", "scopes": ""]],
      "refresh_tokens": [["refresh_token": refresh, "login": login, "access_token": access, "origin": origin]],
    ])
  }

  /// The record of `token` in the fake's state (`revoked`, `login`, `client_id`, ...).
  func tokenRecord(_ token: String) throws -> [String: Any]? {
    (try state()["tokens"] as? [[String: Any]])?.first { $0["access_token"] as? String == token }
  }
}

/// A stored expiring login for octocat: `token` expiring `expiresIn` seconds from now, with
/// `refresh` valid for six months.
func expiringAccount(
  token: String, refresh: String, expiresIn: Double, device: Bool = false, login: String = "octocat"
) -> [String: Any] {
  let now = Date().timeIntervalSince1970
  var account: [String: Any] = [
    "login": login, "token": token, "expires_at": now + expiresIn, "refresh_token": refresh,
    "refresh_token_expires_at": now + 15_811_200,
  ]
  if device { account["via_device_flow"] = true }
  return account
}
