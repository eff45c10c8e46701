import Synchronization
import Testing

import GHLoginTestSupport
@testable import GHLoginCLI
@testable import GHLoginCore
@testable import GHLoginKit

/// A temporary HOME with a config and a credentials file, for running the lifecycle commands
/// (token, whoami, refresh, logout, switch) in-process.
struct LifecycleFixture {
  static let now = 1_700_000_000.0
  static let tokenURL = "https://github.com/login/oauth/access_token"
  static let userURL = "https://api.github.com/user"
  static let revokeURL = "https://api.github.com/applications/Iv1.client/token"
  /// The default config: an app with a client secret.
  static let appConfig = #"{"client_id": "Iv1.client", "client_secret": "the-secret"}"#

  let store: StoreFixture
  let clock = ManualClock(now: LifecycleFixture.now)

  init(config: String? = LifecycleFixture.appConfig) throws {
    store = try StoreFixture()
    try store.makeConfigDirectory()
    if let config { try writeFile(store.paths.configFile, config) }
  }

  var variables: [String: String] { ["HOME": store.home] }

  func variables(_ extra: [String: String]) -> [String: String] { variables.merging(extra) { _, new in new } }

  func seed(_ credentials: Credentials) throws { try store.store().update { $0 = credentials } }

  func seed(_ credential: Credential, host: String = "github.com") throws {
    try seed(sampleCredentials(host: host, credential))
  }

  func load() throws -> Credentials { try store.store().load() }

  func account(_ login: String = "octocat", host: String = "github.com") throws -> Credential? {
    try load().hosts[host]?.account(login)
  }

  var fileBytes: [UInt8]? { readFile(store.file) }
  var fileText: String { String(decoding: fileBytes ?? [], as: UTF8.self) }

  func run(
    _ arguments: [String], extra: [String: String] = [:], stdin: String = "",
    transport: any HTTPTransport = NoNetwork()
  ) -> CommandRun {
    runCommand(arguments, variables: variables(extra), stdin: stdin, clock: clock, transport: transport)
  }

  /// `ghlogin git-credential get` asked by git for github.com.
  func gitCredentialGet(transport: any HTTPTransport = NoNetwork()) -> CommandRun {
    run(["git-credential", "get"], stdin: "protocol=https\nhost=github.com\n\n", transport: transport)
  }

  /// An expiring GitHub App token for `login`, expiring `expiresIn` seconds from now.
  static func expiring(
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
  static func renewal(_ token: String = "ghu_new") -> HTTPResponse {
    .json(
      #"{"access_token":"\#(token)","token_type":"bearer","scope":"","expires_in":28800,"#
        + #""refresh_token":"ghr_new","refresh_token_expires_in":15811200}"#)
  }

  /// GitHub's `/user` answer for octocat.
  static let user = HTTPResponse.json(#"{"login":"octocat","id":583231,"name":"The Octocat"}"#)
}

/// An output that also records what the credentials file held at each write, to prove the
/// file was written before the token was printed (R42).
final class FileSnapshotOutput: TextOutput {
  private let state = TestLock<(text: String, snapshots: [String])>(("", []))
  let file: String
  init(file: String) { self.file = file }

  func write(_ text: String) {
    let snapshot = String(decoding: readFile(file) ?? [], as: UTF8.self)
    state.withLock {
      $0.text += text
      $0.snapshots.append(snapshot)
    }
  }

  var isTerminal: Bool { false }
  var text: String { state.withLock { $0.text } }
  var snapshots: [String] { state.withLock { $0.snapshots } }
}
