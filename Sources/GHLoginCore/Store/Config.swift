/// The user's configuration: the config file (if any) plus the `GHLOGIN_CLIENT_ID` and
/// `GHLOGIN_CLIENT_SECRET` environment overrides, over the system file and the built-in app
/// (``ConfigLayer``: lowest first, built-in < system < user < environment).
///
/// A missing file is fine: every setting is then nil and callers use the defaults for
/// github.com. Anything unexpected in the file is an error (exit 2), including unknown keys,
/// because a typo in security configuration must not pass silently.
package struct Config: Sendable, Equatable {
  /// The largest config file accepted, in bytes.
  package static let maximumFileSize = 1024 * 1024

  /// The top-level `host`, lowercased (the host commands use when not told otherwise): the
  /// user's, else the system file's.
  package var host: String?
  /// The user's file's own `host` (``host`` may come from the system file).
  var userHost: String?
  /// The user's file's own `store`.
  var userStore: TokenStorage?
  /// The system file (`$XDG_CONFIG_DIRS/ghlogin/config.json`), when there is one.
  package var system: ConfigFileLayer?
  /// The app compiled into this ghlogin for github.com (``BuiltInApp``), the lowest layer.
  package var builtIn: BuiltInApp?
  /// The user's file's top-level settings keys.
  package var topLevel: HostSettings
  /// The user's file's `hosts` blocks, keyed by lowercased host name.
  package var hosts: [String: HostSettings]
  /// Where the config was read from (or would be).
  package var file: String
  /// Whether that file existed.
  package var fileExisted: Bool
  /// `GHLOGIN_CLIENT_ID` as captured at load (nil when unset or empty).
  var clientIDOverride: String?
  /// `GHLOGIN_CLIENT_SECRET` as captured at load (nil when unset or empty).
  var clientSecretOverride: String?
  /// Unknown keys a ``UnknownConfigKeys/lenient`` load left out (always empty when strict).
  package var ignoredKeys: [IgnoredConfigKey] = []
  /// The top-level `store`: where new logins keep their tokens (the user's, else the system
  /// file's, else `file`).
  package var store: TokenStorage = .file
  /// With no top-level `host` but top-level endpoint overrides: the host they share, or why
  /// there is none (``EndpointHost``, R87). Nil when the file names a host or overrides nothing.
  package var endpointHost: Result<String, ConfigError>?
  /// The user's file's own `account_rules` (nil when it has none; ``accountRules`` is in effect).
  package var userAccountRules: [AccountRule]?

  package init(
    file: String, fileExisted: Bool = false, host: String? = nil, topLevel: HostSettings = HostSettings(),
    hosts: [String: HostSettings] = [:], clientIDOverride: String? = nil, clientSecretOverride: String? = nil
  ) {
    self.file = file
    self.fileExisted = fileExisted
    self.host = host
    self.userHost = host
    self.topLevel = topLevel
    self.hosts = hosts
    self.clientIDOverride = clientIDOverride
    self.clientSecretOverride = clientSecretOverride
  }

  /// The host to use when none is given: the top-level `host`, else the host the top-level
  /// endpoints share, else github.com.
  package var defaultHost: String {
    if let host { return host }
    if case .success(let shared) = endpointHost { return shared }
    return DefaultHost.name
  }

  /// Reads and validates `paths.configFile` and the system file below it, and captures the
  /// environment overrides.
  ///
  /// Both files are read by ``readTrusted(_:)`` (R93) and decoded as
  /// ``parse(bytes:file:variables:)`` decodes; a system file that fails stops the command
  /// exactly as the user's does. With `GHLOGIN_CONFIG` set no system file is read.
  /// With `unknownKeys` ``UnknownConfigKeys/lenient``, keys the config does not know are left
  /// out and listed in ``ignoredKeys`` instead of failing the load.
  package static func load(
    paths: ConfigPaths, variables: EnvironmentVariables, unknownKeys: UnknownConfigKeys = .strict,
    builtIn: BuiltInApp? = BuiltInApp.compiled
  ) throws(ConfigError) -> Config {
    let file = paths.configFile
    var config = try environmentOnly(file: file, variables: variables)
    config.builtIn = builtIn
    // The system file: the first of $XDG_CONFIG_DIRS that has one, under the same rules.
    for candidate in ConfigPaths.systemConfigCandidates(variables) {
      guard let bytes = try readTrusted(candidate) else { continue }
      let layer = try decode(bytes, into: Config(file: candidate), unknownKeys: unknownKeys)
      config.system = ConfigFileLayer(
        file: candidate, host: layer.userHost, store: layer.userStore, topLevel: layer.topLevel, hosts: layer.hosts,
        ignoredKeys: layer.ignoredKeys, accountRules: layer.userAccountRules)
      break
    }
    if let bytes = try readTrusted(file) {
      config = try decode(bytes, into: config, unknownKeys: unknownKeys)
    } else if let named = variables["GHLOGIN_CONFIG"], !named.isEmpty {
      // A file named on purpose must be there: an empty config would hide the mistake.
      throw .namedFileMissing(file: file)
    }
    config.mergeSystemLayer()
    return config
  }

  /// The bytes of the config file at `file`, read the one way every reader and editor of it
  /// reads them (``load(paths:variables:unknownKeys:builtIn:)`` and ``ConfigEditor``, R93, R97): with
  /// `O_NOFOLLOW`, only a regular file of at most 1 MiB, owned by the user or root and not
  /// writable by group or others, in directories up to `/` that are each owned by root or the
  /// user and not writable by group or others unless sticky and root's (R110, the rule of R94:
  /// ``SafeDirectory/checkParents(of:)``). Nil when nothing is at the path. The one check for
  /// every layer's file: the system file, the user's and `GHLOGIN_CONFIG`'s.
  package static func readTrusted(_ file: String) throws(ConfigError) -> [UInt8]? {
    let contents: (bytes: [UInt8], status: FileStatus)
    do {
      contents = try SecureFile.readRegularFile(file, limit: maximumFileSize)
    } catch {
      switch error {
      case .missing: return nil
      case .symbolicLink: throw .symbolicLink(file: file)
      case .notRegularFile: throw .notRegularFile(file: file)
      case .tooLarge: throw .tooLarge(file: file)
      case .system(let systemError): throw .unreadable(file: file, systemError)
      }
    }
    let owner = contents.status.owner
    let user = ProcessState.userID
    guard owner == user || owner == 0 else { throw .notOwned(file: file, owner: owner, user: user) }
    guard contents.status.permissions & FileMode.groupOrOtherWrite == 0 else {
      throw .writableByOthers(file: file, mode: contents.status.permissions)
    }
    do {
      try SafeDirectory.checkParents(of: file)
    } catch {
      switch error {
      case .directoryWritableByOthers(let directory, _):
        throw .unsafeDirectory(file: file, directory: directory, writable: true)
      case .directoryNotOwned(let directory):
        throw .unsafeDirectory(file: file, directory: directory, writable: false)
      case .io(let path, _, let systemError): throw .unreadable(file: path, systemError)
      default: throw .unreadable(file: file, .noSuchFile(call: "stat"))
      }
    }
    return contents.bytes
  }

  /// `host`, `store` and the host the top-level endpoints share, with the system file's keys
  /// under the user's.
  private mutating func mergeSystemLayer() {
    guard let system else { return }
    host = userHost ?? system.host
    if userStore == nil, let store = system.store { self.store = store }
    if host == nil {
      let top = topLevel
      let low = system.topLevel
      let merged = HostSettings(
        authorizeURL: top.authorizeURL ?? low.authorizeURL, tokenURL: top.tokenURL ?? low.tokenURL,
        deviceCodeURL: top.deviceCodeURL ?? low.deviceCodeURL, apiURL: top.apiURL ?? low.apiURL,
        revocationURL: top.revocationURL ?? low.revocationURL)
      let named = [top.authorizeURL, top.tokenURL, top.deviceCodeURL, top.apiURL, top.revocationURL].contains {
        $0 != nil
      }
      endpointHost = EndpointHost.derive(merged, file: named ? file : system.file)
    } else {
      endpointHost = nil
    }
  }

  /// Validates the contents of a config file read from `file` (named in messages) and captures
  /// the environment overrides from `variables`: everything ``load(paths:variables:unknownKeys:builtIn:)`` does
  /// except reading the file. The seam the config fuzz target drives.
  package static func parse(bytes: [UInt8], file: String, variables: EnvironmentVariables) throws(ConfigError) -> Config
  {
    try decode(bytes, into: try environmentOnly(file: file, variables: variables))
  }

  /// The config when there is no file: only the environment overrides.
  private static func environmentOnly(file: String, variables: EnvironmentVariables) throws(ConfigError) -> Config {
    var config = Config(file: file)
    config.clientIDOverride = try override("GHLOGIN_CLIENT_ID", variables)
    config.clientSecretOverride = try override("GHLOGIN_CLIENT_SECRET", variables)
    return config
  }

  /// `config` with the settings of the file contents `bytes` (JSON, strictly checked).
  private static func decode(
    _ bytes: [UInt8], into config: Config, unknownKeys: UnknownConfigKeys = .strict
  ) throws(ConfigError) -> Config {
    var config = config
    let file = config.file
    config.fileExisted = true
    let document: JSONValue
    do {
      document = try JSON.parse(bytes)
    } catch {
      throw .invalidJSON(file: file, error)
    }
    guard var object = document.objectValue else { throw .notAnObject(file: file) }
    if unknownKeys == .lenient {
      // Not a tuple assignment into `config`: that destroyed the old array through its
      // generic metadata, the first use of `Array`'s on `token`'s path.
      let (kept, ignored) = ConfigDecoder.removingUnknownKeys(object)
      object = kept
      if !ignored.isEmpty { config.ignoredKeys = ignored }
    }

    let decoder = ConfigDecoder(file: file)
    config.topLevel = try decoder.settings(object, prefix: "", skipping: ["host", "hosts", "store", "account_rules"])
    if let host = object["host"] { config.host = try decoder.host(host, "host") }
    config.userHost = config.host
    if let store = object["store"] {
      config.store = try decoder.store(store, "store")
      config.userStore = config.store
    }
    if let hosts = object["hosts"] { config.hosts = try decoder.hosts(hosts, "hosts") }
    if let rules = object["account_rules"] { config.userAccountRules = try decoder.accountRules(rules) }
    config.deriveEndpointHost()
    return config
  }

  /// With no `host`, sets ``endpointHost`` to the host the top-level endpoints share, or why
  /// they share none (``EndpointHost``, R87). The one place the label comes from the endpoints,
  /// for the config file and the library's ``GitHubLoginConfiguration`` alike (R97).
  package mutating func deriveEndpointHost() {
    endpointHost = host == nil ? EndpointHost.derive(topLevel, file: file) : nil
  }

  /// The effective settings for `host` (any case). In each layer (the built-in app, which
  /// applies to github.com only, the system file, the user's file):
  ///
  /// 1. `hosts[host]` wins for every key it sets.
  /// 2. Otherwise `scopes` and `ca_file` come from the top level.
  /// 3. Top-level endpoint URLs, and the top-level app (`client_id`, `client_secret`), apply
  ///    only to ``defaultHost``: an OAuth app exists on one GitHub host. A `client_secret` is
  ///    never paired with another app's `client_id`: when the host block sets `client_id`,
  ///    only its own `client_secret` is used.
  ///
  /// Then the layers merge key by key, the higher winning, except that `client_id` and
  /// `client_secret` come from the highest layer that gives a `client_id` (a secret never
  /// pairs with another layer's ID). Last, the environment, a layer like the others (for
  /// ``defaultHost`` only, as a top-level app):
  /// `GHLOGIN_CLIENT_ID` replaces the client ID and then takes `GHLOGIN_CLIENT_SECRET` (or no
  /// secret) with it; `GHLOGIN_CLIENT_SECRET` alone is ignored (R108: it would be sent with
  /// another layer's client ID), and every command says so (``loneClientSecretWarning``).
  package func settings(for host: String) -> HostSettings {
    let name = ConfigDecoder.normalizedHost(host) ?? host.lowercased()
    let isDefault = name == defaultHost
    var result = HostSettings()
    // Each layer over the ones below it (no array of layers: one fewer generic type at run time).
    if let builtIn, name == BuiltInApp.host {
      result.clientID = builtIn.clientID
      result.clientSecret = builtIn.clientSecret
    }
    if let system { Self.apply(top: system.topLevel, block: system.hosts[name], isDefault: isDefault, to: &result) }
    Self.apply(top: topLevel, block: hosts[name], isDefault: isDefault, to: &result)
    if let clientIDOverride, isDefault {
      result.clientID = clientIDOverride
      result.clientSecret = clientSecretOverride
    }
    return result
  }

  /// Whether a config file sets `key` (`token_url`, `api_url`, ...) to `url`, at the top level
  /// or in a host's block: a request to `url` then went where a setting said, and a message may
  /// name it; otherwise ghlogin derived the URL and the setting is not the user's to check.
  package func setsURL(_ key: String, to url: WebURL) -> Bool {
    var layers = [topLevel] + Array(hosts.values)
    if let system { layers += [system.topLevel] + Array(system.hosts.values) }
    return layers.contains { settings in
      switch key {
      case "authorize_url": settings.authorizeURL == url
      case "token_url": settings.tokenURL == url
      case "device_code_url": settings.deviceCodeURL == url
      case "api_url": settings.apiURL == url
      case "revocation_url": settings.revocationURL == url
      default: false
      }
    }
  }

  /// The `client_id` in effect for `host`: ``settings(for:)``'s, without the rest of the
  /// settings (`token` and the helpers ask only which app the caller is).
  package func clientID(for host: String) -> String? { clientIDLayer(for: host)?.clientID }

  /// Where the `client_id` in effect for `host` comes from, by ``settings(for:)``'s rules: the
  /// environment (`GHLOGIN_CLIENT_ID`), the user's or the system file, or the built-in app;
  /// nil when no layer gives one.
  func clientIDSource(for host: String) -> ConfigSource? { clientIDLayer(for: host)?.source }

  /// The highest layer that gives `host` a `client_id`, and that ID.
  private func clientIDLayer(for host: String) -> (clientID: String, source: ConfigSource)? {
    let name = ConfigDecoder.normalizedHost(host) ?? host.lowercased()
    let isDefault = name == defaultHost
    if let clientIDOverride, isDefault {
      return (clientIDOverride, ConfigSource(layer: .environment, location: "GHLOGIN_CLIENT_ID"))
    }
    if let clientID = Self.layerClientID(top: topLevel, block: hosts[name], isDefault: isDefault) {
      return (clientID, ConfigSource(layer: .user, location: file))
    }
    if let system,
      let clientID = Self.layerClientID(top: system.topLevel, block: system.hosts[name], isDefault: isDefault)
    {
      return (clientID, ConfigSource(layer: .system, location: system.file))
    }
    if let builtIn, name == BuiltInApp.host {
      return (builtIn.clientID, ConfigSource(layer: .builtIn, location: "this build"))
    }
    return nil
  }

  /// The warning every command prints when `GHLOGIN_CLIENT_SECRET` is set without
  /// `GHLOGIN_CLIENT_ID` (nil otherwise): the secret is ignored (R108).
  var loneClientSecretWarning: ConfigNotice? {
    guard clientSecretOverride != nil, clientIDOverride == nil else { return nil }
    return .loneClientSecret
  }

  /// One layer's settings for a host over `result`, the layers below it: in the layer, the
  /// block's keys over the top level's (rules 1–3 of ``settings(for:)``); then each key the
  /// layer gives replaces the one below, and its `client_id` replaces the app below with its
  /// own `client_secret` (or none). In one pass: a layer's settings are never built apart, a
  /// copy of five URLs and seven other keys on every command's path.
  private static func apply(top: HostSettings, block: HostSettings?, isDefault: Bool, to result: inout HostSettings) {
    result.scopes = block?.scopes ?? top.scopes ?? result.scopes
    result.caFile = block?.caFile ?? top.caFile ?? result.caFile
    result.authorizeURL = block?.authorizeURL ?? (isDefault ? top.authorizeURL : nil) ?? result.authorizeURL
    result.tokenURL = block?.tokenURL ?? (isDefault ? top.tokenURL : nil) ?? result.tokenURL
    result.deviceCodeURL = block?.deviceCodeURL ?? (isDefault ? top.deviceCodeURL : nil) ?? result.deviceCodeURL
    result.apiURL = block?.apiURL ?? (isDefault ? top.apiURL : nil) ?? result.apiURL
    result.revocationURL = block?.revocationURL ?? (isDefault ? top.revocationURL : nil) ?? result.revocationURL
    result.containerRegistries =
      block?.containerRegistries ?? (isDefault ? top.containerRegistries : nil) ?? result.containerRegistries
    // The block's secret goes with the block's client ID, or with the top level's on the
    // default host, where the top level's own secret is the fallback.
    let clientID = layerClientID(top: top, block: block, isDefault: isDefault)
    let secret = block?.clientID == nil && isDefault ? block?.clientSecret ?? top.clientSecret : block?.clientSecret
    if let clientID {
      result.clientID = clientID
      result.clientSecret = secret
    } else if result.clientID == nil, let secret {
      result.clientSecret = secret
    }
  }

  /// The `client_id` one layer gives a host: its block's, else on the default host the top
  /// level's.
  private static func layerClientID(top: HostSettings, block: HostSettings?, isDefault: Bool) -> String? {
    block?.clientID ?? (isDefault ? top.clientID : nil)
  }

  /// One warning per `hosts` block, in the system file and the user's, that sets no
  /// `client_id` while its file has a top-level one and the host is not ``defaultHost``: before,
  /// the top-level app served that host too; now it serves the default host only, so the host
  /// has no app of its own. Empty when there is none (the common case builds nothing).
  var movedAppWarnings: [ConfigNotice] {
    // The common case (no hosts blocks) returns before building anything: an array of the
    // layers' tuples cost every command its generic metadata on first use.
    let systemHasBlocks = system.map { $0.topLevel.clientID != nil && !$0.hosts.isEmpty } ?? false
    guard systemHasBlocks || (topLevel.clientID != nil && !hosts.isEmpty) else { return [] }
    var notices: [ConfigNotice] = []
    for (file, top, blocks) in [system.map { ($0.file, $0.topLevel, $0.hosts) }, (file, topLevel, hosts)]
      .compactMap({ $0 })
    {
      guard let clientID = top.clientID, !blocks.isEmpty else { continue }
      let defaultHost = defaultHost
      for (name, block) in blocks.sorted(by: { $0.key < $1.key })
      where block.clientID == nil && name != defaultHost && !block.setKeys.isEmpty {
        notices.append(.movedApp(file: file, defaultHost: defaultHost, host: name, clientID: clientID))
      }
    }
    return notices
  }

  /// An override variable: nil when unset or empty, an error when it has spaces or control
  /// characters (the value itself is never echoed).
  private static func override(_ name: String, _ variables: EnvironmentVariables) throws(ConfigError) -> String? {
    guard let value = variables[name], !value.isEmpty else { return nil }
    guard ConfigDecoder.isCredentialText(value) else {
      throw .invalidEnvironment(variable: name, reason: "must not contain spaces or control characters")
    }
    return value
  }
}
