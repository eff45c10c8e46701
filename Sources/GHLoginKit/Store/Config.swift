/// The user's configuration: the config file (if any) plus the `GHLOGIN_CLIENT_ID` and
/// `GHLOGIN_CLIENT_SECRET` environment overrides.
///
/// A missing file is fine: every setting is then nil and callers use the defaults for
/// github.com. Anything unexpected in the file is an error (exit 2), including unknown keys,
/// because a typo in security configuration must not pass silently.
struct Config: Sendable, Equatable {
  /// The largest config file accepted, in bytes.
  static let maximumFileSize = 1024 * 1024
  /// The host used when the file names none.
  static let defaultHostName = "github.com"

  /// The top-level `host`, lowercased (the host commands use when not told otherwise).
  var host: String?
  /// The top-level settings keys.
  var topLevel: HostSettings
  /// The `hosts` blocks, keyed by lowercased host name.
  var hosts: [String: HostSettings]
  /// Where the config was read from (or would be).
  var file: String
  /// Whether that file existed.
  var fileExisted: Bool
  /// `GHLOGIN_CLIENT_ID` as captured at load (nil when unset or empty).
  var clientIDOverride: String?
  /// `GHLOGIN_CLIENT_SECRET` as captured at load (nil when unset or empty).
  var clientSecretOverride: String?
  /// Unknown keys a ``UnknownConfigKeys/lenient`` load left out (always empty when strict).
  var ignoredKeys: [IgnoredConfigKey] = []
  /// The top-level `store`: where new logins keep their tokens (`file` unless set).
  var store: TokenStorage = .file
  /// With no top-level `host` but top-level endpoint overrides: the host they share, or why
  /// there is none (``EndpointHost``, R87). Nil when the file names a host or overrides nothing.
  var endpointHost: Result<String, ConfigError>?

  init(
    file: String, fileExisted: Bool = false, host: String? = nil, topLevel: HostSettings = HostSettings(),
    hosts: [String: HostSettings] = [:], clientIDOverride: String? = nil, clientSecretOverride: String? = nil
  ) {
    self.file = file
    self.fileExisted = fileExisted
    self.host = host
    self.topLevel = topLevel
    self.hosts = hosts
    self.clientIDOverride = clientIDOverride
    self.clientSecretOverride = clientSecretOverride
  }

  /// The host to use when none is given: the top-level `host`, else the host the top-level
  /// endpoints share, else github.com.
  var defaultHost: String {
    if let host { return host }
    if case .success(let shared) = endpointHost { return shared }
    return Self.defaultHostName
  }

  /// Reads and validates `paths.configFile` and captures the environment overrides.
  ///
  /// The file is opened with `open(O_RDONLY|O_CLOEXEC|O_NOFOLLOW)`, so a symlink is refused,
  /// and must be a regular file of at most 1 MiB, owned by the user or root and not writable by
  /// group or others (R93); its bytes go to ``parse(bytes:file:variables:)``.
  /// With `unknownKeys` ``UnknownConfigKeys/lenient``, keys the config does not know are left
  /// out and listed in ``ignoredKeys`` instead of failing the load.
  static func load(
    paths: ConfigPaths, variables: [String: String], unknownKeys: UnknownConfigKeys = .strict
  ) throws(ConfigError) -> Config {
    let file = paths.configFile
    let config = try environmentOnly(file: file, variables: variables)
    guard let bytes = try readTrusted(file) else {
      // A file named on purpose must be there: an empty config would hide the mistake.
      if let named = variables["GHLOGIN_CONFIG"], !named.isEmpty { throw .namedFileMissing(file: file) }
      return config
    }
    return try decode(bytes, into: config, unknownKeys: unknownKeys)
  }

  /// The bytes of the config file at `file`, read the one way every reader and editor of it
  /// reads them (``load(paths:variables:unknownKeys:)`` and ``ConfigEditor``, R93, R97): with
  /// `O_NOFOLLOW`, only a regular file of at most 1 MiB, owned by the user or root and not
  /// writable by group or others. Nil when nothing is at the path.
  static func readTrusted(_ file: String) throws(ConfigError) -> [UInt8]? {
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
    // OpenSSH's rule for its own config (R93): it decides where the token is sent.
    let owner = contents.status.owner
    let user = ProcessState.userID
    guard owner == user || owner == 0 else { throw .notOwned(file: file, owner: owner, user: user) }
    guard contents.status.permissions & FileMode.groupOrOtherWrite == 0 else {
      throw .writableByOthers(file: file, mode: contents.status.permissions)
    }
    return contents.bytes
  }

