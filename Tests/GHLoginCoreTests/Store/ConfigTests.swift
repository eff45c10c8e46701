import GHLoginTestSupport
import Glibc
import Testing

@testable import GHLoginCore

/// Writes `text` as a config file in a fresh directory and loads it.
private func load(_ text: String, variables: [String: String] = [:]) throws -> (Config, String) {
  let directory = try TemporaryDirectory()
  let file = directory.at("config.json")
  try writeFile(file, text)
  let paths = ConfigPaths(configFile: file, credentialsFile: directory.at("credentials.json"), home: nil)
  return (try Config.load(paths: paths, variables: EnvironmentVariables(variables)), file)
}

/// The message of the `ConfigError` loading `text` throws, in Core's words (with FILE standing
/// for the path), after checking that it exits with status 2.
private func failure(_ text: String, variables: [String: String] = [:]) throws -> String {
  let directory = try TemporaryDirectory()
  let file = directory.at("config.json")
  try writeFile(file, text)
  let paths = ConfigPaths(configFile: file, credentialsFile: directory.at("credentials.json"), home: nil)
  let error = try #require(throws: ConfigError.self) {
    try Config.load(paths: paths, variables: EnvironmentVariables(variables))
  }
  #expect(error.exitStatus == .usage)
  return error.message.replacingOccurrences(of: file, with: "FILE")
}

@Suite struct ConfigLoadTests {
  @Test func missingFileGivesDefaults() throws {
    let directory = try TemporaryDirectory()
    let paths = ConfigPaths(configFile: directory.at("none/config.json"), credentialsFile: directory.at("c"), home: nil)
    let config = try Config.load(paths: paths, variables: [:])
    #expect(config == Config(file: directory.at("none/config.json"), fileExisted: false))
    #expect(config.defaultHost == "github.com")
    #expect(config.settings(for: "github.com") == HostSettings())
  }

  @Test func emptyObjectIsFine() throws {
    let (config, file) = try load("{}")
    #expect(config == Config(file: file, fileExisted: true))
  }

