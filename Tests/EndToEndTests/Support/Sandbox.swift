import Foundation
import GHLoginTestSupport

/// A private temporary HOME for one test: `HOME`, `XDG_CONFIG_HOME=$HOME/.config`, the ghlogin
/// config directory (0700), a config writer pointing every endpoint at the fake, and the
/// environment to run the binary with. The directory tree is removed when the object goes away.
final class Sandbox: @unchecked Sendable {
  /// The sandbox root (0700, from `mkdtemp`), removed with the sandbox.
  private let root: TemporaryDirectory
  /// The sandbox root; also `HOME`.
  var home: String { root.path }
  /// `$HOME/.config`.
  let configHome: String
  /// `$XDG_CONFIG_HOME/ghlogin` (created 0700).
  let configDirectory: String
  /// The fake this sandbox's config and environment point at.
  let fake: FakeGitHub
  /// `$HOME/bin`, first on the `PATH` of ``environment(_:)`` (for stubs such as `xdg-open`).
  let binDirectory: String

  /// Makes the directories (`HOME` 0700, `.config` 0700, `.config/ghlogin` 0700).
  init(fake: FakeGitHub) throws {
    self.fake = fake
    root = try TemporaryDirectory(prefix: "ghlogin-home")
    let home = root.path
    configHome = home + "/.config"
    configDirectory = configHome + "/ghlogin"
    binDirectory = home + "/bin"
    for dir in [configHome, configDirectory, binDirectory] {
      try FileManager.default.createDirectory(
        atPath: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }
  }

  /// `$XDG_CONFIG_HOME/ghlogin/config.json`.
  var configFile: String { configDirectory + "/config.json" }
  /// `$XDG_CONFIG_HOME/ghlogin/credentials.json`.
  var credentialsFile: String { configDirectory + "/credentials.json" }

  /// The config ``writeConfig(_:)`` starts from: the default test app, host `github.test`,
  /// and every endpoint on the fake.
  var defaultConfig: [String: Any] {
    [
      "client_id": "Iv1.testclient",
      "client_secret": "testsecret-s3cr3t",
      "host": "github.test",
      "authorize_url": fake.webBase + "/login/oauth/authorize",
      "token_url": fake.webBase + "/login/oauth/access_token",
      "device_code_url": fake.webBase + "/login/device/code",
      "api_url": fake.apiBase,
    ]
  }

  /// Writes `config.json` = ``defaultConfig`` with `overrides` applied (an `NSNull()` value
  /// removes a key). Returns the written object.
  @discardableResult
  func writeConfig(_ overrides: [String: Any] = [:]) throws -> [String: Any] {
    var config = defaultConfig
    for (key, value) in overrides {
      if value is NSNull { config.removeValue(forKey: key) } else { config[key] = value }
    }
    let data = try JSONSerialization.data(
      withJSONObject: config, options: [.prettyPrinted, .sortedKeys])
    try data.write(to: URL(fileURLWithPath: configFile))
    // Exactly 0600 whatever the umask: a unit test in the same process may have it at 000 for a
    // moment (`withUmask`), and a config others can write is refused (R93).
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: configFile)
    return config
  }

  /// The environment for running ghlogin: nothing inherited except `PATH` (with
  /// ``binDirectory`` put first); `HOME`,
  /// `XDG_CONFIG_HOME`, `SSL_CERT_FILE` (the test CA), `GHLOGIN_TEST_RESOLVE` (test names →
  /// 127.0.0.1:port), and no proxy variables. `extra` is applied last (an empty value is kept;
  /// use it to add e.g. `https_proxy`).
  func environment(_ extra: [String: String] = [:]) -> [String: String] {
    var env = [
      "HOME": home,
      "XDG_CONFIG_HOME": configHome,
      "SSL_CERT_FILE": fake.caFile,
      "GHLOGIN_TEST_RESOLVE": fake.resolveValue,
      "PATH": binDirectory + ":"
        + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"),
      "LANG": "C.UTF-8",
    ]
    env.merge(extra) { _, new in new }
    return env
  }

  /// The bytes of `credentials.json`, or nil when it does not exist.
  func credentialsBytes() -> [UInt8]? {
    FileManager.default.contents(atPath: credentialsFile).map { Array($0) }
  }

  /// `credentials.json` parsed as JSON, or nil when absent or not JSON.
  func credentialsJSON() -> [String: Any]? {
    guard let bytes = credentialsBytes() else { return nil }
    return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
  }
}
