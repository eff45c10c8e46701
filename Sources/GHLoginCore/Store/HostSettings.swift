/// The OAuth app and endpoints for one host, as far as the config gives them; nil means "use
/// the built-in default for the host".
package struct HostSettings: Sendable, Equatable {
  package var clientID: String?
  package var clientSecret: String?
  package var scopes: [String]?
  package var authorizeURL: WebURL?
  package var tokenURL: WebURL?
  package var deviceCodeURL: WebURL?
  package var apiURL: WebURL?
  /// An RFC 7009 revocation endpoint (`revocation_url`): when set, logout revokes there instead
  /// of at GitHub's `DELETE /applications/{client_id}/token` (R103).
  package var revocationURL: WebURL?
  /// A PEM file of CA certificates to trust for this host, instead of the system store.
  package var caFile: String?
  /// `container_registries`: registry `host[:port]` names (normalised) whose credential helper
  /// answers with this host's login (``RegistryMap``). Never inherited from the top level.
  var containerRegistries: [String]?

  package init(
    clientID: String? = nil, clientSecret: String? = nil, scopes: [String]? = nil, authorizeURL: WebURL? = nil,
    tokenURL: WebURL? = nil, deviceCodeURL: WebURL? = nil, apiURL: WebURL? = nil, caFile: String? = nil,
    revocationURL: WebURL? = nil
  ) {
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.scopes = scopes
    self.authorizeURL = authorizeURL
    self.tokenURL = tokenURL
    self.deviceCodeURL = deviceCodeURL
    self.apiURL = apiURL
    self.caFile = caFile
    self.revocationURL = revocationURL
  }
}

