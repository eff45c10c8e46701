import GHLoginTestSupport
import Testing

@testable import GHLoginCore

/// The layers of the configuration (built-in app < system file < user's file <
/// environment), merged key by key with `client_id` and `client_secret` from one layer, and
/// where each key came from (``Config/entries``, for `help config` and `config list`).
@Suite struct ConfigLayersTests {
  static let builtIn = BuiltInApp(clientID: "Ov23liBUILTIN", clientSecret: "built-in-secret", name: "Acme")

  static func system(_ top: HostSettings = HostSettings(), hosts: [String: HostSettings] = [:], host: String? = nil)
    -> ConfigFileLayer
  {
    ConfigFileLayer(file: "/etc/xdg/ghlogin/config.json", host: host, topLevel: top, hosts: hosts)
  }

  @Test func theBuiltInAppIsForGitHubDotComOnlyAndTheLowestLayer() {
    var config = Config(file: "user.json")
    config.builtIn = Self.builtIn
    #expect(config.settings(for: "github.com").clientID == "Ov23liBUILTIN")
    #expect(config.settings(for: "github.com").clientSecret == "built-in-secret")
    #expect(config.settings(for: "ghe.example.com").clientID == nil)
    config.system = Self.system(HostSettings(clientID: "org-id"))
    #expect(config.settings(for: "github.com").clientID == "org-id")
    #expect(config.settings(for: "github.com").clientSecret == nil, "the built-in secret stays with its own ID")
    config.topLevel = HostSettings(clientID: "my-id", clientSecret: "my-secret")
    #expect(config.settings(for: "github.com").clientID == "my-id")
    #expect(config.settings(for: "github.com").clientSecret == "my-secret")
  }

  /// Issue 29 §2: the layer a refused client ID came from, by the rules of `settings(for:)`.
  @Test func theClientIDsSourceIsTheLayerThatGivesIt() {
    var config = Config(file: "user.json")
    #expect(config.clientIDSource(for: "github.com") == nil)
    config.builtIn = Self.builtIn
    #expect(config.clientIDSource(for: "github.com") == ConfigSource(layer: .builtIn, location: "this build"))
    #expect(config.clientIDSource(for: "ghe.example.com") == nil)
    config.system = Self.system(hosts: ["ghe.example.com": HostSettings(clientID: "org-ghe")])
    #expect(config.clientIDSource(for: "GHE.example.com")?.location == "/etc/xdg/ghlogin/config.json")
    config.topLevel = HostSettings(clientID: "my-id")
    #expect(config.clientIDSource(for: "github.com") == ConfigSource(layer: .user, location: "user.json"))
    config.clientIDOverride = "env-id"
    #expect(config.clientIDSource(for: "github.com")?.location == "GHLOGIN_CLIENT_ID")
    // The environment's app, like a top-level one, is the default host's only (issue 29 §5).
    #expect(config.clientIDSource(for: "ghe.example.com")?.location == "/etc/xdg/ghlogin/config.json")
  }

  /// `clientID(for:)` (what `token` and the helpers ask) is `settings(for:)`'s client ID
  /// whatever gives one: every combination of the layers that can, for the default host, a
  /// host block's host (in another case) and a host no layer names, with github.com or a GHE
  /// host as the default.
  @Test func theClientIDAloneIsTheSettingsClientID() {
    for combination in 0..<128 {
      func has(_ bit: Int) -> Bool { combination & (1 << bit) != 0 }
      var config = Config(file: "user.json")
      if has(0) { config.builtIn = Self.builtIn }
      config.system = Self.system(
        HostSettings(clientID: has(1) ? "org-id" : nil, clientSecret: "org-secret"),
        hosts: has(2) ? ["ghe.example.com": HostSettings(clientID: "org-ghe")] : [:])
      config.topLevel = HostSettings(clientID: has(3) ? "my-id" : nil)
      if has(4) { config.hosts = ["ghe.example.com": HostSettings(clientID: "my-ghe", clientSecret: "s")] }
      if has(5) { config.clientIDOverride = "env-id" }
      if has(6) { config.host = "ghe.example.com" }
      for host in ["github.com", "GHE.example.com", "other.example.com"] {
        #expect(config.clientID(for: host) == config.settings(for: host).clientID, "\(combination) \(host)")
      }
    }
  }

  /// Issue 29 §2: whether a request's URL is one a config file set (then a message may name its key).
  @Test func setsURLOnlyForAURLAFileGives() throws {
    let token = try WebURL(parsing: "https://auth.example.org/o/token/")
    var config = Config(file: "user.json", hosts: ["auth.example.org": HostSettings(tokenURL: token)])
    #expect(config.setsURL("token_url", to: token))
    #expect(!config.setsURL("api_url", to: token))
    #expect(!config.setsURL("token_url", to: GitHubHost.gitHubDotCom.defaultEndpoints.token))
    config.system = Self.system(HostSettings(apiURL: try WebURL(parsing: "https://api.example.org")))
    #expect(config.setsURL("api_url", to: try WebURL(parsing: "https://api.example.org")))
  }

