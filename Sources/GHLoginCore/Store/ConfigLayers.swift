/// The layers of the configuration, lowest first: the app built into this ghlogin (github.com
/// only), the system file (`$XDG_CONFIG_DIRS/ghlogin/config.json`), the user's file, the
/// environment (`GHLOGIN_CLIENT_ID`, `GHLOGIN_CLIENT_SECRET`). A higher layer wins key by key;
/// `client_id` and `client_secret` always come from the same layer (``Config/settings(for:)``).
package enum ConfigLayer: Int, Sendable, Comparable, CaseIterable {
  case builtIn, system, user, environment

  /// The layer's name as `help config` shows it.
  package var name: String {
    switch self {
    case .builtIn: "built-in"
    case .system: "system"
    case .user: "user"
    case .environment: "environment"
    }
  }

  package static func < (lhs: ConfigLayer, rhs: ConfigLayer) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Where a setting came from: its layer and the file (or variable, or build) that set it.
package struct ConfigSource: Sendable, Equatable {
  package var layer: ConfigLayer
  /// The file's path, the variable's name, or "this build" for the built-in app.
  package var location: String

  package init(layer: ConfigLayer, location: String) {
    self.layer = layer
    self.location = location
  }
}

/// One key set in one layer, as ``Config/entries`` lists it.
package struct ConfigEntry: Sendable, Equatable {
  /// The key path as in a file: `client_id`, `hosts.ghe.example.com.scopes`, or the variable.
  package var path: String
  /// The layer and file that set it.
  package var source: ConfigSource
  /// Whether it is in effect: false when a higher layer sets the same key, or for a
  /// `client_secret` whose layer does not give the `client_id` in effect there.
  package var inEffect: Bool
}

/// A config file below the user's (the system file): its own settings, kept apart so each key
/// can be merged under the user's and its source shown.
package struct ConfigFileLayer: Sendable, Equatable {
  package var file: String
  package var host: String?
  package var store: TokenStorage?
  package var topLevel = HostSettings()
  package var hosts: [String: HostSettings] = [:]
  package var ignoredKeys: [IgnoredConfigKey] = []
  /// The file's `account_rules`, when it has them.
  package var accountRules: [AccountRule]?
}

extension ConfigPaths {
  /// The system config files to look for, in order: `ghlogin/config.json` in each absolute
  /// directory of `$XDG_CONFIG_DIRS` (default `/etc/xdg`); none with `$GHLOGIN_CONFIG` set,
  /// which names the only file to read. The first that exists is the system layer.
  package static func systemConfigCandidates(_ variables: EnvironmentVariables) -> [String] {
    if let named = variables["GHLOGIN_CONFIG"], !named.isEmpty { return [] }
    let list = variables["XDG_CONFIG_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/xdg"
    // On the bytes, in one loop: a `Character` split, then map and filter, cost every command
    // grapheme breaking and three array types.
    var candidates: [String] = []
    let bytes = list.utf8
    var start = bytes.startIndex
    while true {
      let end = bytes[start...].firstIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex
      let directory = list[start..<end]
      if directory.hasPrefix("/") {
        candidates.append(FilePath.join(String(directory), ProductNames.configDirectory + "/config.json"))
      }
      guard end != bytes.endIndex else { return candidates }
      start = bytes.index(after: end)
    }
  }
}

extension HostSettings {
  /// The keys these settings set, in ``ConfigDecoder/hostKeys`` order.
  var setKeys: [String] {
    let present: [(String, Bool)] = [
      ("client_id", clientID != nil), ("client_secret", clientSecret != nil), ("scopes", scopes != nil),
      ("authorize_url", authorizeURL != nil), ("token_url", tokenURL != nil), ("device_code_url", deviceCodeURL != nil),
      ("api_url", apiURL != nil), ("ca_file", caFile != nil), ("revocation_url", revocationURL != nil),
      ("container_registries", containerRegistries != nil),
    ]
    return present.filter { $0.1 }.map { $0.0 }
  }
}

extension Config {
  /// Every key each layer sets, lowest layer first, each with its source and whether it is in
  /// effect. What `help config` and `config list` show.
  package var entries: [ConfigEntry] {
    struct Raw {
      var source: ConfigSource
      var host: String?
      var store: TokenStorage?
      var topLevel: HostSettings
      var hosts: [String: HostSettings]
      var accountRules: [AccountRule]?
    }
    var layers: [Raw] = []
    if let builtIn {
      let app = HostSettings(clientID: builtIn.clientID, clientSecret: builtIn.clientSecret)
      layers.append(
        Raw(
          source: ConfigSource(layer: .builtIn, location: "this build"), topLevel: HostSettings(),
          hosts: [BuiltInApp.host: app]))
    }
    if let system {
      layers.append(
        Raw(
          source: ConfigSource(layer: .system, location: system.file), host: system.host, store: system.store,
          topLevel: system.topLevel, hosts: system.hosts, accountRules: system.accountRules))
    }
    layers.append(
      Raw(
        source: ConfigSource(layer: .user, location: file), host: userHost, store: userStore, topLevel: topLevel,
        hosts: hosts, accountRules: userAccountRules))
    // Each key path with the layers that set it, in first-seen order.
    var paths: [String] = []
    var setters: [String: [ConfigSource]] = [:]
    func add(_ path: String, _ source: ConfigSource) {
      if setters[path] == nil { paths.append(path) }
      setters[path, default: []].append(source)
    }
    for layer in layers {
      if layer.host != nil { add("host", layer.source) }
      if layer.store != nil { add("store", layer.source) }
      if layer.accountRules != nil { add("account_rules", layer.source) }
      for key in layer.topLevel.setKeys { add(key, layer.source) }
      for (name, block) in layer.hosts.sorted(by: { $0.key < $1.key }) {
        for key in block.setKeys { add("hosts.\(name).\(key)", layer.source) }
      }
    }
    var result: [ConfigEntry] = []
    for path in paths {
      let sources = setters[path] ?? []
      for source in sources {
        var inEffect = source == sources.last
        if path.hasSuffix("client_secret") {
          // The secret in effect is the one beside the client ID in effect (its own layer's).
          let idPath = String(path.dropLast("client_secret".count)) + "client_id"
          if let idSource = setters[idPath]?.last { inEffect = source == idSource }
        }
        result.append(ConfigEntry(path: path, source: source, inEffect: inEffect))
      }
    }
    for (variable, value) in [("GHLOGIN_CLIENT_ID", clientIDOverride), ("GHLOGIN_CLIENT_SECRET", clientSecretOverride)]
    where value != nil {
      // A lone GHLOGIN_CLIENT_SECRET is ignored (R108, ``Config/settings(for:)``).
      let inEffect = variable == "GHLOGIN_CLIENT_ID" || clientIDOverride != nil
      result.append(
        ConfigEntry(path: variable, source: ConfigSource(layer: .environment, location: variable), inEffect: inEffect))
    }
    return result
  }
}
