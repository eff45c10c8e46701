/// Where the config file, the credentials file and its lock live, from the environment alone.
///
/// - configFile: `$GHLOGIN_CONFIG`, else `$XDG_CONFIG_HOME/ghlogin/config.json` (only when
///   `XDG_CONFIG_HOME` is an absolute path, as the XDG spec requires), else
///   `$HOME/.config/ghlogin/config.json`.
/// - credentialsFile: `$GHLOGIN_CREDENTIALS`, else `$XDG_CONFIG_HOME/ghlogin/credentials.json`
///   (absolute only), else `$HOME/.config/ghlogin/credentials.json`, whatever `GHLOGIN_CONFIG`
///   says (R86): a config is something people share (in `/etc`, in a team's dotfiles, in a
///   repository), a token is one person's secret and must never land beside it.
/// - lockFile: the credentials file's path plus `.lock`, so it is always in the same directory.
///
/// Never falls back to `/tmp` (R62): without `HOME` and without the variables above it throws.
package struct ConfigPaths: Sendable, Equatable {
  package var configFile: String
  package var credentialsFile: String
  package var lockFile: String
  /// `$HOME` when it is set to an absolute path; the store's parent-directory walk stops there.
  package var home: String?
  /// `credentials.json` beside a `$GHLOGIN_CONFIG` that is not in the user's own directory:
  /// where earlier versions kept the credentials. Never read; only named in
  /// ``movedCredentialsNotice(exists:)``. Nil when `GHLOGIN_CREDENTIALS` is set or it is the
  /// credentials file itself.
  var formerCredentialsFile: String?

  package init(
    configFile: String, credentialsFile: String, lockFile: String? = nil, home: String?,
    formerCredentialsFile: String? = nil
  ) {
    self.configFile = configFile
    self.credentialsFile = credentialsFile
    self.lockFile = lockFile ?? credentialsFile + ".lock"
    self.home = home
    self.formerCredentialsFile = formerCredentialsFile
  }

  /// Resolves the paths from environment variables; empty variables count as unset.
  package static func resolve(_ variables: EnvironmentVariables) throws(ConfigError) -> ConfigPaths {
    func value(_ name: String) -> String? {
      guard let text = variables[name], !text.isEmpty else { return nil }
      return text
    }
    let home = value("HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
    let ownDirectory: String?
    if let xdg = value("XDG_CONFIG_HOME"), xdg.hasPrefix("/") {
      ownDirectory = FilePath.join(xdg, ProductNames.configDirectory)
    } else if let home {
      ownDirectory = FilePath.join(home, ".config/" + ProductNames.configDirectory)
    } else {
      ownDirectory = nil
    }
    let explicitConfig = value("GHLOGIN_CONFIG")
    guard let configFile = explicitConfig ?? ownDirectory.map({ FilePath.join($0, "config.json") }) else {
      throw .noHome
    }
    if let explicit = value("GHLOGIN_CREDENTIALS") {
      return ConfigPaths(configFile: configFile, credentialsFile: explicit, home: home)
    }
    guard let ownDirectory else { throw .noHome }
    let credentialsFile = FilePath.join(ownDirectory, "credentials.json")
    var former: String?
    if let explicitConfig {
      let beside = FilePath.join(FilePath.directory(of: explicitConfig), "credentials.json")
      if beside != credentialsFile { former = beside }
    }
    return ConfigPaths(
      configFile: configFile, credentialsFile: credentialsFile, home: home, formerCredentialsFile: former)
  }

  /// The note for a `credentials.json` left beside a custom `GHLOGIN_CONFIG` by an earlier
  /// version while none exists at ``credentialsFile``: where the file is now looked for, and
  /// the exact commands that move it there. Nil otherwise. `exists` tells whether something is
  /// at a path (nothing is read, moved or created here).
  package func movedCredentialsNotice(exists: (String) -> Bool) -> ConfigNotice? {
    guard let former = formerCredentialsFile, exists(former), !exists(credentialsFile) else { return nil }
    return .movedCredentials(
      former: former, credentialsFile: credentialsFile, directory: FilePath.directory(of: credentialsFile))
  }

  /// `path` as one sh word: as it is when it holds only `A-Za-z0-9/._-+,:@%`, else single-quoted.
  static func shellWord(_ path: String) -> String {
    let plain =
      !path.isEmpty
      && path.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"):
          return true
        default: return "/._-+,:@%".utf8.contains(byte)
        }
      }
    return plain ? path : ShellQuoting.quote(path, for: .sh)
  }
}
