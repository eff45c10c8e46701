/// Reads and rewrites the JSON config file for `ghlogin config get|set|unset`: one key at a
/// time, the other keys (and their order) kept as they are, the result checked exactly as a
/// load checks it before it replaces the file atomically (``AtomicFile``, mode 0600).
package struct ConfigEditor {
  /// The config file.
  package let file: String
  /// The file's top-level object; empty when the file does not exist yet.
  package var document: JSONObject
  /// Whether the file existed when read.
  package let fileExisted: Bool

  /// How long ``edit(file:lockTimeout:clock:_:)`` waits for the config's lock by default, in seconds.
  static let defaultLockTimeout = CredentialStore.defaultLockTimeout

  /// Reads `file`, refusing what ``Config/load(paths:variables:unknownKeys:builtIn:)`` refuses, through
  /// the same ``Config/readTrusted(_:)`` (a symbolic link, not a regular file, over 1 MiB,
  /// another user's or writable by group or others (R93), not JSON, not an object, an invalid
  /// setting).
  package init(file: String) throws(ConfigError) {
    self.file = file
    guard let bytes = try Config.readTrusted(file) else {
      document = JSONObject()
      fileExisted = false
      return
    }
    _ = try Config.parse(bytes: bytes, file: file, variables: [:])
    guard let object = try? JSON.parse(bytes).objectValue else { throw .notAnObject(file: file) }
    document = object
    fileExisted = true
  }

  /// The lock file of the config `file`: beside it, its name plus `.lock`.
  package static func lockFile(for file: String) -> String { file + ".lock" }

  /// One read-modify-write of `file` under an exclusive lock (R99): creates the directory
  /// (0700) when missing, takes the lock on ``lockFile(for:)`` (``FileLock``: created 0600 with
  /// `O_NOFOLLOW`, waiting up to `lockTimeout` seconds), reads the file as ``init(file:)`` does,
  /// runs `change` and, when it returns true, saves the result (``save()``) before the lock is
  /// released. So concurrent edits of different keys all survive, and an edit that cannot take
  /// the lock in time throws ``StoreError/configLockTimeout(path:seconds:)`` having written nothing.
  package static func edit(
    file: String, lockTimeout: Double = defaultLockTimeout, clock: any TimeSource = SystemClock(),
    _ change: (inout ConfigEditor) throws -> Bool
  ) throws {
    let directory = FilePath.directory(of: file)
    if directory != "." && directory != "/" { try SafeDirectory.create(directory) }
    let lock: FileLock
    do {
      lock = try FileLock.acquire(lockFile(for: file), timeout: lockTimeout, clock: clock)
    } catch {
      throw Self.forConfig(error)
    }
    defer { lock.release() }
    AtomicFile.removeStaleTemporaries(for: file)
    var editor = try ConfigEditor(file: file)
    if try change(&editor) { try editor.save() }
  }

  /// The value of `key` at the top level, or in the block of `host` when given.
  package func value(_ key: String, host: String?) -> JSONValue? {
    guard let host else { return document[key] }
    guard let name = blockName(host), let block = document["hosts"]?.objectValue?[name]?.objectValue else {
      return nil
    }
    return block[key]
  }

  /// Sets (or with nil removes) `key` at the top level or in the block of `host`. A block left
  /// empty is removed, and so is a `hosts` object left empty.
  package mutating func set(_ key: String, to value: JSONValue?, host: String?) {
    guard let host else {
      document[key] = value
      return
    }
    var hosts = document["hosts"]?.objectValue ?? JSONObject()
    let name = blockName(host) ?? (ConfigDecoder.normalizedHost(host) ?? host)
    var block = hosts[name]?.objectValue ?? JSONObject()
    block[key] = value
    hosts[name] = block.isEmpty ? nil : .object(block)
    document["hosts"] = hosts.isEmpty ? nil : .object(hosts)
  }

  /// Checks the edited document as a load would, then replaces the file atomically (creating
  /// its directory, mode 0700, when missing). Throws ``ConfigError`` (nothing written) or
  /// ``StoreError``. Only ``edit(file:lockTimeout:clock:_:)`` calls it, holding the lock (R99).
  private func save() throws {
    let bytes = Array(JSON.serialize(.object(document), pretty: true).utf8)
    _ = try Config.parse(bytes: bytes, file: file, variables: [:])
    let directory = FilePath.directory(of: file)
    if directory != "." && directory != "/" { try SafeDirectory.create(directory) }
    try AtomicFile.write(bytes, to: file, faults: StoreFaults())
  }

  /// A lock error as the config's: the credentials' wording of a timeout would mislead.
  private static func forConfig(_ error: StoreError) -> StoreError {
    guard case .lockTimeout(let path, let seconds) = error else { return error }
    return .configLockTimeout(path: path, seconds: seconds)
  }

  /// The key under `hosts` that names `host` (any case, `:443` or not), if there is one.
  private func blockName(_ host: String) -> String? {
    let wanted = ConfigDecoder.normalizedHost(host)
    return document["hosts"]?.objectValue?.keys.first { ConfigDecoder.normalizedHost($0) == wanted }
  }
}
