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
  /// - when `path` is under `home`, every parent up to and including `home`, by `stat`
  ///   (a symlinked `~/.config` is judged by its target): owned by the user or root, and not
  ///   writable by group or others.
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

    guard var home, home.hasPrefix("/"), path.hasPrefix("/") else { return }
    while home.count > 1 && home.hasSuffix("/") { home.removeLast() }
    let homePrefix = home == "/" ? "/" : home + "/"
    guard path.hasPrefix(homePrefix) else { return }
    var parent = FilePath.directory(of: path)
    while parent.hasPrefix(homePrefix) || parent == home {
      let parentInfo: stat?
      do { parentInfo = try SecureFile.followedStatus(parent) } catch {
        throw .io(path: parent, operation: "inspect", error)
      }
      guard let parentInfo else { break }
      guard parentInfo.st_uid == geteuid() || parentInfo.st_uid == 0 else { throw .directoryNotOwned(path: parent) }
      guard parentInfo.st_mode & FileMode.groupOrOtherWrite == 0 else {
        throw .directoryWritableByOthers(path: parent, parent: true)
      }
      if parent == home { break }
      parent = FilePath.directory(of: parent)
    }
  }
}
