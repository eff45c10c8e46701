#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// The absolute path of the running ghlogin, for `setup-git` to write into git's config.
///
/// The path the user ran is preferred when it leads to this very binary (same device and
/// inode as `/proc/self/exe`): a symbolic link such as `/usr/local/bin/ghlogin` keeps working
/// after an upgrade replaces what it points to. Otherwise, `readlink("/proc/self/exe")`.
enum ExecutablePath {
  /// Resolves `argument0` (the program name as run): with a `/`, against the current directory
  /// (`getcwd`); without one, along `PATH`. Falls back to `/proc/self/exe`, then `argument0`.
  package static func resolve(argument0: String, path: String?) -> String {
    let running = readLink("/proc/self/exe")
    let candidate: String?
    if argument0.contains("/") {
      candidate = absolute(argument0)
    } else {
      candidate = Subprocess.find(argument0, path: path)
    }
    if let candidate, isSameFile(candidate, "/proc/self/exe") { return candidate }
    return running ?? argument0
  }

  /// `path` made absolute against `getcwd` and without `.` or empty components (`..` is kept:
  /// it cannot be removed without resolving links).
  package static func absolute(_ path: String, currentDirectory: String? = currentDirectory()) -> String? {
    var full = path
    if !path.hasPrefix("/") {
      guard let currentDirectory else { return nil }
      full = currentDirectory + "/" + path
    }
    let parts = full.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
    return "/" + parts.joined(separator: "/")
  }

  /// `getcwd(3)`, or nil when it fails (for example when the directory was removed).
  private static func currentDirectory() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// `readlink(2)` of `path`, or nil.
  private static func readLink(_ path: String) -> String? { FileSystem.readLink(path) }

  /// Whether `stat(2)` (following links) finds the same device and inode for both paths.
  private static func isSameFile(_ first: String, _ second: String) -> Bool {
    var a = stat()
    var b = stat()
    guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino
  }
}
