import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Seeds a credentials file the way a finished login would have left it: the format of
/// `Sources/GHLoginCore/Store/CredentialCoding.swift`, mode 0600. Version 1 unless a test asks
/// for 2, the version ghlogin writes when an account has a `"client_id"` (the OAuth app that
/// issued the login; SECURITY.md, "Two apps on one host").
public enum CredentialsFile {
  /// One account of the file format with the fields every stored login has: `login`,
  /// `user_id`, `token`, `token_type` `bearer`, `scopes` and `created_at`.
  public static func account(
    login: String, userID: Int, token: String, scopes: [String] = ["repo", "gist"], createdAt: Int = 1_700_000_000
  ) -> [String: Any] {
    [
      "login": login, "user_id": userID, "token": token, "token_type": "bearer", "scopes": scopes,
      "created_at": createdAt,
    ]
  }

  /// Writes a credentials file at `path` with one active account per host:
  /// host → (login, user ID, token), each as ``account(login:userID:token:scopes:createdAt:)``.
  public static func write(
    _ accounts: [String: (login: String, userID: Int, token: String)], to path: String,
    scopes: [String] = ["repo", "gist"], createdAt: Int = 1_700_000_000
  ) throws {
    var hosts: [String: Any] = [:]
    for (host, entry) in accounts {
      let stored = Self.account(
        login: entry.login, userID: entry.userID, token: entry.token, scopes: scopes, createdAt: createdAt)
      hosts[host] = ["active": entry.login, "accounts": [stored]]
    }
    try write(hosts: hosts, to: path)
  }

  /// Writes `{"version": VERSION, "hosts": hosts}` at `path` (each host an object with `active`
  /// and `accounts`, as the store writes it), pretty-printed with sorted keys.
  public static func write(hosts: [String: Any], to path: String, version: Int = 1) throws {
    let document: [String: Any] = ["version": version, "hosts": hosts]
    let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
    try writePrivateFile(path, Array(data))
  }

  /// Replaces whatever is at `path` (a link is removed, not followed) with a new file holding
  /// `bytes`, mode exactly 0600 whatever the umask.
  public static func writePrivateFile(_ path: String, _ bytes: [UInt8]) throws {
    if unlink(path) != 0 && errno != ENOENT { throw TestSupportError("cannot remove \(path): errno \(errno)") }
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw TestSupportError("cannot create \(path): errno \(errno)") }
    defer { close(fd) }
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { throw TestSupportError("cannot write \(path): errno \(errno)") }
      offset += written
    }
    guard fchmod(fd, 0o600) == 0 else { throw TestSupportError("cannot chmod \(path): errno \(errno)") }
  }
}
