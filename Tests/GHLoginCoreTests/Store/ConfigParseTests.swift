import GHLoginTestSupport
import Testing

@testable import GHLoginCore

/// `Config.parse(bytes:file:variables:)`, the seam the config fuzz target drives: the same
/// validation as `Config.load` without reading a file.
@Suite struct ConfigParseTests {
  @Test func parsesLikeLoad() throws {
    let directory = try TemporaryDirectory()
    let file = directory.at("config.json")
    let text = #"{"host": "GHE.example.com", "client_id": "id", "hosts": {"ghe.example.com": {"scopes": ["repo"]}}}"#
    try writeFile(file, text)
    let paths = ConfigPaths(configFile: file, credentialsFile: directory.at("credentials.json"), home: nil)
    let variables = ["GHLOGIN_CLIENT_SECRET": "s3cret"]
    let loaded = try Config.load(paths: paths, variables: EnvironmentVariables(variables))
    let parsed = try Config.parse(bytes: Array(text.utf8), file: file, variables: EnvironmentVariables(variables))
    #expect(parsed == loaded)
    #expect(parsed.fileExisted)
    #expect(parsed.host == "ghe.example.com")
    #expect(parsed.clientSecretOverride == "s3cret")
  }

  @Test func namesTheFileInErrors() throws {
    let error = try #require(throws: ConfigError.self) {
      try Config.parse(bytes: Array("[]".utf8), file: "/nowhere/config.json", variables: [:])
    }
    #expect(error == .notAnObject(file: "/nowhere/config.json"))
  }

  @Test func checksTheEnvironmentFirst() throws {
    let error = try #require(throws: ConfigError.self) {
      try Config.parse(bytes: Array("not json".utf8), file: "/c.json", variables: ["GHLOGIN_CLIENT_ID": "a b"])
    }
    #expect(
      error
        == .invalidEnvironment(variable: "GHLOGIN_CLIENT_ID", reason: "must not contain spaces or control characters"))
  }
}
