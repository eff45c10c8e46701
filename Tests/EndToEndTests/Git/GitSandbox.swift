import Foundation
import GHLoginTestSupport

/// A private HOME for running the built ghlogin with real git and shells, without the fake
/// GitHub: the credentials file is seeded directly (0600, the version-1 format of
/// Store/CredentialCoding.swift), and git reads only `$HOME/gitconfig` (`GIT_CONFIG_GLOBAL`,
/// no system file) and never prompts (`GIT_TERMINAL_PROMPT=0`).
final class GitSandbox: @unchecked Sendable {
  /// The sandbox root (0700), removed with the sandbox.
  private let root: TemporaryDirectory
  /// The sandbox root; also `HOME`.
  var home: String { root.path }

  init() throws {
    root = try TemporaryDirectory(prefix: "ghlogin-git")
    let home = root.path
    for dir in [home + "/.config", home + "/.config/ghlogin"] {
      try FileManager.default.createDirectory(
        atPath: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }
    guard FileManager.default.createFile(atPath: home + "/gitconfig", contents: Data()) else {
      throw HarnessError("cannot create the git config in \(home)")
    }
  }

  var credentialsFile: String { home + "/.config/ghlogin/credentials.json" }
  /// git's global config file (`GIT_CONFIG_GLOBAL`).
  var gitConfig: String { home + "/gitconfig" }

  /// One stored login.
  struct Login {
    var host: String
    var login: String
    var token: String
    var expiresAt: Int? = nil
  }

  /// Writes `credentials.json` (mode 0600) holding `logins`, each the active one of its host.
  func seed(_ logins: [Login]) throws {
    var hosts: [String: Any] = [:]
    for (index, entry) in logins.enumerated() {
      var account = CredentialsFile.account(login: entry.login, userID: index + 1, token: entry.token, scopes: ["repo"])
      if let expiresAt = entry.expiresAt { account["expires_at"] = expiresAt }
      hosts[entry.host] = ["active": entry.login, "accounts": [account]]
    }
    try CredentialsFile.write(hosts: hosts, to: credentialsFile)
  }

  /// The environment for ghlogin, git and the shells: nothing inherited but `PATH`.
  func environment(_ extra: [String: String] = [:]) -> [String: String] {
    var env = [
      "HOME": home,
      "XDG_CONFIG_HOME": home + "/.config",
      "GIT_CONFIG_GLOBAL": gitConfig,
      "GIT_CONFIG_NOSYSTEM": "1",
      "GIT_TERMINAL_PROMPT": "0",
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
      "LANG": "C.UTF-8",
    ]
    env.merge(extra) { _, new in new }
    return env
  }

  /// Runs `git ARGUMENTS` in the sandbox with `stdin`.
  func git(_ arguments: [String], stdin: String = "", env extra: [String: String] = [:]) throws
    -> (status: Int32, stdout: String, stderr: String)
  {
    let git = try GitSandbox.program("git")
    return try ChildProcess(executable: git, arguments: arguments, environment: environment(extra), stdin: stdin)
      .finish(timeout: 60)
  }

  /// Runs the built ghlogin in the sandbox.
  func ghlogin(_ arguments: [String], stdin: String = "", env extra: [String: String] = [:]) throws
    -> (status: Int32, stdout: String, stderr: String)
  {
    try runGHLogin(arguments, env: environment(extra), stdin: stdin)
  }

  /// The first executable `name` on this process's `PATH`.
  static func program(_ name: String) throws -> String {
    guard let found = optionalProgram(name) else { throw HarnessError("\(name) is not installed") }
    return found
  }

  /// The first executable `name` on this process's `PATH`, or nil.
  static func optionalProgram(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }
}