/// Turns the JSON of a config file into ``HostSettings``, rejecting anything unexpected.
///
/// Keys in messages are escaped like JSON strings, so a key with control characters cannot
/// reach the terminal raw.
package struct ConfigDecoder {
  /// The file, for messages.
  package let file: String

  /// Keys allowed in a `hosts` block.
  package static let hostKeys = [
    "client_id", "client_secret", "scopes", "authorize_url", "token_url", "device_code_url", "api_url", "ca_file",
    "revocation_url",
    "container_registries",
  ]
  /// Keys allowed at the top level.
  package static let topLevelKeys = hostKeys + ["host", "hosts", "store", "account_rules"]

  /// Decodes the settings keys of `object`; `prefix` is `""` or `hosts.NAME.`, and keys other
  /// than the settings keys must be handled by the caller and listed in `skipping`.
  /// (`skipping` is an array: a `Set` literal cost every load its hashing and the set's
  /// generic metadata on first use, for two or three keys.)
  package func settings(_ object: JSONObject, prefix: String, skipping: [String] = []) throws(ConfigError)
    -> HostSettings
  {
    var settings = HostSettings()
    let known = prefix.isEmpty ? Self.topLevelKeys : Self.hostKeys
    for (key, value) in object.entries where !skipping.contains(key) {
      // The key's path is spelled out (escaped) only for a message.
      let path = LazyKeyPath(prefix: prefix, key: key)
      switch key {
      case "client_id": settings.clientID = try credential(value, path)
      case "client_secret": settings.clientSecret = try secret(value, path)
      case "scopes": settings.scopes = try scopes(value, path)
      case "authorize_url": settings.authorizeURL = try url(value, path)
      case "token_url": settings.tokenURL = try url(value, path)
      case "device_code_url": settings.deviceCodeURL = try url(value, path)
      case "api_url": settings.apiURL = try url(value, path)
      case "revocation_url": settings.revocationURL = try url(value, path)
      case "ca_file":
        let text = try string(value, path)
        guard !text.isEmpty, !text.unicodeScalars.contains(where: Self.isControl) else {
          throw .invalidValue(file: file, key: path.text, reason: "must be a non-empty path without control characters")
        }
        settings.caFile = text
      case "container_registries": settings.containerRegistries = try registries(value, path)
      case "account_rules" where !prefix.isEmpty:
        throw .invalidValue(
          file: file, key: path.text, reason: "is allowed only at the top level (a list for every host)")
      default:
        throw .unknownKey(file: file, key: path.text, suggestion: nearestCandidate(to: key, among: known))
      }
    }
    return settings
  }

  /// The top-level `host`: a host name, optionally with a port, lowercased.
  package func host(_ value: JSONValue, _ path: String) throws(ConfigError) -> String {
    let text = try string(value, LazyKeyPath(prefix: path))
    guard let host = Self.normalizedHost(text) else {
      throw .invalidValue(file: file, key: path, reason: "must be a host name such as github.com or ghe.example.com")
    }
    return host
  }

  /// The top-level `store`: `"file"` or `"keyring"`.
  package func store(_ value: JSONValue, _ path: String) throws(ConfigError) -> TokenStorage {
    guard let storage = TokenStorage(rawValue: try string(value, LazyKeyPath(prefix: path))) else {
      throw .invalidValue(file: file, key: path, reason: "must be \"file\" or \"keyring\"")
    }
    return storage
  }

  /// The `hosts` object: host name (lowercased) → settings.
  package func hosts(_ value: JSONValue, _ path: String) throws(ConfigError) -> [String: HostSettings] {
    guard let object = value.objectValue else { throw .wrongType(file: file, key: path, expected: "an object") }
    var result: [String: HostSettings] = [:]
    for (name, block) in object.entries {
      let blockPath = path + "." + Self.display(name)
      guard let host = Self.normalizedHost(name) else {
        throw .invalidValue(
          file: file, key: blockPath, reason: "is not a host name such as github.com or ghe.example.com")
      }
      guard result[host] == nil else {
        throw .invalidValue(file: file, key: blockPath, reason: "repeats host \(host) (host names ignore case)")
      }
      guard let blockObject = block.objectValue else {
        throw .wrongType(file: file, key: blockPath, expected: "an object")
      }
      result[host] = try settings(blockObject, prefix: blockPath + ".")
    }
    return result
  }

  private func string(_ value: JSONValue, _ path: LazyKeyPath) throws(ConfigError) -> String {
    guard let text = value.stringValue else { throw .wrongType(file: file, key: path.text, expected: "a string") }
    return text
  }

  /// A client ID or secret: non-empty, no whitespace, no control characters.
  private func credential(_ value: JSONValue, _ path: LazyKeyPath) throws(ConfigError) -> String {
    let text = try string(value, path)
    guard Self.isCredentialText(text) else {
      throw .invalidValue(
        file: file, key: path.text, reason: "must not be empty or contain spaces or control characters")
    }
    return text
  }

  /// A client secret: `""` means a public client (no secret), exactly like an absent key; any
  /// other value follows ``credential(_:_:)``'s rules.
  private func secret(_ value: JSONValue, _ path: LazyKeyPath) throws(ConfigError) -> String? {
    if value.stringValue == "" { return nil }
    let text = try string(value, path)
    guard Self.isCredentialText(text) else {
      throw .invalidValue(file: file, key: path.text, reason: "must not contain spaces or control characters")
    }
    return text
  }

  /// `container_registries`: an array of registry names, each exactly a `host[:port]` as
  /// ``RegistryAddress`` normalises it (no scheme, path, user info; `:443` dropped).
  private func registries(_ value: JSONValue, _ path: LazyKeyPath) throws(ConfigError) -> [String] {
    guard let elements = value.arrayValue else {
      throw .wrongType(file: file, key: path.text, expected: "an array of strings")
    }
    var registries: [String] = []
    for element in elements {
      guard let text = element.stringValue else {
        throw .wrongType(file: file, key: path.text, expected: "an array of strings")
      }
      guard let name = try? GitHubHost(validating: text).name else {
        throw .invalidValue(
          file: file, key: path.text,
          reason: "must hold registry names such as \"registry.example.com:5000\" (host[:port], no scheme or path)")
      }
      if !registries.contains(name) { registries.append(name) }
    }
    return registries
  }

  private func scopes(_ value: JSONValue, _ path: LazyKeyPath) throws(ConfigError) -> [String] {
    guard let elements = value.arrayValue else {
      throw .wrongType(file: file, key: path.text, expected: "an array of strings")
    }
    var scopes: [String] = []
    for element in elements {
      guard let scope = element.stringValue else {
        throw .wrongType(file: file, key: path.text, expected: "an array of strings")
      }
      guard Self.isCredentialText(scope) else {
        throw .invalidValue(
          file: file, key: path.text, reason: "must hold scope names without spaces, such as \"repo\"")
      }
      scopes.append(scope)
    }
    return scopes
  }

  /// An endpoint URL: it must parse, and `http://` is only for loopback hosts (R-contract).
  private func url(_ value: JSONValue, _ path: LazyKeyPath) throws(ConfigError) -> WebURL {
    let text = try string(value, path)
    let url: WebURL
    do {
      url = try WebURL(parsing: text)
    } catch {
      throw .invalidURL(file: file, key: path.text, reason: error.reason)
    }
    if url.scheme == .http && !url.isLoopback { throw .insecureURL(file: file, key: path.text) }
    return url
  }

  /// `host` or `host:port` as ghlogin names it (lowercased, no `:443`) when `text` is a host
  /// name; nil otherwise. The same rule as `--host` and the credentials file's keys
  /// (``GitHubHost/init(validating:)``, R97, R106): one definition of a host name.
  static func normalizedHost(_ text: String) -> String? {
    (try? GitHubHost(validating: text))?.name
  }

  /// Whether `text` is non-empty and free of whitespace and control characters.
  static func isCredentialText(_ text: String) -> Bool {
    // ASCII (every client ID and scope in practice) on the bytes: a scalar's Unicode properties
    // are a table lookup each, for every account of the credentials file on every read.
    if text.utf8.allSatisfy({ $0 < 0x80 }) {
      return !text.isEmpty && text.utf8.allSatisfy { $0 > 0x20 && $0 != 0x7F }
    }
    return !text.isEmpty && !text.unicodeScalars.contains { isControl($0) || $0.properties.isWhitespace }
  }

  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }

  /// `key` escaped like the inside of a JSON string, safe to show on a terminal
  /// (``Sanitize/escaped(_:)``).
  package static func display(_ key: String) -> String { Sanitize.escaped(key) }
}

/// A key's path for messages (`hosts.NAME.key`), with the key escaped (``ConfigDecoder/display(_:)``)
/// only when a message is built: decoding a valid file spells out none.
struct LazyKeyPath {
  package var prefix: String
  package var key: String

  package init(prefix: String, key: String = "") {
    self.prefix = prefix
    self.key = key
  }

  package var text: String { key.isEmpty ? prefix : prefix + ConfigDecoder.display(key) }
}
