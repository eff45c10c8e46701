#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Creating and checking the directory that holds the credentials (R62).
enum SafeDirectory {
  /// Creates `path` and any missing parents with `mkdir(…, 0700)`, then `fchmod(0700)` on each
  /// one it created, so the mode is exact whatever the umask. Existing directories are left
  /// as they are (``check(_:home:)`` judges them). `EEXIST` from a concurrent creator is fine.
  static func create(_ path: String) throws(StoreError) {
    var missing: [String] = []
    var current = path
    while true {
      let info: stat?
      do { info = try SecureFile.linkStatus(current) } catch { throw .io(path: current, operation: "inspect", error) }
      if info != nil { break }
      missing.append(current)
      let parent = FilePath.directory(of: current)
      if parent == current || parent == "." || parent == "/" { break }
      current = parent
    }
    for directory in missing.reversed() {
      do {
        try SecureFile.makeDirectory(directory, mode: FileMode.ownerOnly)
      } catch  where error.errno == EEXIST {
        continue
      } catch {
        throw .io(path: directory, operation: "create the directory", error)
      }
      do {
        let fd = try SecureFile.open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
        defer { SecureFile.close(fd) }
        try SecureFile.changeMode(fd, FileMode.ownerOnly)
      } catch {
        throw .io(path: directory, operation: "set the mode of", error)
      }
    }
  }

  /// Whether something exists at `path` (not following a final link).
  static func exists(_ path: String) throws(StoreError) -> Bool {
    do { return try SecureFile.linkStatus(path) != nil } catch { throw .io(path: path, operation: "inspect", error) }
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
  static func check(_ path: String, home: String?) throws(StoreError) {
    let info: stat?
    do { info = try SecureFile.linkStatus(path) } catch { throw .io(path: path, operation: "inspect", error) }
    guard let info else { throw .io(path: path, operation: "use", SystemError(call: "lstat", errno: ENOENT)) }
    if FileMode.isSymbolicLink(info.st_mode) { throw .symbolicLink(path: path) }
    guard FileMode.isDirectory(info.st_mode) else { throw .notADirectory(path: path) }
    guard info.st_uid == geteuid() else { throw .directoryNotOwned(path: path) }
    guard info.st_mode & FileMode.groupOrOtherWrite == 0 else {
      throw .directoryWritableByOthers(path: path, parent: false)
    }

    try checkParents(of: path)
  }

  /// The parent rule of ``check(_:home:)`` alone (R94), for every existing parent of `path` up to
  /// `/`; `path` itself need not exist (a login judges where it will create the directory).
  static func checkParents(of path: String) throws(StoreError) {
    for parent in parents(of: absolute(path)) {
      let parentInfo: stat?
      do { parentInfo = try SecureFile.followedStatus(parent) } catch {
        throw .io(path: parent, operation: "inspect", error)
      }
      guard let parentInfo else { continue }
      guard parentInfo.st_uid == geteuid() || parentInfo.st_uid == 0 else { throw .directoryNotOwned(path: parent) }
      let stickyRoot = parentInfo.st_mode & S_ISVTX != 0 && parentInfo.st_uid == 0
      guard parentInfo.st_mode & FileMode.groupOrOtherWrite == 0 || stickyRoot else {
        throw .directoryWritableByOthers(path: parent, parent: true)
      }
    }
  }

  /// `path` made absolute against the current directory (unchanged when it already is, or when
  /// the current directory cannot be found).
  static func absolute(_ path: String) -> String {
    guard !path.hasPrefix("/") else { return path }
    guard let cwd = getcwd(nil, 0) else { return path }
    defer { free(cwd) }
    return FilePath.join(String(cString: cwd), path)
  }

  /// The parents of the absolute `path`, nearest first, ending with `/`: `/a/b/c` gives
  /// `/a/b`, `/a`, `/`. Trailing slashes are ignored.
  static func parents(of path: String) -> [String] {
    var current = path
    while current.count > 1 && current.hasSuffix("/") { current.removeLast() }
    var result: [String] = []
    while true {
      let parent = FilePath.directory(of: current)
      guard parent != current, parent != "." else { break }
      result.append(parent)
      if parent == "/" { break }
      current = parent
    }
    return result
  }
}
