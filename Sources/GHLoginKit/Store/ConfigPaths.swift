/// Where the config file, the credentials file and its lock live, from the environment alone.
///
/// - configFile: `$GHLOGIN_CONFIG`, else `$XDG_CONFIG_HOME/ghlogin/config.json` (only when
///   `XDG_CONFIG_HOME` is an absolute path, as the XDG spec requires), else
///   `$HOME/.config/ghlogin/config.json`.
/// - credentialsFile: `$GHLOGIN_CREDENTIALS`, else `credentials.json` next to the config file.
/// - lockFile: the credentials file's path plus `.lock`, so it is always in the same directory.
///
/// Never falls back to `/tmp` (R62): without `HOME` and without the variables above it throws.
struct ConfigPaths: Sendable, Equatable {
  var configFile: String
  var credentialsFile: String
  var lockFile: String
  /// `$HOME` when it is set to an absolute path; the store's parent-directory walk stops there.
  var home: String?

  init(configFile: String, credentialsFile: String, lockFile: String? = nil, home: String?) {
    self.configFile = configFile
    self.credentialsFile = credentialsFile
    self.lockFile = lockFile ?? credentialsFile + ".lock"
    self.home = home
  }

  /// Resolves the paths from environment variables; empty variables count as unset.
  static func resolve(_ variables: [String: String]) throws(ConfigError) -> ConfigPaths {
    func value(_ name: String) -> String? {
      guard let text = variables[name], !text.isEmpty else { return nil }
      return text
    }
    let home = value("HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
    let configFile: String
    if let explicit = value("GHLOGIN_CONFIG") {
      configFile = explicit
    } else if let xdg = value("XDG_CONFIG_HOME"), xdg.hasPrefix("/") {
      configFile = FilePath.join(FilePath.join(xdg, "ghlogin"), "config.json")
    } else if let home {
      configFile = FilePath.join(home, ".config/ghlogin/config.json")
    } else {
      throw .noHome
    }
    let credentialsFile =
      value("GHLOGIN_CREDENTIALS") ?? FilePath.join(FilePath.directory(of: configFile), "credentials.json")
    return ConfigPaths(configFile: configFile, credentialsFile: credentialsFile, home: home)
  }
}
