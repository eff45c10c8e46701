import Foundation
import GHLoginTestSupport
import Glibc
import Testing

@testable import GHLoginCLI
@testable import GHLoginCore
@testable import GHLoginKit

extension TemporaryDirectory {
  /// Makes `path/home` (0700) and returns it.
  func makeHome() throws -> String {
    let home = at("home")
    try makeDirectory(home, mode: 0o700)
    return home
  }
}

/// `mkdir` then `chmod`, so the mode is exact whatever the umask.
func makeDirectory(_ path: String, mode: mode_t) throws {
  guard mkdir(path, 0o700) == 0 else { throw SystemError(call: "mkdir", errno: errno) }
  guard chmod(path, mode) == 0 else { throw SystemError(call: "chmod", errno: errno) }
}

/// Writes `bytes` to `path` (created or truncated), then sets `mode` exactly.
func writeFile(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o600) throws {
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

func writeFile(_ path: String, _ text: String, mode: mode_t = 0o600) throws {
  try writeFile(path, Array(text.utf8), mode: mode)
}

/// The bytes of the file at `path`, or nil when it cannot be read.
func readFile(_ path: String) -> [UInt8]? {
  FileManager.default.contents(atPath: path).map { Array($0) }
}

/// `lstat` of `path`, or nil when nothing is there.
func linkStatus(_ path: String) -> stat? {
  var info = stat()
  return lstat(path, &info) == 0 ? info : nil
}

/// The permission bits of `path` (not following a link), or nil.
func permissions(_ path: String) -> mode_t? {
  linkStatus(path).map { $0.st_mode & 0o7777 }
}

/// The names in directory `path`, sorted.
func directoryEntries(_ path: String) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
}

/// Runs `body` with the process umask set to `mask`, restoring it after.
func withUmask<T>(_ mask: mode_t, _ body: () throws -> T) rethrows -> T {
  let old = umask(mask)
  defer { umask(old) }
  return try body()
}

/// The repository root, from this file's location.
let repositoryRoot: String = {
  var path = #filePath
  for _ in 0..<4 { path = FilePath.directory(of: path) }
  return path
}()

/// A temporary HOME with the default layout: `HOME/.config/ghlogin/credentials.json`.
struct StoreFixture {
  let temporary: TemporaryDirectory
  let home: String
  let paths: ConfigPaths

  init() throws {
    temporary = try TemporaryDirectory()
    home = try temporary.makeHome()
    paths = try ConfigPaths.resolve(["HOME": home])
  }

  var configDirectory: String { FilePath.directory(of: paths.credentialsFile) }
  var file: String { paths.credentialsFile }

  func store(faults: StoreFaults = .none, lockTimeout: Double = 30, clock: any TimeSource = SystemClock())
    -> CredentialStore
  {
    CredentialStore(paths: paths, faults: faults, lockTimeout: lockTimeout, clock: clock)
  }

  /// Makes the config directory (0700) without the store's help.
  func makeConfigDirectory(mode: mode_t = 0o700) throws {
    try makeDirectory(home + "/.config", mode: 0o700)
    try makeDirectory(configDirectory, mode: mode)
  }
}

/// A sample account; `token` defaults to a plausible opaque value.
func sampleCredential(_ login: String = "octocat", token: String = "gho_16C7e42F292c6912E7710c838347Ae178B4a")
  -> Credential
{
  Credential(login: login, userID: 583_231, token: token, scopes: ["repo", "read:org"], createdAt: 1_700_000_000)
}

/// Credentials with one host and its active account.
func sampleCredentials(host: String = "github.com", _ credential: Credential = sampleCredential()) -> Credentials {
  Credentials(hosts: [host: HostEntry(activeLogin: credential.login, accounts: [credential])])
}
