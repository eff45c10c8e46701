import Foundation
import Glibc
import Testing

import GHLoginCore

extension TemporaryDirectory {
  /// Makes `path/home` (0700) and returns it.
  package func makeHome() throws -> String {
    let home = at("home")
    try makeDirectory(home, mode: 0o700)
    return home
  }
}

/// `mkdir` then `chmod`, so the mode is exact whatever the umask.
package func makeDirectory(_ path: String, mode: mode_t) throws {
  guard mkdir(path, 0o700) == 0 else { throw SystemError(call: "mkdir", errno: errno) }
  guard chmod(path, mode) == 0 else { throw SystemError(call: "chmod", errno: errno) }
}

/// Writes `bytes` to `path` (created or truncated), then sets `mode` exactly.
package func writeFile(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o600) throws {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
  guard fd >= 0 else { throw SystemError(call: "open", errno: errno) }
  defer { close(fd) }
  var offset = 0
  while offset < bytes.count {
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
    guard written > 0 else { throw SystemError(call: "write", errno: errno) }
    offset += written
  }
  guard fchmod(fd, mode) == 0 else { throw SystemError(call: "fchmod", errno: errno) }
}

package func writeFile(_ path: String, _ text: String, mode: mode_t = 0o600) throws {
  try writeFile(path, Array(text.utf8), mode: mode)
}

/// The bytes of the file at `path`, or nil when it cannot be read.
package func readFile(_ path: String) -> [UInt8]? {
  FileManager.default.contents(atPath: path).map { Array($0) }
}

/// `lstat` of `path`, or nil when nothing is there.
package func linkStatus(_ path: String) -> stat? {
  var info = stat()
  return lstat(path, &info) == 0 ? info : nil
}

/// The permission bits of `path` (not following a link), or nil.
package func permissions(_ path: String) -> mode_t? {
  linkStatus(path).map { $0.st_mode & 0o7777 }
}

/// The names in directory `path`, sorted.
package func directoryEntries(_ path: String) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
}

/// Runs `body` with the process umask set to `mask`, restoring it after.
package func withUmask<T>(_ mask: mode_t, _ body: () throws -> T) rethrows -> T {
  let old = umask(mask)
  defer { umask(old) }
  return try body()
}

/// The repository root, from this file's location (Tests/GHLoginTestSupport/).
package let repositoryRoot: String = {
  var path = #filePath
  for _ in 0..<3 { path = FilePath.directory(of: path) }
  return path
}()

/// A temporary HOME with the default layout: `HOME/.config/ghlogin/credentials.json`.
package struct StoreFixture {
  package let temporary: TemporaryDirectory
  package let home: String
  package let paths: ConfigPaths

  package init() throws {
    temporary = try TemporaryDirectory()
    home = try temporary.makeHome()
    paths = try ConfigPaths.resolve(["HOME": home])
  }

  package var configDirectory: String { FilePath.directory(of: paths.credentialsFile) }
  package var file: String { paths.credentialsFile }

  package func store(faults: StoreFaults = .none, lockTimeout: Double = 30, clock: any TimeSource = SystemClock())
    -> CredentialStore
  {
    CredentialStore(paths: paths, faults: faults, lockTimeout: lockTimeout, clock: clock)
  }

  /// Makes the config directory (0700) without the store's help.
  package func makeConfigDirectory(mode: mode_t = 0o700) throws {
    try makeDirectory(home + "/.config", mode: 0o700)
    try makeDirectory(configDirectory, mode: mode)
  }
}

/// A sample account; `token` defaults to a plausible opaque value.
package func sampleCredential(_ login: String = "octocat", token: String = "gho_16C7e42F292c6912E7710c838347Ae178B4a")
  -> Credential
{
  Credential(login: login, userID: 583_231, token: token, scopes: ["repo", "read:org"], createdAt: 1_700_000_000)
}

/// Credentials with one host and its active account.
package func sampleCredentials(host: String = "github.com", _ credential: Credential = sampleCredential())
  -> Credentials
{
  Credentials(hosts: [host: HostEntry(activeLogin: credential.login, accounts: [credential])])
}

/// A credentials.json an earlier version left beside a shared config (`team/ghlogin.json`, which
/// `GHLOGIN_CONFIG` names), with a fresh `home/`: what the moved-credentials notice is about.
package enum FormerCredentials {
  /// The directory, the former file's path and its bytes as written.
  package static func make() throws -> (directory: TemporaryDirectory, former: String, written: [UInt8]) {
    let directory = try TemporaryDirectory()
    try makeDirectory(directory.at("home"), mode: 0o700)
    try makeDirectory(directory.at("team"), mode: 0o700)
    try writeFile(directory.at("team/ghlogin.json"), #"{"client_id": "Iv1.team"}"#)
    let former = directory.at("team/credentials.json")
    let account = (login: "octocat", userID: 1, token: "gho_former0123456789")
    try CredentialsFile.write(["github.com": account], to: former, scopes: [], createdAt: 1)
    return (directory, former, try #require(readFile(former)))
  }
}
