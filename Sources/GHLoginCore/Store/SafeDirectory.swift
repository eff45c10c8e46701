/// Creating and checking the directory that holds the credentials (R62).
package enum SafeDirectory {
  /// Creates `path` and any missing parents with `mkdir(…, 0700)`, then `fchmod(0700)` on each
  /// one it created, so the mode is exact whatever the umask. Existing directories are left
  /// as they are (``check(_:home:)`` judges them). `EEXIST` from a concurrent creator is fine.
  package static func create(_ path: String) throws(StoreError) {
    var missing: [String] = []
    var current = path
    while true {
      let info: FileStatus?
      do { info = try FileSystem.linkStatus(current) } catch { throw .io(path: current, operation: "inspect", error) }
      if info != nil { break }
      missing.append(current)
      let parent = FilePath.directory(of: current)
      if parent == current || parent == "." || parent == "/" { break }
      current = parent
    }
    for directory in missing.reversed() {
      do {
        try FileSystem.makeDirectory(directory, mode: FileMode.ownerOnly)
      } catch  where error.isAlreadyExisting {
        continue
      } catch {
        throw .io(path: directory, operation: "create the directory", error)
      }
      do {
        let fd = try FileDescriptor.open(directory, .readOnly, [.directory, .noFollow])
        defer { fd.close() }
        try fd.changeMode(FileMode.ownerOnly)
      } catch {
        throw .io(path: directory, operation: "set the mode of", error)
      }
    }
  }

  /// Whether something exists at `path` (not following a final link).
  package static func exists(_ path: String) throws(StoreError) -> Bool {
    do { return try FileSystem.linkStatus(path) != nil } catch { throw .io(path: path, operation: "inspect", error) }
  }

  /// The checks of R62, as OpenSSH's `safe_path()` does them:
  ///
  /// - `path` itself, by `lstat`: a real directory (not a symlink), owned by the effective
  ///   user, without group or other write bits;
  /// - every parent up to `/` (R94; before, only those up to `home`), by `stat` (a symlinked
  ///   `~/.config` is judged by its target): owned by the user or root, and not writable by
  ///   group or others unless sticky and owned by root (as `/tmp` is: no one else can then
  ///   rename or remove what is inside). `home` is kept for callers; the walk no longer stops
  ///   there. A relative `path` is walked from the current directory.
  package static func check(_ path: String, home: String?) throws(StoreError) {
    guard let info = try linkStatus(path) else {
      throw .io(path: path, operation: "use", SystemError.noSuchFile(call: "lstat"))
    }
    try checkOwn(path, info)
    try checkParents(of: path)
  }

  /// ``check(_:home:)`` when something is at `path` (true); when nothing is, the parent rule
  /// alone, as for a directory a login will create (false). One `lstat` answers both. With
  /// `parentsJudged`, the parents are not walked: they passed the rule moments ago in this
  /// command, when the config file in `path` was read (``CredentialStore/parentsJudged``).
  package static func checkIfPresent(_ path: String, home: String?, parentsJudged: Bool = false) throws(StoreError)
    -> Bool
  {
    let info = try linkStatus(path)
    if let info { try checkOwn(path, info) }
    if !parentsJudged { try checkParents(of: path) }
    return info != nil
  }

  /// `lstat` of `path`, nil when nothing is there.
  private static func linkStatus(_ path: String) throws(StoreError) -> FileStatus? {
    do { return try FileSystem.linkStatus(path) } catch { throw .io(path: path, operation: "inspect", error) }
  }

  /// R62's rules for the directory itself: a real directory (not a symlink), owned by the
  /// effective user, without group or other write bits.
  private static func checkOwn(_ path: String, _ info: FileStatus) throws(StoreError) {
    if info.kind == .symbolicLink { throw .symbolicLink(path: path) }
    guard info.kind == .directory else { throw .notADirectory(path: path) }
    guard info.owner == ProcessState.effectiveUserID else { throw .directoryNotOwned(path: path) }
    guard info.permissions & FileMode.groupOrOtherWrite == 0 else {
      throw .directoryWritableByOthers(path: path, parent: false)
    }
  }

  /// The parent rule of ``check(_:home:)`` alone (R94), for every existing parent of `path` up to
  /// `/`; `path` itself need not exist (a login judges where it will create the directory).
  static func checkParents(of path: String) throws(StoreError) {
    let user = ProcessState.effectiveUserID  // one system call for the walk, not one a parent
    for parent in parents(of: absolute(path)) {
      let parentInfo: FileStatus?
      do { parentInfo = try FileSystem.status(parent) } catch {
        throw .io(path: parent, operation: "inspect", error)
      }
      guard let parentInfo else { continue }
      let owner = parentInfo.owner
      guard owner == user || owner == 0 else { throw .directoryNotOwned(path: parent) }
      let stickyRoot = parentInfo.isSticky && owner == 0
      guard parentInfo.permissions & FileMode.groupOrOtherWrite == 0 || stickyRoot else {
        throw .directoryWritableByOthers(path: parent, parent: true)
      }
    }
  }

  /// `path` made absolute against the current directory (unchanged when it already is, or when
  /// the current directory cannot be found).
  package static func absolute(_ path: String) -> String {
    guard !path.hasPrefix("/") else { return path }
    guard let cwd = FileSystem.currentDirectory() else { return path }
    return FilePath.join(cwd, path)
  }

  /// The parents of the absolute `path`, nearest first, ending with `/`: `/a/b/c` gives
  /// `/a/b`, `/a`, `/`. Trailing slashes are ignored.
  static func parents(of path: String) -> [String] {
    // On the UTF-8 bytes: `hasSuffix`, `removeLast` and `String` comparisons per parent would
    // cost every command that reads the config.
    let slash = UInt8(ascii: "/")
    let bytes = Array(path.utf8)
    var end = bytes.count
    while end > 1 && bytes[end - 1] == slash { end -= 1 }
    var result: [String] = []
    result.reserveCapacity(bytes.count { $0 == slash })
    while let last = bytes[..<end].lastIndex(of: slash) {
      if last == 0 {
        if end > 1 { result.append("/") }
        break
      }
      result.append(String(decoding: bytes[..<last], as: UTF8.self))
      end = last
    }
    return result
  }
}
