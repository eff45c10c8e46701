#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// A trust file or directory opened without blocking (R90), for OpenSSL to read.
///
/// OpenSSL's own `fopen` blocks for ever on a FIFO (no `--timeout`, Ctrl-C or SIGTERM ends it:
/// the signal handlers only set a flag). So every file named by `SSL_CERT_FILE`, `ca_file` or a
/// default location is opened here first with `O_RDONLY|O_NONBLOCK|O_NOCTTY` and checked with
/// `fstat`: only a regular file (of at most ``maximumSize`` bytes) is used, and OpenSSL reads it
/// through `/proc/self/fd/N`, the inode checked, so the name cannot be swapped for a FIFO in
/// between. `SSL_CERT_DIR` entries must be directories (opened with `O_DIRECTORY|O_NONBLOCK`).
final class TrustFile {
  /// The largest CA bundle read (Debian's is about 220 KB).
  static let maximumSize = 16 << 20

  /// What is wrong with a trust path, or nil when it is missing or unreadable (left to OpenSSL).
  enum Problem: Error, Equatable {
    /// Not a regular file (or not a directory for `SSL_CERT_DIR`): its kind, for the message.
    case wrongKind(String)
    case tooLarge
  }

  private let fd: Int32
  /// The path to give OpenSSL: `/proc/self/fd/N` when `/proc` is there, else the checked path.
  let pathForOpenSSL: String

  /// Opens `path` as a CA file: nil when it cannot be opened (missing, no permission: OpenSSL
  /// then fails on it as before); throws ``Problem`` when it is there but unusable.
  package init?(file path: String) throws(Problem) {
    let opened = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    guard opened >= 0 else { return nil }
    var info = stat()
    guard fstat(opened, &info) == 0 else {
      _ = Glibc.close(opened)
      return nil
    }
    let kind = FileKind(mode: info.st_mode)
    guard kind == .regular else {
      _ = Glibc.close(opened)
      throw .wrongKind(kind.phrase)
    }
    guard info.st_size <= Self.maximumSize else {
      _ = Glibc.close(opened)
      throw .tooLarge
    }
    fd = opened
    let proc = "/proc/self/fd/\(opened)"
    pathForOpenSSL = access(proc, R_OK) == 0 ? proc : path
  }

  deinit { _ = Glibc.close(fd) }

  /// Checks that `path` (one `SSL_CERT_DIR` entry) is a directory; a missing or unreadable one
  /// is left to OpenSSL (which skips it). Throws ``Problem/wrongKind(_:)`` for anything else.
  static func checkDirectory(_ path: String) throws(Problem) {
    let opened = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    guard opened >= 0 else { return }
    defer { _ = Glibc.close(opened) }
    var info = stat()
    guard fstat(opened, &info) == 0 else { return }
    let kind = FileKind(mode: info.st_mode)
    guard kind == .directory else { throw .wrongKind(kind.phrase) }
  }
}
