import Testing

@testable import GHLoginKit

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

  @Test func explicitConfigWins() throws {
    let paths = try ConfigPaths.resolve(["HOME": "/home/u", "XDG_CONFIG_HOME": "/xdg", "GHLOGIN_CONFIG": "/etc/gh/c.json"])
    #expect(paths.configFile == "/etc/gh/c.json")
    #expect(paths.credentialsFile == "/etc/gh/credentials.json")
  }

  @Test func explicitCredentials() throws {
    let paths = try ConfigPaths.resolve(["HOME": "/home/u", "GHLOGIN_CREDENTIALS": "/secure/creds.json"])
    #expect(paths.configFile == "/home/u/.config/ghlogin/config.json")
    #expect(paths.credentialsFile == "/secure/creds.json")
    #expect(paths.lockFile == "/secure/creds.json.lock")
  }

  @Test func relativeConfigFileKeepsCredentialsAlongside() throws {
    let paths = try ConfigPaths.resolve(["GHLOGIN_CONFIG": "config.json"])
    #expect(paths.credentialsFile == "./credentials.json")
    #expect(paths.home == nil)
  }

  @Test(arguments: [[:], ["HOME": ""], ["HOME": "relative"], ["XDG_CONFIG_HOME": "relative"]] as [[String: String]])
  func noHomeIsAnError(variables: [String: String]) {
    #expect(throws: ConfigError.noHome) { try ConfigPaths.resolve(variables) }
    #expect(
      ConfigError.noHome.message
        == "cannot find the config directory: HOME is not set to an absolute path; set HOME, or GHLOGIN_CONFIG")
    #expect(ConfigError.noHome.exitStatus == .usage)
  }

  @Test func xdgWithoutHomeIsEnough() throws {
    let paths = try ConfigPaths.resolve(["XDG_CONFIG_HOME": "/xdg"])
    #expect(paths.configFile == "/xdg/ghlogin/config.json")
    #expect(paths.home == nil)
  }
}