  /// Validates the contents of a config file read from `file` (named in messages) and captures
  /// the environment overrides from `variables`: everything ``load(paths:variables:)`` does
  /// except reading the file. The seam the config fuzz target drives.
  static func parse(bytes: [UInt8], file: String, variables: [String: String]) throws(ConfigError) -> Config {
    try decode(bytes, into: try environmentOnly(file: file, variables: variables))
  }

  /// The config when there is no file: only the environment overrides.
  private static func environmentOnly(file: String, variables: [String: String]) throws(ConfigError) -> Config {
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
    if unknownKeys == .lenient { (object, config.ignoredKeys) = ConfigDecoder.removingUnknownKeys(object) }

    let decoder = ConfigDecoder(file: file)
    config.topLevel = try decoder.settings(object, prefix: "", skipping: ["host", "hosts", "store"])
    if let host = object["host"] { config.host = try decoder.host(host, "host") }
    if let store = object["store"] { config.store = try decoder.store(store, "store") }
    if let hosts = object["hosts"] { config.hosts = try decoder.hosts(hosts, "hosts") }
    config.deriveEndpointHost()
    return config
  }

  /// With no `host`, sets ``endpointHost`` to the host the top-level endpoints share, or why
  /// they share none (``EndpointHost``, R87). The one place the label comes from the endpoints,
  /// for the config file and the library's ``GitHubLoginConfiguration`` alike (R97).
  mutating func deriveEndpointHost() {
    endpointHost = host == nil ? EndpointHost.derive(topLevel, file: file) : nil
  }

  /// The effective settings for `host` (any case):
  ///
  /// 1. `hosts[host]` wins for every key it sets.
  /// 2. Otherwise `client_id`, `client_secret`, `scopes` and `ca_file` come from the top level —
  ///    except that a `client_secret` is never paired with another app's `client_id`: when the
  ///    host block sets `client_id`, only its own `client_secret` is used.
  /// 3. Top-level endpoint URLs apply only to ``defaultHost``.
  /// 4. `GHLOGIN_CLIENT_ID` replaces the client ID and then takes `GHLOGIN_CLIENT_SECRET` (or no
  ///    secret) with it; `GHLOGIN_CLIENT_SECRET` alone replaces only the secret.
  func settings(for host: String) -> HostSettings {
    let name = ConfigDecoder.normalizedHost(host) ?? host.lowercased()
    let block = hosts[name] ?? HostSettings()
    let isDefault = name == defaultHost
    var result = HostSettings(
      scopes: block.scopes ?? topLevel.scopes,
      authorizeURL: block.authorizeURL ?? (isDefault ? topLevel.authorizeURL : nil),
      tokenURL: block.tokenURL ?? (isDefault ? topLevel.tokenURL : nil),
      deviceCodeURL: block.deviceCodeURL ?? (isDefault ? topLevel.deviceCodeURL : nil),
      apiURL: block.apiURL ?? (isDefault ? topLevel.apiURL : nil),
      caFile: block.caFile ?? topLevel.caFile,
      revocationURL: block.revocationURL ?? (isDefault ? topLevel.revocationURL : nil)
    )
    if let clientID = block.clientID {
      result.clientID = clientID
      result.clientSecret = block.clientSecret
    } else {
      result.clientID = topLevel.clientID
      result.clientSecret = block.clientSecret ?? topLevel.clientSecret
    }
    if let clientIDOverride {
      result.clientID = clientIDOverride
      result.clientSecret = clientSecretOverride
    } else if let clientSecretOverride {
      result.clientSecret = clientSecretOverride
    }
    return result
  }

  /// An override variable: nil when unset or empty, an error when it has spaces or control
  /// characters (the value itself is never echoed).
  private static func override(_ name: String, _ variables: [String: String]) throws(ConfigError) -> String? {
    guard let value = variables[name], !value.isEmpty else { return nil }
    guard ConfigDecoder.isCredentialText(value) else {
      throw .invalidEnvironment(variable: name, reason: "must not contain spaces or control characters")
    }
    return value
  }
}
