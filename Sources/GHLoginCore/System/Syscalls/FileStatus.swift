#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// What a file is, from the type bits of `st_mode` (`S_IFMT`).
package enum FileKind: Equatable, Sendable {
  case regular
  case directory
  case symbolicLink
  case fifo
  case characterDevice
  case blockDevice
  case socket
  /// A type this list does not name.
  case other

  /// The kind in the type bits of `mode` (a `stat` `st_mode`).
  package init(mode: UInt32) {
    switch mode & S_IFMT {
    case S_IFREG: self = .regular
    case S_IFDIR: self = .directory
    case S_IFLNK: self = .symbolicLink
    case S_IFIFO: self = .fifo
    case S_IFCHR: self = .characterDevice
    case S_IFBLK: self = .blockDevice
    case S_IFSOCK: self = .socket
    default: self = .other
    }
  }

  /// "a FIFO (named pipe)", "a directory", … for messages; a symbolic link (never described:
  /// callers refuse it first) and unknown types read "not a regular file".
  var phrase: String {
    switch self {
    case .regular: "a regular file"
    case .directory: "a directory"
    case .fifo: "a FIFO (named pipe)"
    case .characterDevice: "a character device"
    case .blockDevice: "a block device"
    case .socket: "a socket"
    case .symbolicLink, .other: "not a regular file"
    }
  }
}

/// The fields of a `stat` result that the kit judges files by (type, permissions, owner, links,
/// size), so callers need no C struct. A plain copy: no call, no allocation.
package struct FileStatus: Equatable, Sendable {
  /// The file's type.
  package var kind: FileKind
  /// The permission bits, set-ID and sticky bits included (`st_mode & 07777`).
  package var permissions: UInt32
  /// The owner's user ID (`st_uid`).
  package var owner: UInt32
  /// The number of hard links (`st_nlink`).
  var linkCount: Int
  /// The size in bytes (`st_size`).
  package var size: Int

  package init(kind: FileKind, permissions: UInt32, owner: UInt32, linkCount: Int, size: Int) {
    self.kind = kind
    self.permissions = permissions
    self.owner = owner
    self.linkCount = linkCount
    self.size = size
  }

  /// The fields of `info`, as `stat`, `lstat` or `fstat` filled it.
  package init(_ info: stat) {
    self.init(
      kind: FileKind(mode: info.st_mode), permissions: info.st_mode & 0o7777, owner: info.st_uid,
      linkCount: Int(info.st_nlink), size: Int(info.st_size))
  }

  /// Whether the sticky bit (`S_ISVTX`) is set: in a directory, only an entry's owner (or the
  /// directory's) may rename or remove it.
  var isSticky: Bool { permissions & S_ISVTX != 0 }
}
