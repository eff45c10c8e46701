/// The credentials file format, versions 1 to 3: `{"version", "hosts": {HOST: {"active",
/// "defaults", "accounts": [{"login", "user_id", "token", "token_type", "scopes", "created_at", and when set
/// "expires_at", "refresh_token", "refresh_token_expires_at", "via_device_flow", "expired",
/// "github_token_expiration", "client_id"}]}}}`.
///
/// Version 2 adds an account's `"client_id"`; a file is written as version 1 unless an account
/// has one (``Credentials/formatVersion``), so an older ghlogin keeps reading it, and refuses a
/// version-2 file (``Failure/newerVersion(_:)``). Version 3 adds a host's `"defaults"` (client ID →
/// login: an app's own default account) and allows two logins of one user on one host (two
/// apps', R111); a file is written as version 3 only when it holds one of them
/// (``HostEntry/needsVersion3``), and the release before it refuses such a file with its
/// "upgrade" message rather than merging the two logins on its next write. Reading is strict (an unknown key or a wrong
/// type makes the file invalid, so nothing is dropped on rewrite); failures name key paths,
/// never values.
package enum CredentialCoding {
  /// Why bytes are not a credentials file this ghlogin can use.
  package enum Failure: Error, Equatable {
    /// Not valid JSON or not the expected shape; the text names a position or key path.
    case invalid(String)
    /// A `version` greater than ``Credentials/currentVersion``.
    case newerVersion(Int)
  }

  /// The keys of an account in a version-1 file. Arrays, not sets: a read checks a handful of
  /// keys against them, and a `Set` costs more to build and hash than the search it saves.
  static let accountKeys: [String] = [
    "login", "user_id", "token", "token_type", "scopes", "created_at", "expires_at", "refresh_token",
    "refresh_token_expires_at", "via_device_flow", "expired", "store", "has_refresh_token", "github_token_expiration",
  ]

  /// The keys of an account in a version-2 file: version 1's and `"client_id"`.
  static let accountKeysVersion2: [String] = accountKeys + ["client_id"]

  /// The keys of an account in a version-3 file: version 2's and `"keyring_attributes"` (5: the
  /// login's keyring items predate `client_id`).
  package static let accountKeysVersion3: [String] = accountKeysVersion2 + ["keyring_attributes"]

  /// The keys of an account in a version-4 file: version 3's and `"narrowed"` (issue 34 §1).
  package static let accountKeysVersion4: [String] = accountKeysVersion3 + ["narrowed"]

  /// The keys of one narrowed token in `"narrowed"` (``NarrowedRecord``); `"token"` is absent
  /// for an account kept in the keyring, `"consumer_id"` for a cached token.
  package static let narrowedKeys: [String] = [
    "id", "token", "expires_at", "owner", "repositories", "permissions", "consumer", "consumer_id", "created_at",
  ]

  /// The keys of an account in a file of `version` (built once: `token` reads every account).
  package static func accountKeys(version: Int) -> [String] {
    version >= 4
      ? accountKeysVersion4 : version == 3 ? accountKeysVersion3 : version == 2 ? accountKeysVersion2 : accountKeys
  }

  // MARK: - Reading

  package static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> Credentials {
    try decode(bytes, maximumVersion: Credentials.currentVersion)
  }

  /// ``decode(_:)-(UnsafeBufferPointer<UInt8>)`` as a release whose newest version is
  /// `maximumVersion` reads it: a newer `version` is ``Failure/newerVersion(_:)`` before anything
  /// else is looked at, the check every release has made since version 1 (how the release before
  /// version 3 refuses such a file).
  package static func decode(_ bytes: UnsafeBufferPointer<UInt8>, maximumVersion: Int) throws(Failure) -> Credentials {
    let document: JSONValue
    do {
      document = try JSON.parse(bytes)
    } catch {
      throw invalidJSON(error)
    }
    let (version, hostsObject) = try header(document, maximumVersion: maximumVersion)
    var credentials = Credentials()
    for (host, value) in hostsObject.entries {
      credentials.hosts[host] = try hostEntry(host, value, version: version)
    }
    return credentials
  }

  /// The credentials of `host` alone, for a command that reads one host (`token --host`, the
  /// helpers): the whole file is checked as JSON (duplicate host names too) and its top level as
  /// ``decode(_:)-(UnsafeBufferPointer<UInt8>)`` checks it, but only the entry of `host` is built
  /// and checked, so another host's bad entry fails only the commands that read that host (and
  /// every write, which decodes all). No entry for `host` gives credentials without it.
  package static func decode(_ bytes: UnsafeBufferPointer<UInt8>, host: String) throws(Failure) -> Credentials {
    try decode(bytes, choosing: { _, _ in host })
  }

  /// ``decode(_:host:)-(UnsafeBufferPointer<UInt8>,_)`` of the host `choose` picks from the file's
  /// host names (in the file's order, not yet checked), for a helper that matches a request against
  /// them; nil gives no host.
  package static func decode(
    _ bytes: UnsafeBufferPointer<UInt8>, choosingHost choose: ([String]) -> String?
  ) throws(Failure) -> Credentials {
    try decode(bytes, choosing: { members, buffer in choose(members.keys(in: buffer)) })
  }

  /// ``decode(_:host:)-(UnsafeBufferPointer<UInt8>,_)`` of the host `choose` picks from the file's
  /// deferred members (their names are decoded only by a chooser that asks for them).
  private static func decode(
    _ buffer: UnsafeBufferPointer<UInt8>, choosing choose: (JSONDeferredMembers, UnsafeBufferPointer<UInt8>) -> String?
  ) throws(Failure) -> Credentials {
    guard buffer.count <= JSON.maximumInputSize else { return try decode(buffer) }
    var parser = JSONParser(buffer: buffer)
    let parsed: (document: JSONValue, members: JSONDeferredMembers?)
    do throws(JSONError) {
      parsed = try parser.parseDocument(deferring: "hosts")
    } catch {
      throw invalidJSON(error)
    }
    let (version, _) = try header(parsed.document)
    // `"hosts"` is not an object: `header` threw. An object always has its members here.
    guard let members = parsed.members, let host = choose(members, buffer),
      let index = members.index(of: host, in: buffer)
    else { return Credentials() }
    let value: JSONValue
    do throws(JSONError) {
      value = try parser.parseValue(at: members.values[index])
    } catch {
      throw invalidJSON(error)
    }
    return Credentials(host: host, entry: try hostEntry(host, value, version: version))
  }

  // The same reads of an array's bytes (the store hands over a buffer: the file read, or mapped).

  package static func decode(_ bytes: [UInt8]) throws(Failure) -> Credentials {
    try bytes.withUnsafeBufferPointer { buffer throws(Failure) in try decode(buffer) }
  }

  package static func decode(_ bytes: [UInt8], maximumVersion: Int) throws(Failure) -> Credentials {
    try bytes.withUnsafeBufferPointer { buffer throws(Failure) in try decode(buffer, maximumVersion: maximumVersion) }
  }

  package static func decode(_ bytes: [UInt8], host: String) throws(Failure) -> Credentials {
    try bytes.withUnsafeBufferPointer { buffer throws(Failure) in try decode(buffer, host: host) }
  }

  package static func decode(
    _ bytes: [UInt8], choosingHost choose: ([String]) -> String?
  ) throws(Failure) -> Credentials {
    try bytes.withUnsafeBufferPointer { buffer throws(Failure) in try decode(buffer, choosingHost: choose) }
  }

  private static func invalidJSON(_ error: JSONError) -> Failure {
    .invalid("invalid JSON at line \(error.line), column \(error.column)")
  }

  /// The top level's checks: the version and the `hosts` object.
  private static func header(
    _ document: JSONValue, maximumVersion: Int = Credentials.currentVersion
  ) throws(Failure) -> (version: Int, hosts: JSONObject) {
    guard let top = document.objectValue else { throw .invalid("the top level is not an object") }
    guard let versionValue = top["version"] else { throw .invalid("\"version\" is missing") }
    guard let version = versionValue.intValue, version >= 1 else {
      throw .invalid("\"version\" must be a positive integer")
    }
    guard version <= maximumVersion else { throw .newerVersion(version) }
    try onlyKeys(top, ["version", "hosts"], prefix: "")
    guard let hostsValue = top["hosts"] else { throw .invalid("\"hosts\" is missing") }
    guard let hostsObject = hostsValue.objectValue else { throw .invalid("\"hosts\" must be an object") }
    return (version, hostsObject)
  }

  /// The entry of `host` in `hosts`, its name and every account checked.
  private static func hostEntry(_ host: String, _ value: JSONValue, version: Int) throws(Failure) -> HostEntry {
    // Where a value is, spelled out only when a message needs it (escaping the host and
    // building the strings was a tenth of `token`'s work in Swift).
    func path() -> String { "hosts." + ConfigDecoder.display(host) }
    guard !host.isEmpty else { throw .invalid("a host name in \"hosts\" is empty") }
    if let reason = invalidHostReason(host) {
      throw .invalid("the host name \"\(displayHost(host))\" in \"hosts\" is not valid: \(reason)")
    }
    guard let object = value.objectValue else { throw .invalid("\"\(path())\" must be an object") }
    try onlyKeys(
      object, version >= 3 ? ["active", "defaults", "accounts"] : ["active", "accounts"], prefix: path() + ".")
    var entry = HostEntry()
    if let active = object["active"] { entry.activeLogin = try string(active, path() + ".active") }
    if let defaults = object["defaults"] {
      guard let members = defaults.objectValue else { throw .invalid("\"\(path()).defaults\" must be an object") }
      for (clientID, value) in members.entries {
        guard ConfigDecoder.isCredentialText(clientID) else {
          throw .invalid("a client ID in \"\(path()).defaults\" is empty or has spaces or control characters")
        }
        let login = try string(value, path() + ".defaults." + ConfigDecoder.display(clientID))
        guard !login.isEmpty else {
          throw .invalid("\"\(path()).defaults.\(ConfigDecoder.display(clientID))\" is empty")
        }
        entry.defaults[clientID] = login
      }
    }
    guard let accounts = object["accounts"]?.arrayValue else {
      throw .invalid("\"\(path()).accounts\" must be an array")
    }
    for (index, account) in accounts.enumerated() {
      entry.accounts.append(try credential(account, { "\(path()).accounts[\(index)]" }, version: version))
    }
    return entry
  }

  /// Why `host` cannot be a key of `hosts` (R106: the rule for host names typed by the user,
  /// ``GitHubHost/init(storedName:)``), or nil when it can.
  static func invalidHostReason(_ host: String) -> String? {
    do {
      _ = try GitHubHost(storedName: host)
      return nil
    } catch {
      return error.reason
    }
  }

  /// `host` escaped for a message (nothing in it acts on a terminal), cut to 100 characters.
  static func displayHost(_ host: String) -> String {
    let cut = host.count > 100 ? String(host.prefix(100)) + "…" : host
    return ConfigDecoder.display(cut)
  }

  private static func credential(_ value: JSONValue, _ path: () -> String, version: Int) throws(Failure) -> Credential {
    guard let object = value.objectValue else { throw .invalid("\"\(path())\" must be an object") }
    try onlyKeys(object, accountKeys(version: version), prefix: path() + ".")
    func required(_ key: String) throws(Failure) -> JSONValue {
      guard let value = object[key] else { throw .invalid("\"\(path()).\(key)\" is missing") }
      return value
    }
    let login = try string(try required("login"), path() + ".login")
    guard !login.isEmpty else { throw .invalid("\"\(path()).login\" is empty") }
    guard let userID = try required("user_id").intValue else {
      throw .invalid("\"\(path()).user_id\" must be an integer")
    }
    let storage = try storage(object, path)
    // An account kept in the keyring has no token in the file: its tokens are read from the
    // keyring by CredentialStore, which replaces these empty placeholders.
    let accessToken = storage == .keyring ? "" : try token(try required("token"), path() + ".token")
    var credential = Credential(
      login: login, userID: Int64(userID), token: accessToken,
      tokenType: try string(try required("token_type"), path() + ".token_type"),
      scopes: try strings(try required("scopes"), path() + ".scopes"),
      createdAt: try number(try required("created_at"), path() + ".created_at"))
    if let value = object["expires_at"] { credential.expiresAt = try number(value, path() + ".expires_at") }
    credential.storage = storage
    if let value = object["refresh_token"] { credential.refreshToken = try token(value, path() + ".refresh_token") }
    if let value = object["has_refresh_token"], try bool(value, path() + ".has_refresh_token") {
      credential.refreshToken = ""
    }
    if let value = object["refresh_token_expires_at"] {
      credential.refreshTokenExpiresAt = try number(value, path() + ".refresh_token_expires_at")
    }
    if let value = object["via_device_flow"] { credential.viaDeviceFlow = try bool(value, path() + ".via_device_flow") }
    if let value = object["expired"] { credential.isExpired = try bool(value, path() + ".expired") }
    if let value = object["github_token_expiration"] {
      credential.gitHubExpiration = try number(value, path() + ".github_token_expiration")
    }
    // Keyring items carry `client_id` only in files that can say so (version 3): in an older
    // file, and where a version-3 file says 5, they have the five attributes of before.
    if let value = object["keyring_attributes"] {
      guard storage == .keyring, value.intValue == 5 else {
        throw .invalid("\"\(path()).keyring_attributes\" must be 5, for an account kept in the keyring")
      }
    }
    credential.keyringItemsPredateClientID =
      storage == .keyring && (version < 3 || object["keyring_attributes"] != nil)
    if let value = object["client_id"] {
      let clientID = try string(value, path() + ".client_id")
      guard ConfigDecoder.isCredentialText(clientID) else {
        throw .invalid("\"\(path()).client_id\" must not be empty or contain spaces or control characters")
      }
      credential.clientID = clientID
    }
    if let value = object["narrowed"] {
      guard let records = value.arrayValue else { throw .invalid("\"\(path()).narrowed\" must be an array") }
      // A keyring login's records are here without their tokens, which are its keyring items.
      var ids = Set<String>()
      for (index, record) in records.enumerated() {
        let parsed = try narrowed(record, { "\(path()).narrowed[\(index)]" }, inKeyring: storage == .keyring)
        guard ids.insert(parsed.id).inserted else {
          throw .invalid("\"\(path()).narrowed[\(index)].id\" is the id of an earlier narrowed token")
        }
        credential.narrowed.append(parsed)
      }
    }
    return credential
  }

  /// One narrowed token of an account (``NarrowedRecord``; version 4).
  private static func narrowed(_ value: JSONValue, _ path: () -> String, inKeyring: Bool) throws(Failure)
    -> NarrowedRecord
  {
    guard let object = value.objectValue else { throw .invalid("\"\(path())\" must be an object") }
    try onlyKeys(object, narrowedKeys, prefix: path() + ".")
    func required(_ key: String) throws(Failure) -> JSONValue {
      guard let value = object[key] else { throw .invalid("\"\(path()).\(key)\" is missing") }
      return value
    }
    let id = try string(try required("id"), path() + ".id")
    guard NarrowedRecord.isValidID(id) else {
      throw .invalid("\"\(path()).id\" must be 1 to 64 letters, digits, '-' or '_'")
    }
    let token: String
    if inKeyring {
      guard object["token"] == nil else {
        throw .invalid("\"\(path()).token\" must not be in the file for an account kept in the keyring")
      }
      token = ""
    } else {
      token = try self.token(try required("token"), path() + ".token")
    }
    let owner = try string(try required("owner"), path() + ".owner")
    guard Narrowing.isOwnerName(owner) else { throw .invalid("\"\(path()).owner\" is not a GitHub account name") }
    let repositories = try strings(try required("repositories"), path() + ".repositories")
    guard !repositories.isEmpty, repositories.count <= Narrowing.maximumRepositories,
      repositories.allSatisfy(Narrowing.isRepositoryName), NarrowedRecord.key(repositories) == repositories,
      Set(repositories).count == repositories.count
    else {
      throw .invalid(
        "\"\(path()).repositories\" must hold 1 to \(Narrowing.maximumRepositories) repository names, "
          + "lowercase, sorted, each once")
    }
    guard let permissionObject = try required("permissions").objectValue else {
      throw .invalid("\"\(path()).permissions\" must be an object")
    }
    var permissions: [String: String] = [:]
    for (name, level) in permissionObject.entries {
      let text = try string(level, path() + ".permissions." + ConfigDecoder.display(name))
      guard AppPermissions.levels[name]?.contains(text) == true else {
        throw .invalid("\"\(path()).permissions.\(ConfigDecoder.display(name))\" is not a GitHub App permission level")
      }
      permissions[name] = text
    }
    let consumerName = try string(try required("consumer"), path() + ".consumer")
    guard let consumer = NarrowedRecord.Consumer(rawValue: consumerName) else {
      throw .invalid("\"\(path()).consumer\" must be \"cache\", \"run\" or \"forward\"")
    }
    var consumerID: String?
    if let value = object["consumer_id"] {
      let text = try string(value, path() + ".consumer_id")
      guard NarrowedRecord.isValidID(text) else {
        throw .invalid("\"\(path()).consumer_id\" must be 1 to 64 letters, digits, '-' or '_'")
      }
      consumerID = text
    }
    guard (consumer == .cache) == (consumerID == nil) else {
      throw .invalid("\"\(path()).consumer_id\" is needed for a run's or forward's token, and only then")
    }
    var expiresAt: Double?
    if let value = object["expires_at"] { expiresAt = try number(value, path() + ".expires_at") }
    return NarrowedRecord(
      id: id, token: token, expiresAt: expiresAt, owner: owner, repositories: repositories, permissions: permissions,
      consumer: consumer, consumerID: consumerID,
      createdAt: try number(try required("created_at"), path() + ".created_at"))
  }

  /// The account's `"store"`: absent or `"file"` (tokens in the file), or `"keyring"` (no
  /// token or refresh token in the file; `has_refresh_token` says whether the keyring has one).
  private static func storage(_ object: JSONObject, _ path: () -> String) throws(Failure) -> TokenStorage {
    guard let value = object["store"] else {
      if object["has_refresh_token"] != nil {
        throw .invalid("\"\(path()).has_refresh_token\" needs \"store\": \"keyring\"")
      }
      return .file
    }
    guard let name = value.stringValue, let storage = TokenStorage(rawValue: name) else {
      throw .invalid("\"\(path()).store\" must be \"file\" or \"keyring\"")
    }
    if storage == .keyring {
      for key in ["token", "refresh_token"] where object[key] != nil {
        throw .invalid("\"\(path()).\(key)\" must not be in the file for an account kept in the keyring")
      }
    } else if object["has_refresh_token"] != nil {
      throw .invalid("\"\(path()).has_refresh_token\" needs \"store\": \"keyring\"")
    }
    return storage
  }

  private static func onlyKeys(
    _ object: JSONObject, _ allowed: [String], prefix: @autoclosure () -> String
  ) throws(Failure) {
    for key in object.keys where !allowed.contains(where: { $0.utf8.count == key.utf8.count && $0 == key }) {
      throw .invalid("unknown key \"\(prefix())\(ConfigDecoder.display(key))\"")
    }
  }

  private static func string(_ value: JSONValue, _ path: @autoclosure () -> String) throws(Failure) -> String {
    guard let text = value.stringValue else { throw .invalid("\"\(path())\" must be a string") }
    return text
  }

  private static func token(_ value: JSONValue, _ path: @autoclosure () -> String) throws(Failure) -> String {
    let text = try string(value, path())
    guard Credential.isAcceptableToken(text) else { throw .invalid("\"\(path())\" is not a valid token") }
    return text
  }

  private static func strings(_ value: JSONValue, _ path: @autoclosure () -> String) throws(Failure) -> [String] {
    guard let elements = value.arrayValue else { throw .invalid("\"\(path())\" must be an array of strings") }
    var result: [String] = []
    for element in elements {
      guard let text = element.stringValue else { throw .invalid("\"\(path())\" must be an array of strings") }
      result.append(text)
    }
    return result
  }

  private static func number(_ value: JSONValue, _ path: @autoclosure () -> String) throws(Failure) -> Double {
    guard let number = value.doubleValue, number.isFinite else { throw .invalid("\"\(path())\" must be a number") }
    return number
  }

  private static func bool(_ value: JSONValue, _ path: @autoclosure () -> String) throws(Failure) -> Bool {
    guard let flag = value.boolValue else { throw .invalid("\"\(path())\" must be true or false") }
    return flag
  }

  // MARK: - Writing

  /// Refuses what must never be written: tokens with characters no token has (R30), empty
  /// logins or host names, and times that are not finite.
  static func validate(_ credentials: Credentials) throws(StoreError) {
    for (host, entry) in credentials.hosts {
      let shownHost = ConfigDecoder.display(host)
      guard !host.isEmpty else { throw .invalidCredential(host: "\"\"", reason: "the host name is empty") }
      if let reason = invalidHostReason(host) {
        throw .invalidCredential(host: "\"\(displayHost(host))\"", reason: "the host name is not valid: \(reason)")
      }
      for (clientID, login) in entry.defaults where !ConfigDecoder.isCredentialText(clientID) || login.isEmpty {
        throw .invalidCredential(host: shownHost, reason: "a default account has an empty login or a bad client ID")
      }
      for account in entry.accounts {
        let login = ConfigDecoder.display(account.login)
        guard !account.login.isEmpty else { throw .invalidCredential(host: shownHost, reason: "a login is empty") }
        // A keyring account's tokens are not in the file; those not read from the keyring
        // (empty: missing there, or not looked up) are not written anywhere.
        let inKeyring = account.storage == .keyring
        guard Credential.isAcceptableToken(account.token) || (inKeyring && account.token.isEmpty) else {
          throw .invalidToken(host: shownHost, login: login, field: "token")
        }
        if let refresh = account.refreshToken, !Credential.isAcceptableToken(refresh), !(inKeyring && refresh.isEmpty) {
          throw .invalidToken(host: shownHost, login: login, field: "refresh token")
        }
        let times = [account.createdAt, account.expiresAt, account.refreshTokenExpiresAt, account.gitHubExpiration]
          .compactMap { $0 }
        guard times.allSatisfy({ $0.isFinite }) else {
          throw .invalidCredential(host: shownHost, reason: "a time of \(login) is not a finite number")
        }
        for record in account.narrowed {
          guard Credential.isAcceptableToken(record.token) || (inKeyring && record.token.isEmpty) else {
            throw .invalidToken(host: shownHost, login: login, field: "narrowed token")
          }
          let valid =
            NarrowedRecord.isValidID(record.id) && Narrowing.isOwnerName(record.owner) && !record.repositories.isEmpty
            && record.repositories.allSatisfy(Narrowing.isRepositoryName)
            && NarrowedRecord.key(record.repositories) == record.repositories
            && (record.consumer == .cache) == (record.consumerID == nil)
            && (record.consumerID.map(NarrowedRecord.isValidID) ?? true)
            && ([record.createdAt] + (record.expiresAt.map { [$0] } ?? [])).allSatisfy(\.isFinite)
          guard valid else {
            throw .invalidCredential(host: shownHost, reason: "a narrowed token of \(login) is not valid")
          }
        }
        if let clientID = account.clientID, !ConfigDecoder.isCredentialText(clientID) {
          throw .invalidCredential(
            host: shownHost, reason: "the client ID of \(login) is empty or has spaces or control characters")
        }
      }
    }
  }

  /// The pretty-printed file contents; call ``validate(_:)`` first.
  package static func encode(_ credentials: Credentials) -> [UInt8] {
    var hosts = JSONObject()
    let version = credentials.formatVersion
    for host in credentials.hosts.keys.sorted() {
      guard let entry = credentials.hosts[host] else { continue }
      var object = JSONObject()
      if let active = entry.activeLogin { object["active"] = .string(active) }
      if !entry.defaults.isEmpty {
        var defaults = JSONObject()
        for clientID in entry.defaults.keys.sorted() {
          defaults[clientID] = entry.defaults[clientID].map(JSONValue.string)
        }
        object["defaults"] = .object(defaults)
      }
      object["accounts"] = .array(entry.accounts.map { encode($0, version: version) })
      hosts[host] = .object(object)
    }
    let document: JSONValue = [
      "version": JSONValue(integer: Int64(version)), "hosts": .object(hosts),
    ]
    return Array(JSON.serialize(document, pretty: true).utf8)
  }

  private static func encode(_ account: Credential, version: Int) -> JSONValue {
    var object = JSONObject()
    object["login"] = .string(account.login)
    object["user_id"] = JSONValue(integer: account.userID)
    if account.storage == .keyring {
      object["store"] = .string(TokenStorage.keyring.rawValue)
      if account.refreshToken != nil { object["has_refresh_token"] = true }
    } else {
      object["token"] = .string(account.token)
    }
    object["token_type"] = .string(account.tokenType)
    object["scopes"] = .array(account.scopes.map(JSONValue.string))
    object["created_at"] = JSONValue(double: account.createdAt) ?? .null
    if let value = account.expiresAt { object["expires_at"] = JSONValue(double: value) ?? .null }
    if let value = account.refreshToken, account.storage == .file { object["refresh_token"] = .string(value) }
    if let value = account.refreshTokenExpiresAt {
      object["refresh_token_expires_at"] = JSONValue(double: value) ?? .null
    }
    if account.viaDeviceFlow { object["via_device_flow"] = true }
    if account.isExpired { object["expired"] = true }
    if let value = account.gitHubExpiration { object["github_token_expiration"] = JSONValue(double: value) ?? .null }
    if let value = account.clientID { object["client_id"] = .string(value) }
    if version >= 3, account.storage == .keyring, account.keyringItemsPredateClientID {
      object["keyring_attributes"] = JSONValue(integer: 5)
    }
    if !account.narrowed.isEmpty {
      object["narrowed"] = .array(account.narrowed.map { encode($0, inKeyring: account.storage == .keyring) })
    }
    return .object(object)
  }

  private static func encode(_ record: NarrowedRecord, inKeyring: Bool) -> JSONValue {
    var object = JSONObject()
    object["id"] = .string(record.id)
    if !inKeyring { object["token"] = .string(record.token) }
    if let value = record.expiresAt { object["expires_at"] = JSONValue(double: value) ?? .null }
    object["owner"] = .string(record.owner)
    object["repositories"] = .array(record.repositories.map(JSONValue.string))
    var permissions = JSONObject()
    for name in record.permissions.keys.sorted() { permissions[name] = record.permissions[name].map(JSONValue.string) }
    object["permissions"] = .object(permissions)
    object["consumer"] = .string(record.consumer.rawValue)
    if let value = record.consumerID { object["consumer_id"] = .string(value) }
    object["created_at"] = JSONValue(double: record.createdAt) ?? .null
    return .object(object)
  }
}
