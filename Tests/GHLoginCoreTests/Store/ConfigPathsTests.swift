import Testing

import GHLoginTestSupport

@testable import GHLoginCore

@Suite struct ConfigPathsTests {
  @Test func homeDefault() throws {
    let paths = try ConfigPaths.resolve(["HOME": "/home/u"])
    #expect(paths.configFile == "/home/u/.config/ghlogin/config.json")
    #expect(paths.credentialsFile == "/home/u/.config/ghlogin/credentials.json")
    #expect(paths.lockFile == "/home/u/.config/ghlogin/credentials.json.lock")
    #expect(paths.home == "/home/u")
  }

  @Test func xdgConfigHomeWhenAbsolute() throws {
    let paths = try ConfigPaths.resolve(["HOME": "/home/u", "XDG_CONFIG_HOME": "/xdg/"])
    #expect(paths.configFile == "/xdg/ghlogin/config.json")
    #expect(paths.credentialsFile == "/xdg/ghlogin/credentials.json")
    #expect(paths.lockFile == "/xdg/ghlogin/credentials.json.lock")
  }

  @Test(arguments: ["relative/xdg", "", "~/xdg"])
  func xdgConfigHomeIgnoredWhenNotAbsolute(xdg: String) throws {
    let paths = try ConfigPaths.resolve(["HOME": "/home/u", "XDG_CONFIG_HOME": xdg])
    #expect(paths.configFile == "/home/u/.config/ghlogin/config.json")
  }

  /// R86: GHLOGIN_CONFIG moves the config only; the credentials stay in the user's own directory.
  @Test func explicitConfigWinsButCredentialsStayInTheUsersDirectory() throws {
    let paths = try ConfigPaths.resolve([
      "HOME": "/home/u", "XDG_CONFIG_HOME": "/xdg", "GHLOGIN_CONFIG": "/etc/gh/c.json",
    ])
    #expect(paths.configFile == "/etc/gh/c.json")
    #expect(paths.credentialsFile == "/xdg/ghlogin/credentials.json")
    #expect(paths.lockFile == "/xdg/ghlogin/credentials.json.lock")
    #expect(paths.formerCredentialsFile == "/etc/gh/credentials.json")
    let home = try ConfigPaths.resolve(["HOME": "/home/u", "XDG_CONFIG_HOME": "rel", "GHLOGIN_CONFIG": "/repo/c.json"])
    #expect(home.credentialsFile == "/home/u/.config/ghlogin/credentials.json")
  }

  @Test func configInTheUsersOwnDirectoryHasNoFormerCredentials() throws {
    let paths = try ConfigPaths.resolve(["HOME": "/home/u", "GHLOGIN_CONFIG": "/home/u/.config/ghlogin/other.json"])
    #expect(paths.credentialsFile == "/home/u/.config/ghlogin/credentials.json")
    #expect(paths.formerCredentialsFile == nil)
    let explicit = try ConfigPaths.resolve([
      "HOME": "/home/u", "GHLOGIN_CONFIG": "/etc/c.json", "GHLOGIN_CREDENTIALS": "/s/c",
    ])
    #expect(explicit.formerCredentialsFile == nil)
  }

  /// R86: the note for a credentials.json left beside a custom config: only when it exists and
  /// none is at the new place; it names both paths and the exact commands (quoted for sh).
  @Test func movedCredentialsNotice() throws {
    let paths = try ConfigPaths.resolve(["HOME": "/home/u", "GHLOGIN_CONFIG": "/work/team repo/ghlogin.json"])
    let former = "/work/team repo/credentials.json"
    let current = "/home/u/.config/ghlogin/credentials.json"
    #expect(
      paths.movedCredentialsNotice(exists: { $0 == former })
        == .movedCredentials(former: former, credentialsFile: current, directory: "/home/u/.config/ghlogin"))
    #expect(paths.movedCredentialsNotice(exists: { $0 == former || $0 == current }) == nil, "the new place has one")
    #expect(paths.movedCredentialsNotice(exists: { _ in false }) == nil, "nothing to move")
    #expect(ConfigPaths.shellWord("/a/it's") == #"'/a/it'\''s'"#)
  }

  @Test func explicitCredentials() throws {
    let paths = try ConfigPaths.resolve(["HOME": "/home/u", "GHLOGIN_CREDENTIALS": "/secure/creds.json"])
    #expect(paths.configFile == "/home/u/.config/ghlogin/config.json")
    #expect(paths.credentialsFile == "/secure/creds.json")
    #expect(paths.lockFile == "/secure/creds.json.lock")
  }

  @Test func configAndCredentialsBothExplicitNeedNoHome() throws {
    let paths = try ConfigPaths.resolve(["GHLOGIN_CONFIG": "config.json", "GHLOGIN_CREDENTIALS": "/s/creds.json"])
    #expect(paths.configFile == "config.json")
    #expect(paths.credentialsFile == "/s/creds.json")
    #expect(paths.home == nil)
  }

  @Test(
    arguments: [
      [:], ["HOME": ""], ["HOME": "relative"], ["XDG_CONFIG_HOME": "relative"], ["GHLOGIN_CONFIG": "/etc/c.json"],
    ] as [[String: String]])
  func noHomeIsAnError(variables: [String: String]) {
    #expect(throws: ConfigError.noHome) { try ConfigPaths.resolve(EnvironmentVariables(variables)) }
    #expect(
      ConfigError.noHome.message
        == "cannot find the config directory: HOME is not set to an absolute path; set HOME (or XDG_CONFIG_HOME, "
        + "or both GHLOGIN_CONFIG and GHLOGIN_CREDENTIALS)")
    #expect(ConfigError.noHome.exitStatus == .usage)
  }

  @Test func xdgWithoutHomeIsEnough() throws {
    let paths = try ConfigPaths.resolve(["XDG_CONFIG_HOME": "/xdg"])
    #expect(paths.configFile == "/xdg/ghlogin/config.json")
    #expect(paths.home == nil)
  }
}
