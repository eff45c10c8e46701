/// Reads and rewrites the JSON config file for `ghlogin config get|set|unset`: one key at a
/// time, the other keys (and their order) kept as they are, the result checked exactly as a
/// load checks it before it replaces the file atomically (``AtomicFile``, mode 0600).
struct ConfigEditor {
  /// The config file.
  let file: String
  /// The file's top-level object; empty when the file does not exist yet.
  var document: JSONObject
  /// Whether the file existed when read.
  let fileExisted: Bool

  /// Reads `file`, refusing what ``Config/load(paths:variables:)`` refuses (a symbolic link,
  /// not a regular file, over 1 MiB, not JSON, not an object, an invalid setting).
  init(file: String) throws(ConfigError) {
    self.file = file
    let bytes: [UInt8]
    do {
      bytes = try SecureFile.readRegularFile(file, limit: Config.maximumFileSize).bytes
    } catch {
      switch error {
      case .missing:
        document = JSONObject()
        fileExisted = false
        return
      case .symbolicLink: throw .symbolicLink(file: file)
      case .notRegularFile: throw .notRegularFile(file: file)
      case .tooLarge: throw .tooLarge(file: file)
      case .system(let systemError): throw .unreadable(file: file, systemError)
      }
    }
    _ = try Config.parse(bytes: bytes, file: file, variables: [:])
    guard let object = try? JSON.parse(bytes).objectValue else { throw .notAnObject(file: file) }
    document = object
    fileExisted = true
  }

  /// The value of `key` at the top level, or in the block of `host` when given.
  func value(_ key: String, host: String?) -> JSONValue? {
    guard let host else { return document[key] }
    guard let name = blockName(host), let block = document["hosts"]?.objectValue?[name]?.objectValue else {
      return nil
    }
    return block[key]
  }

  /// Sets (or with nil removes) `key` at the top level or in the block of `host`. A block left
  /// empty is removed, and so is a `hosts` object left empty.
  mutating func set(_ key: String, to value: JSONValue?, host: String?) {
    guard let host else {
      document[key] = value
      return
    }
    var hosts = document["hosts"]?.objectValue ?? JSONObject()
    let name = blockName(host) ?? (ConfigDecoder.normalizedHost(host) ?? host)
    var block = hosts[name]?.objectValue ?? JSONObject()
    block[key] = value
    hosts[name] = block.entries.isEmpty ? nil : .object(block)
    document["hosts"] = hosts.entries.isEmpty ? nil : .object(hosts)
  }

  /// Checks the edited document as a load would, then replaces the file atomically (creating
  /// its directory, mode 0700, when missing). Throws ``ConfigError`` (nothing written) or
  /// ``StoreError``.
  func save() throws {
    let bytes = Array(JSON.serialize(.object(document), pretty: true).utf8)
    _ = try Config.parse(bytes: bytes, file: file, variables: [:])
    let directory = FilePath.directory(of: file)
    if directory != "." && directory != "/" { try SafeDirectory.create(directory) }
    try AtomicFile.write(bytes, to: file, faults: StoreFaults())
  }

  /// The key under `hosts` that names `host` (any case, `:443` or not), if there is one.
  private func blockName(_ host: String) -> String? {
    let wanted = ConfigDecoder.normalizedHost(host)
    return document["hosts"]?.objectValue?.keys.first { ConfigDecoder.normalizedHost($0) == wanted }
  }
}