  @Test func readsEveryKey() throws {
    let (config, _) = try load(
      """
      {"host": "GHE.Example.com", "client_id": "top-id", "client_secret": "top-secret", "scopes": ["repo", "gist"],
       "authorize_url": "https://ghe.example.com/login/oauth/authorize", "token_url": "https://ghe.example.com/t",
       "device_code_url": "https://ghe.example.com/d", "api_url": "https://ghe.example.com/api/v3", "ca_file": "/ca.pem",
       "hosts": {"Other.Example:8443": {"client_id": "o", "client_secret": "s", "scopes": [], "authorize_url": "http://127.0.0.1:9/a",
         "token_url": "http://127.0.0.2/t", "device_code_url": "http://[::1]:8/d", "api_url": "https://other.example/api", "ca_file": "/o.pem"}}}
      """)
    #expect(config.host == "ghe.example.com")
    #expect(
      config.topLevel
        == HostSettings(
          clientID: "top-id", clientSecret: "top-secret", scopes: ["repo", "gist"],
          authorizeURL: try WebURL(parsing: "https://ghe.example.com/login/oauth/authorize"),
          tokenURL: try WebURL(parsing: "https://ghe.example.com/t"),
          deviceCodeURL: try WebURL(parsing: "https://ghe.example.com/d"),
          apiURL: try WebURL(parsing: "https://ghe.example.com/api/v3"), caFile: "/ca.pem"))
    #expect(Array(config.hosts.keys) == ["other.example:8443"])
    let other = try #require(config.hosts["other.example:8443"])
    #expect(other.clientID == "o" && other.clientSecret == "s" && other.scopes == [] && other.caFile == "/o.pem")
    #expect(other.authorizeURL?.description == "http://127.0.0.1:9/a")
    #expect(other.tokenURL?.description == "http://127.0.0.2/t")
    #expect(other.deviceCodeURL?.description == "http://[::1]:8/d")
    #expect(other.apiURL?.description == "https://other.example/api")
  }

  @Test func exampleFileLoadsAndHasEveryKey() throws {
    let paths = ConfigPaths(
      configFile: repositoryRoot + "/config.example.json", credentialsFile: "/nonexistent", home: nil)
    let config = try Config.load(paths: paths, variables: [:])
    #expect(config.fileExisted)
    #expect(config.host == "github.com")
    #expect(config.hosts.keys.sorted() == ["auth.example.org", "ghe.example.com"])
    let blocks = [config.topLevel, try #require(config.hosts["ghe.example.com"])]
    // revocation_url is for OAuth servers that are not GitHub: the example's third block.
    #expect(config.hosts["auth.example.org"]?.revocationURL?.description == "https://auth.example.org/o/revoke_token/")
    for block in blocks {
      #expect(block.clientID != nil && block.clientSecret != nil && block.scopes != nil && block.caFile != nil)
      #expect(block.authorizeURL != nil && block.tokenURL != nil && block.deviceCodeURL != nil && block.apiURL != nil)
    }
  }

  @Test func invalidJSON() throws {
    #expect(
      try failure("{\n  \"client_id\": \"x\",\n}") == "FILE: invalid JSON at line 3, column 1: trailing comma before }")
    #expect(try failure("") == "FILE: invalid JSON at line 1, column 1: unexpected end of input, expected a value")
    #expect(
      try failure(#"{"scopes": ["a"] // c"#) == "FILE: invalid JSON at line 1, column 18: comments are not allowed")
  }

  @Test func topLevelMustBeAnObject() throws {
    #expect(try failure("[]") == "FILE: the top level must be a JSON object ({ ... })")
  }

  @Test(arguments: [
    (#"{"scopes": "repo"}"#, #"FILE: "scopes" must be an array of strings"#),
    (#"{"scopes": ["repo", 1]}"#, #"FILE: "scopes" must be an array of strings"#),
    (#"{"client_id": 12}"#, #"FILE: "client_id" must be a string"#),
    (#"{"client_secret": null}"#, #"FILE: "client_secret" must be a string"#),
    (#"{"host": true}"#, #"FILE: "host" must be a string"#),
    (#"{"token_url": ["https://x"]}"#, #"FILE: "token_url" must be a string"#),
    (#"{"ca_file": {}}"#, #"FILE: "ca_file" must be a string"#),
    (#"{"hosts": []}"#, #"FILE: "hosts" must be an object"#),
    (#"{"hosts": {"ghe.example.com": "x"}}"#, #"FILE: "hosts.ghe.example.com" must be an object"#),
    (
      #"{"hosts": {"ghe.example.com": {"client_id": 5}}}"#, #"FILE: "hosts.ghe.example.com.client_id" must be a string"#
    ),
    (
      #"{"hosts": {"ghe.example.com": {"scopes": "repo"}}}"#,
      #"FILE: "hosts.ghe.example.com.scopes" must be an array of strings"#
    ),
  ])
  func wrongType(text: String, message: String) throws {
    #expect(try failure(text) == message)
  }

  @Test(arguments: [
    (#"{"client_ld": "x"}"#, #"FILE: unknown key "client_ld"; did you mean "client_id"?"#),
    (#"{"client_secert": "x"}"#, #"FILE: unknown key "client_secert"; did you mean "client_secret"?"#),
    (#"{"Scopes": []}"#, #"FILE: unknown key "Scopes"; did you mean "scopes"?"#),
    (#"{"hostss": {}}"#, #"FILE: unknown key "hostss"; did you mean "hosts"?"#),
    (#"{"password": "x"}"#, #"FILE: unknown key "password""#),
    (
      #"{"hosts": {"ghe.example.com": {"tokn_url": "x"}}}"#,
      #"FILE: unknown key "hosts.ghe.example.com.tokn_url"; did you mean "token_url"?"#
    ),
    (#"{"hosts": {"ghe.example.com": {"host": "x"}}}"#, #"FILE: unknown key "hosts.ghe.example.com.host""#),
    (#"{"hosts": {"ghe.example.com": {"hosts": {}}}}"#, #"FILE: unknown key "hosts.ghe.example.com.hosts""#),
    ("{\"evil\\u001b[31m\": 1}", #"FILE: unknown key "evil\u001b[31m""#),
  ])
  func unknownKey(text: String, message: String) throws {
    #expect(try failure(text) == message)
  }

  @Test(arguments: [
    (
      #"{"token_url": "ghe.example.com/login"}"#,
      #"FILE: "token_url" is not a valid URL: it is not an absolute URL (expected https://HOST/...)"#
    ),
    (#"{"api_url": "ftp://x.example"}"#, #"FILE: "api_url" is not a valid URL: only https:// URLs are supported"#),
    (
      #"{"authorize_url": "https://user@x.example/a"}"#,
      #"FILE: "authorize_url" is not a valid URL: it has user info (user@host); put credentials in the config instead"#
    ),
    (
      #"{"hosts": {"a.example": {"device_code_url": "https://a.example:99999/"}}}"#,
      #"FILE: "hosts.a.example.device_code_url" is not a valid URL: its port must be a number from 1 to 65535"#
    ),
  ])
  func unparsableURL(text: String, message: String) throws {
    #expect(try failure(text) == message)
  }

  @Test(arguments: [
    (#"{"token_url": "http://github.com/login/oauth/access_token"}"#, "token_url"),
    (#"{"api_url": "http://10.0.0.1/api"}"#, "api_url"),
    (#"{"hosts": {"a.example": {"authorize_url": "http://a.example/"}}}"#, "hosts.a.example.authorize_url"),
    (#"{"device_code_url": "http://128.0.0.1/d"}"#, "device_code_url"),
    (#"{"device_code_url": "http://localhost.evil.example/d"}"#, "device_code_url"),
    (#"{"token_url": "http://localhost:8080/login/oauth/access_token"}"#, "token_url"),
    (#"{"hosts": {"a.example": {"api_url": "http://LocalHost/api"}}}"#, "hosts.a.example.api_url"),
  ])
  func plainHTTPRefusedUnlessLoopback(text: String, key: String) throws {
    #expect(
      try failure(text)
        == "FILE: \"\(key)\" uses http://; https is required except for literal loopback addresses (127.0.0.0/8 as "
        + "four plain decimal numbers such as 127.0.0.1, or [::1]), not the name localhost, which may resolve elsewhere"
    )
  }

  @Test(arguments: [
    (#"{"client_id": ""}"#, #"FILE: "client_id" must not be empty or contain spaces or control characters"#),
    (#"{"client_secret": "a b"}"#, #"FILE: "client_secret" must not contain spaces or control characters"#),
    ("{\"client_secret\": \"a\\tb\"}", #"FILE: "client_secret" must not contain spaces or control characters"#),
    (#"{"client_secret": " "}"#, #"FILE: "client_secret" must not contain spaces or control characters"#),
    (
      #"{"hosts": {"a.example": {"client_secret": "x\u0000"}}}"#,
      #"FILE: "hosts.a.example.client_secret" must not contain spaces or control characters"#
    ),
    ("{\"client_id\": \"a\\nb\"}", #"FILE: "client_id" must not be empty or contain spaces or control characters"#),
    (#"{"scopes": ["repo gist"]}"#, #"FILE: "scopes" must hold scope names without spaces, such as "repo""#),
    (#"{"scopes": [""]}"#, #"FILE: "scopes" must hold scope names without spaces, such as "repo""#),
    (#"{"ca_file": ""}"#, #"FILE: "ca_file" must be a non-empty path without control characters"#),
    (#"{"host": "https://github.com"}"#, #"FILE: "host" must be a host name such as github.com or ghe.example.com"#),
    (#"{"host": "evil.example/x"}"#, #"FILE: "host" must be a host name such as github.com or ghe.example.com"#),
    (#"{"host": ""}"#, #"FILE: "host" must be a host name such as github.com or ghe.example.com"#),
    (#"{"hosts": {"a b": {}}}"#, #"FILE: "hosts.a b" is not a host name such as github.com or ghe.example.com"#),
    (#"{"hosts": {"x@evil": {}}}"#, #"FILE: "hosts.x@evil" is not a host name such as github.com or ghe.example.com"#),
    (
      #"{"hosts": {"GitHub.com": {}, "github.com": {}}}"#,
      #"FILE: "hosts.github.com" repeats host github.com (host names ignore case)"#
    ),
  ])
  func invalidValue(text: String, message: String) throws {
    #expect(try failure(text) == message)
  }

  /// `"client_secret": ""` is a public client, exactly like an absent key (at
  /// the top level and in a host block, where the top-level secret then applies as it would).
  @Test func emptyClientSecretIsAPublicClient() throws {
    let (config, _) = try load(#"{"client_id": "Iv1.pub", "client_secret": ""}"#)
    #expect(config.topLevel == HostSettings(clientID: "Iv1.pub"))
    #expect(config.settings(for: "github.com").clientSecret == nil)
    let (absent, _) = try load(#"{"client_id": "Iv1.pub"}"#)
    #expect(config.settings(for: "github.com") == absent.settings(for: "github.com"))
    let (blocks, _) = try load(
      #"{"client_id": "top", "hosts": {"a.example": {"client_id": "own", "client_secret": ""}}}"#)
    #expect(blocks.hosts["a.example"] == HostSettings(clientID: "own"))
    #expect(blocks.settings(for: "a.example").clientSecret == nil)
  }

  @Test func secretNeverInMessages() throws {
    let message = try failure(#"{"client_secret": "s3cr3t value", "x": 1}"#)
    #expect(!message.contains("s3cr3t"))
  }

  @Test func symlinkedFileRefused() throws {
    let directory = try TemporaryDirectory()
    try writeFile(directory.at("real.json"), "{}")
    #expect(symlink(directory.at("real.json"), directory.at("config.json")) == 0)
    let paths = ConfigPaths(configFile: directory.at("config.json"), credentialsFile: directory.at("c"), home: nil)
    #expect(throws: ConfigError.symbolicLink(file: directory.at("config.json"))) {
      try Config.load(paths: paths, variables: [:])
    }
    #expect(
      ConfigError.symbolicLink(file: "/c.json").message
        == "refusing to use /c.json: it is a symbolic link; replace it with the file itself")
  }

  @Test func directoryRefused() throws {
    let directory = try TemporaryDirectory()
    let paths = ConfigPaths(configFile: directory.path, credentialsFile: directory.at("c"), home: nil)
    let error = try #require(throws: ConfigError.self) { try Config.load(paths: paths, variables: [:]) }
    #expect(error.message == "\(directory.path) is not a regular file")
  }

  @Test func largeFileRefused() throws {
    let text = "{\"scopes\": [\"" + String(repeating: "a", count: 1024 * 1024) + "\"]}"
    #expect(try failure(text) == "FILE is larger than 1 MiB; it is not a config file")
  }

  @Test(.enabled(if: geteuid() != 0, "root can read any file"))
  func unreadableFile() throws {
    let directory = try TemporaryDirectory()
    try writeFile(directory.at("config.json"), "{}", mode: 0o000)
    let paths = ConfigPaths(configFile: directory.at("config.json"), credentialsFile: directory.at("c"), home: nil)
    let error = try #require(throws: ConfigError.self) { try Config.load(paths: paths, variables: [:]) }
    #expect(error.message == "cannot read \(directory.at("config.json")): Permission denied")
  }
}
