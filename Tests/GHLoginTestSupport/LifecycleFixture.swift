import Synchronization
import Testing

import GHLoginCore

/// A temporary HOME with a config and a credentials file, for running the lifecycle commands
/// (token, whoami, refresh, logout, switch) in-process.
package struct LifecycleFixture {
  package static let now = 1_700_000_000.0
  package static let tokenURL = "https://github.com/login/oauth/access_token"
  package static let userURL = "https://api.github.com/user"
  package static let revokeURL = "https://api.github.com/applications/Iv1.client/token"
  /// The default config: an app with a client secret.
  package static let appConfig = #"{"client_id": "Iv1.client", "client_secret": "the-secret"}"#

  package let store: StoreFixture
  package let clock = ManualClock(now: LifecycleFixture.now)

  package init(config: String? = LifecycleFixture.appConfig) throws {
    store = try StoreFixture()
    try store.makeConfigDirectory()
    if let config { try writeFile(store.paths.configFile, config) }
  }

  package var variables: [String: String] { ["HOME": store.home] }

  package func variables(_ extra: [String: String]) -> [String: String] { variables.merging(extra) { _, new in new } }

  package func seed(_ credentials: Credentials) throws { try store.store().update { $0 = credentials } }

  package func seed(_ credential: Credential, host: String = "github.com") throws {
    try seed(sampleCredentials(host: host, credential))
  }

  package func load() throws -> Credentials { try store.store().load() }

  package func account(_ login: String = "octocat", host: String = "github.com") throws -> Credential? {
    try load().hosts[host]?.account(login)
  }

  package var fileBytes: [UInt8]? { readFile(store.file) }
  package var fileText: String { String(decoding: fileBytes ?? [], as: UTF8.self) }

  /// An expiring GitHub App token for `login`, expiring `expiresIn` seconds from now.
  package static func expiring(
    _ login: String = "octocat", token: String = "ghu_old", expiresIn: Double = 60, device: Bool = false
  ) -> Credential {
    var credential = sampleCredential(login, token: token)
    credential.expiresAt = now + expiresIn
    credential.refreshToken = "ghr_old"
    credential.refreshTokenExpiresAt = now + 15_811_200
    credential.viaDeviceFlow = device
    return credential
  }

  /// A refresh answer with a new GitHub App token pair.
  package static func renewal(_ token: String = "ghu_new") -> HTTPResponse {
    .json(
      #"{"access_token":"\#(token)","token_type":"bearer","scope":"","expires_in":28800,"#
        + #""refresh_token":"ghr_new","refresh_token_expires_in":15811200}"#)
  }

  /// GitHub's `/user` answer for octocat.
  package static let user = HTTPResponse.json(#"{"login":"octocat","id":583231,"name":"The Octocat"}"#)
}
