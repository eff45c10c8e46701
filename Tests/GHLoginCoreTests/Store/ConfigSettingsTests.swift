import GHLoginTestSupport
import Testing

@testable import GHLoginCore

/// How ``Config/settings(for:)`` merges host blocks, top-level keys and the environment.
@Suite struct ConfigSettingsTests {
  static func url(_ text: String) -> WebURL? { try? WebURL(parsing: text) }

  static let topLevel = HostSettings(
    clientID: "top-id", clientSecret: "top-secret", scopes: ["repo"], authorizeURL: url("https://top.example/a"),
    tokenURL: url("https://top.example/t"), deviceCodeURL: url("https://top.example/d"),
    apiURL: url("https://api.top.example"),
    caFile: "/top.pem")

  /// The top-level endpoints and app (issue 29 §5: an OAuth app exists on one GitHub host).
  @Test func topLevelEndpointsAndAppApplyToTheDefaultHostOnly() {
    let config = Config(file: "f", topLevel: Self.topLevel)
    #expect(config.settings(for: "github.com") == Self.topLevel)
    #expect(config.settings(for: "GitHub.COM") == Self.topLevel)
    let other = config.settings(for: "ghe.example.com")
    #expect(other == HostSettings(scopes: ["repo"], caFile: "/top.pem"))
    // With ghe.example.com the config's host, the app moves with it.
    let moved = Config(file: "f", host: "ghe.example.com", topLevel: Self.topLevel)
    #expect(moved.settings(for: "ghe.example.com").clientID == "top-id")
    #expect(moved.settings(for: "github.com").clientID == nil)
  }

  /// The environment's pair is a layer like the others: the default host's only.
  @Test func theEnvironmentsAppIsTheDefaultHostsOnly() {
    var config = Config(file: "f", clientIDOverride: "env-id", clientSecretOverride: "env-secret")
    #expect(config.settings(for: "github.com") == HostSettings(clientID: "env-id", clientSecret: "env-secret"))
    #expect(config.settings(for: "ghe.example.com") == HostSettings())
    config.hosts["ghe.example.com"] = HostSettings(clientID: "ghe-id")
    #expect(config.settings(for: "ghe.example.com") == HostSettings(clientID: "ghe-id"))
  }

  /// A config that relied on the top-level app for another host's block is told of the move.
  @Test func aHostBlockThatReliedOnTheTopLevelAppIsWarned() {
    var config = Config(
      file: "/c.json", topLevel: Self.topLevel, hosts: ["ghe.example.com": HostSettings(scopes: ["repo"])])
    #expect(
      config.movedAppWarnings
        == [.movedApp(file: "/c.json", defaultHost: "github.com", host: "ghe.example.com", clientID: "top-id")])
    config.hosts["ghe.example.com"]?.clientID = "ghe-id"
    #expect(config.movedAppWarnings.isEmpty)
    config.hosts = ["github.com": HostSettings(scopes: ["repo"])]
    #expect(config.movedAppWarnings.isEmpty, "the default host's own block")
  }

  @Test func topLevelHostMovesTheEndpoints() {
    let config = Config(file: "f", host: "ghe.example.com", topLevel: Self.topLevel)
    #expect(config.defaultHost == "ghe.example.com")
    #expect(config.settings(for: "ghe.example.com").tokenURL == Self.url("https://top.example/t"))
    #expect(config.settings(for: "github.com").tokenURL == nil)
  }

  @Test func hostBlockWins() {
    let block = HostSettings(
      clientID: "ghe-id", clientSecret: "ghe-secret", scopes: ["read:org"],
      tokenURL: Self.url("https://ghe.example.com/t"),
      caFile: "/ghe.pem")
    let config = Config(file: "f", topLevel: Self.topLevel, hosts: ["ghe.example.com": block])
    #expect(config.settings(for: "GHE.example.com") == block)
  }

  @Test func secretIsNotPairedWithAnotherAppsID() {
    let config = Config(
      file: "f", topLevel: Self.topLevel, hosts: ["ghe.example.com": HostSettings(clientID: "ghe-id")])
    let settings = config.settings(for: "ghe.example.com")
    #expect(settings.clientID == "ghe-id")
    #expect(settings.clientSecret == nil)
  }

  @Test func blockSecretAloneKeepsTopLevelIDOnTheDefaultHost() {
    let config = Config(
      file: "f", host: "ghe.example.com", topLevel: Self.topLevel,
      hosts: ["ghe.example.com": HostSettings(clientSecret: "s2")])
    let settings = config.settings(for: "ghe.example.com")
    #expect(settings.clientID == "top-id")
    #expect(settings.clientSecret == "s2")
    let other = Config(file: "f", topLevel: Self.topLevel, hosts: ["ghe.example.com": HostSettings(clientSecret: "s2")])
    #expect(other.settings(for: "ghe.example.com").clientID == nil)
  }

  @Test func environmentOverrides() throws {
    let directory = try TemporaryDirectory()
    try writeFile(directory.at("config.json"), #"{"client_id": "file-id", "client_secret": "file-secret"}"#)
    let paths = ConfigPaths(configFile: directory.at("config.json"), credentialsFile: directory.at("c"), home: nil)

    let both = try Config.load(
      paths: paths, variables: ["GHLOGIN_CLIENT_ID": "env-id", "GHLOGIN_CLIENT_SECRET": "env-secret"])
    #expect(both.settings(for: "github.com").clientID == "env-id")
    #expect(both.settings(for: "github.com").clientSecret == "env-secret")
    #expect(both.topLevel.clientID == "file-id")

    let idOnly = try Config.load(paths: paths, variables: ["GHLOGIN_CLIENT_ID": "env-id"])
    #expect(idOnly.settings(for: "github.com").clientID == "env-id")
    #expect(idOnly.settings(for: "github.com").clientSecret == nil)

    let secretOnly = try Config.load(paths: paths, variables: ["GHLOGIN_CLIENT_SECRET": "env-secret"])
    #expect(secretOnly.settings(for: "github.com").clientID == "file-id")
    #expect(secretOnly.settings(for: "github.com").clientSecret == "file-secret", "R108: a lone secret is ignored")
    #expect(
      secretOnly.loneClientSecretWarning?.text(.words)
        == "GHLOGIN_CLIENT_SECRET is ignored without GHLOGIN_CLIENT_ID (a secret is only sent "
        + "with the client ID of its own layer); set both variables")
    #expect(both.loneClientSecretWarning == nil)

    let empty = try Config.load(paths: paths, variables: ["GHLOGIN_CLIENT_ID": "", "GHLOGIN_CLIENT_SECRET": ""])
    #expect(empty.settings(for: "github.com").clientID == "file-id")
  }

  @Test(arguments: ["GHLOGIN_CLIENT_ID", "GHLOGIN_CLIENT_SECRET"])
  func environmentValuesAreChecked(variable: String) throws {
    let paths = ConfigPaths(configFile: "/nonexistent/config.json", credentialsFile: "/nonexistent/c", home: nil)
    let error = try #require(throws: ConfigError.self) {
      try Config.load(paths: paths, variables: [variable: "abc\r\ndef"])
    }
    #expect(error.message == "\(variable) must not contain spaces or control characters")
    #expect(error.exitStatus == .usage)
  }

  @Test func hostWithPortMatchesItsBlock() {
    let block = HostSettings(clientID: "p")
    let config = Config(file: "f", hosts: ["ghe.example.com:8443": block])
    #expect(config.settings(for: "GHE.example.com:8443").clientID == "p")
    #expect(config.settings(for: "ghe.example.com").clientID == nil)
  }
}