  @Test func keysMergeOneByOneTheHigherWinning() {
    var config = Config(file: "user.json", topLevel: HostSettings(scopes: ["read:user"]))
    config.system = Self.system(
      HostSettings(clientID: "org-id", clientSecret: "org-secret", scopes: ["repo"], caFile: "/org-ca.pem"),
      hosts: ["ghe.example.com": HostSettings(clientID: "org-ghe")])
    let github = config.settings(for: "github.com")
    #expect(
      github
        == HostSettings(clientID: "org-id", clientSecret: "org-secret", scopes: ["read:user"], caFile: "/org-ca.pem"))
    // A host block in the system file; the user's top-level client ID (a higher layer) wins over it.
    #expect(config.settings(for: "ghe.example.com").clientID == "org-ghe")
    #expect(config.settings(for: "ghe.example.com").clientSecret == nil, "the block's ID comes with its own secret")
    // The user's top-level app is the default host's only (an OAuth app exists on one host).
    config.topLevel.clientID = "my-id"
    #expect(config.settings(for: "ghe.example.com").clientID == "org-ghe")
    #expect(config.settings(for: "github.com").clientID == "my-id")
    #expect(config.settings(for: "github.com").clientSecret == nil)
  }

  @Test func aSecretNeverPairsWithAnotherLayersID() {
    var config = Config(file: "user.json", topLevel: HostSettings(clientSecret: "user-secret"))
    config.system = Self.system(HostSettings(clientID: "org-id", clientSecret: "org-secret"))
    #expect(config.settings(for: "github.com").clientSecret == "org-secret")
    config.system = Self.system(HostSettings(clientID: "org-id"))
    #expect(config.settings(for: "github.com").clientSecret == nil, "a public client stays one")
    // The environment is a layer like the others: GHLOGIN_CLIENT_SECRET alone is ignored (R108).
    config.clientSecretOverride = "env-secret"
    #expect(config.settings(for: "github.com") == HostSettings(clientID: "org-id"))
    #expect(config.loneClientSecretWarning?.text(.words).contains("GHLOGIN_CLIENT_SECRET is ignored") == true)
    config.clientIDOverride = "env-id"
    #expect(config.settings(for: "github.com") == HostSettings(clientID: "env-id", clientSecret: "env-secret"))
    #expect(config.loneClientSecretWarning == nil)
  }

  @Test func theSystemsHostAndStoreApplyUnlessTheUserSetsThem() throws {
    let root = try TemporaryDirectory(prefix: "ghlogin-layers")
    let system = root.path + "/etc/ghlogin"
    try FileSystem.makeDirectory(root.path + "/etc", mode: 0o755)
    try FileSystem.makeDirectory(system, mode: 0o755)
    try writeFile(system + "/config.json", #"{"host": "ghe.example.com", "store": "keyring", "client_id": "org"}"#)
    let paths = ConfigPaths(
      configFile: root.path + "/user.json", credentialsFile: root.path + "/c.json", home: root.path)
    let variables = ["XDG_CONFIG_DIRS": root.path + "/none:" + root.path + "/etc"]
    let config = try Config.load(paths: paths, variables: EnvironmentVariables(variables), builtIn: nil)
    #expect(config.host == "ghe.example.com")
    #expect(config.store == .keyring)
    #expect(config.system?.file == system + "/config.json")
    try writeFile(root.path + "/user.json", #"{"host": "github.com", "store": "file"}"#)
    let both = try Config.load(paths: paths, variables: EnvironmentVariables(variables), builtIn: nil)
    #expect(both.host == "github.com")
    #expect(both.store == .file)
    #expect(both.settings(for: "github.com").clientID == "org")
    let named = try Config.load(
      paths: paths,
      variables: EnvironmentVariables(variables.merging(["GHLOGIN_CONFIG": root.path + "/user.json"]) { $1 }),
      builtIn: nil)
    #expect(named.system == nil, "GHLOGIN_CONFIG: only that file (and the built-in app)")
  }

  @Test func systemCandidatesComeFromXDGConfigDirs() {
    #expect(ConfigPaths.systemConfigCandidates([:]) == ["/etc/xdg/ghlogin/config.json"])
    #expect(ConfigPaths.systemConfigCandidates(["XDG_CONFIG_DIRS": ""]) == ["/etc/xdg/ghlogin/config.json"])
    #expect(
      ConfigPaths.systemConfigCandidates(["XDG_CONFIG_DIRS": "/a:relative:/b/"])
        == ["/a/ghlogin/config.json", "/b/ghlogin/config.json"])
    #expect(ConfigPaths.systemConfigCandidates(["GHLOGIN_CONFIG": "/x.json"]).isEmpty)
  }

  @Test func entriesSayWhichLayerSetEachKey() {
    var config = Config(file: "user.json", topLevel: HostSettings(clientSecret: "user-secret", scopes: ["repo"]))
    config.builtIn = Self.builtIn
    config.system = Self.system(HostSettings(clientID: "org-id", clientSecret: "org-secret", scopes: ["gist"]))
    config.clientIDOverride = "env-id"
    let shown = config.entries.map { "\($0.path) \($0.source.layer.name) \($0.source.location) \($0.inEffect)" }
    #expect(
      shown == [
        "hosts.github.com.client_id built-in this build true",
        "hosts.github.com.client_secret built-in this build true",
        "client_id system /etc/xdg/ghlogin/config.json true",
        "client_secret system /etc/xdg/ghlogin/config.json true",
        "client_secret user user.json false",
        "scopes system /etc/xdg/ghlogin/config.json false",
        "scopes user user.json true",
        "GHLOGIN_CLIENT_ID environment GHLOGIN_CLIENT_ID true",
      ])
  }

  @Test func theBuiltInSummarySaysWhoseItIs() {
    #expect(BuiltInApp.summary(nil) == "no OAuth app is built in (a client ID must be configured)")
    #expect(BuiltInApp.summary(Self.builtIn) == "built-in OAuth app for github.com: Acme (client ID Ov23liBUILTIN)")
    #expect(
      BuiltInApp.summary(BuiltInApp(clientID: "Ov23liX")) == "built-in OAuth app for github.com: client ID Ov23liX")
    #expect(BuiltInApp.compiled == nil, "no default is committed")
  }
}
