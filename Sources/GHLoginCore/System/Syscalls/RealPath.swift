#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

extension FileSystem {
  /// `realpath(3)`: `path` absolute, with every symbolic link, `.` and `..` resolved; nil when
  /// it cannot be resolved (nothing there, a component not searchable). What `account_rules`
  /// compares, so a rule and the working directory are judged as the same spelling.
  package static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
