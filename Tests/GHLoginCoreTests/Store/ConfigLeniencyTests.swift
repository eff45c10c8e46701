import GHLoginTestSupport
import Testing

@testable import GHLoginCore

/// `UnknownConfigKeys.lenient`: unknown keys left out and listed, everything else
/// as strict as ever.
@Suite struct ConfigLeniencyTests {
  func load(_ text: String, _ mode: UnknownConfigKeys) throws -> Config {
    let directory = try TemporaryDirectory()
    let file = directory.at("config.json")
    try writeFile(file, text)
    let paths = ConfigPaths(configFile: file, credentialsFile: directory.at("credentials.json"), home: nil)
    return try Config.load(paths: paths, variables: [:], unknownKeys: mode)
  }

  @Test func unknownKeysAreLeftOutAndListed() throws {
    let text =
      #"{"client_id": "id", "scopse": ["x"], "hosts": {"ghe.test": {"clinet_id": "y", "scopes": ["repo"]}}, "zzz": 1}"#
    let config = try load(text, .lenient)
    #expect(config.topLevel.clientID == "id")
    #expect(config.hosts["ghe.test"]?.scopes == ["repo"])
    #expect(config.hosts["ghe.test"]?.clientID == nil)
    #expect(
      config.ignoredKeys == [
        IgnoredConfigKey(path: "scopse", suggestion: "scopes"),
        IgnoredConfigKey(path: "hosts.ghe.test.clinet_id", suggestion: "client_id"),
        IgnoredConfigKey(path: "zzz", suggestion: nil),
      ])
    #expect(config.ignoredKeysWarnings == [.ignoredKeys(file: config.file, keys: config.ignoredKeys)])
    #expect(
      config.ignoredKeysWarnings.map { $0.text(.words) }
        == [
          "\(config.file): ignoring unknown keys \"scopse\" (did you mean \"scopes\"?), "
            + "\"hosts.ghe.test.clinet_id\" (did you mean \"client_id\"?), \"zzz\"; fix the file: a login, a refresh "
            + "and a logout refuse it"
        ])
  }

  @Test func strictStillRefuses() throws {
    #expect(throws: ConfigError.self) { try load(#"{"scopse": ["x"]}"#, .strict) }
    #expect(try load(#"{"scopes": ["x"]}"#, .lenient).ignoredKeysWarnings.isEmpty)
  }

  /// A wrong shape or type is an error even when lenient.
  @Test(arguments: [
    #"{"hosts": []}"#, #"{"hosts": {"ghe.test": 1}}"#, #"{"scopes": "repo"}"#, #"{"api_url": "http://x.test"}"#,
  ])
  func wrongTypesStillFail(_ text: String) throws {
    #expect(throws: ConfigError.self) { try load(text, .lenient) }
  }

  /// A key with control characters is shown escaped in the warning.
  @Test func keysAreEscaped() throws {
    let config = try load("{\"a\\u001b[31m\": 1}", .lenient)
    #expect(config.ignoredKeysWarnings.count == 1)
    #expect(config.ignoredKeysWarnings.first?.text(.words).contains("\u{1b}") == false)
  }
}
