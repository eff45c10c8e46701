/// Why the credential store cannot be read or written.
///
/// Every case exits with status 1 (failure), including unsafe permissions and paths: the
/// command line is fine, the file system is not. Messages name the file or directory and say
/// what to do; they never contain anything read from the credentials file (no token, no
/// refresh token), only key paths such as `hosts.github.com.accounts[0].token`.
package enum StoreError: ReportableError, Equatable, Sendable {
  /// The file, directory or lock file is a symbolic link; ghlogin never goes through one.
  case symbolicLink(path: String)
  /// Something other than a directory is where the credentials directory should be.
  case notADirectory(path: String)
  /// The directory (or a parent up to `HOME`) belongs to another user.
  case directoryNotOwned(path: String)
  /// The directory (`parent == false`) or one of its parents up to `HOME` can be written by
  /// group or others.
  case directoryWritableByOthers(path: String, parent: Bool)
  /// The credentials or lock file is not a regular file.
  case notRegularFile(path: String)
  /// The credentials path holds a directory, FIFO, device or socket (named by `kind`), refused
  /// before any lock file is made beside it.
  case notARegularFile(path: String, kind: String)
  /// The credentials file has more than one hard link (R95).
  case multipleLinks(path: String, count: Int)
  /// The credentials or lock file belongs to another user.
  case fileNotOwned(path: String)
  /// The credentials file has group or other permission bits.
  case permissionsTooOpen(path: String, mode: UInt32)
  /// The credentials file is larger than ``CredentialStore/maximumFileSize``.
  case tooLarge(path: String)
  /// The file is not valid JSON or not shaped like a credentials file; `detail` names the
  /// position or key path only.
  case corrupt(path: String, detail: String)
  /// The file has a version this ghlogin does not know.
  case newerVersion(path: String, version: Int)
  /// The lock could not be taken in time.
  case lockTimeout(path: String, seconds: Double)
  /// Another process held the config's lock (``ConfigEditor/lockFile(for:)``) for the whole wait (R99).
  case configLockTimeout(path: String, seconds: Double)
  /// A system call failed; `operation` reads like "write" or "create the directory".
  case io(path: String, operation: String, SystemError)
  /// Replacing the file failed before the rename (no room, read-only directory, I/O error), so
  /// the file is exactly as it was; `operation` reads like "write" or "create a temp file next to".
  case notWritten(path: String, operation: String, SystemError)
  /// A token or refresh token with characters no token has (R30); a programming guard.
  case invalidToken(host: String, login: String, field: String)
  /// Any other value that cannot be stored (an empty login, a time that is not finite).
  case invalidCredential(host: String, reason: String)

  package var exitStatus: ExitStatus { .failure }
  package var errorKind: ErrorKind { .store }

  package var message: String { message(.words) }

  package func message(_ remedies: Remedies) -> String {
    switch self {
    case .symbolicLink(let path):
      "refusing to use \(path): it is a symbolic link; \(remedies.program ?? "the library") never reads or writes credentials through a link"
    case .notADirectory(let path):
      "refusing to use \(path): it is not a directory"
    case .directoryNotOwned(let path):
      "refusing to use \(path): it belongs to another user; the credentials directory and its parents must be yours "
        + "(or root's): put the credentials elsewhere with GHLOGIN_CREDENTIALS, or run sudo chown \(ProcessState.userID) \(path)"
    case .directoryWritableByOthers(let path, parent: false):
      "refusing to use \(path): it is writable by group or others; run chmod 700 \(path)"
    case .directoryWritableByOthers(let path, parent: true):
      "refusing to use \(path): it is writable by group or others, who could replace the credentials directory inside it; "
        + "run chmod go-w \(path)"
    case .notRegularFile(let path):
      "refusing to use \(path): it is not a regular file"
    case .notARegularFile(let path, let kind):
      "refusing to use \(path) for credentials: it is \(kind), not a regular file; remove it, or point "
        + "GHLOGIN_CREDENTIALS at a file path (the file is created if missing)"
    case .multipleLinks(let path, let count):
      "refusing to use \(path): it has \(count) hard links, so another name would keep the token after a logout; "
        + "find them with find / -xdev -samefile \(path), remove them, and run chmod 600 \(path) if needed"
    case .fileNotOwned(let path):
      "refusing to read \(path): it belongs to another user"
    case .permissionsTooOpen(let path, let mode):
      "refusing to read \(path): its permissions \(FileMode.octal(mode)) are too open (group or others can access it); "
        + "run chmod 600 \(path)"
    case .tooLarge(let path):
      "refusing to read \(path): it is larger than 1 MiB, so \(remedies.program ?? "the library") did not write it; it was left untouched"
    case .corrupt(let path, let detail):
      "\(path) is not a valid credentials file (\(detail)); it was left untouched. "
        + "Move it aside and log in again: \(CommandHint.line(["mv", path, path + ".broken"]))"
        + (remedies.command(.logIn(host: nil)).map { " && \($0)" } ?? "")
    case .newerVersion(let path, let version):
      "\(path) was written by a newer \(remedies.program ?? "version") (version \(version)); it was left untouched. "
        + "Upgrade \(remedies.program ?? "the library") to use it"
    case .lockTimeout(let path, let seconds):
      "timed out after \(Self.format(seconds)) seconds waiting for the lock on \(path); \(remedies.anotherProgram) is still using the credentials. "
        + "Try again when it has finished"
    case .configLockTimeout(let path, let seconds):
      "timed out after \(Self.format(seconds)) seconds waiting for the lock on \(path); \(remedies.anotherProgram) is still "
        + "changing the config, and nothing was written. Try again when it has finished"
    case .io(let path, let operation, let error):
      "cannot \(operation) \(path): \(error.reason)"
    case .notWritten(let path, let operation, let error):
      "cannot \(operation) \(path): \(error.reason); the file was left unchanged"
    case .invalidToken(let host, let login, let field):
      "refusing to store the \(field) of \(login) on \(host): it is not an RFC 6750 token (only letters, digits, '-._~+/' and trailing '=' are allowed)"
    case .invalidCredential(let host, let reason):
      "refusing to store credentials for \(host): \(reason)"
    }
  }

  private static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() && abs(seconds) < 1e9 ? String(Int(seconds)) : String(seconds)
  }
}
