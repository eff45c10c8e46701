#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// An exclusive `flock(2)` on a lock file, held until ``release()`` (R66).
///
/// `flock` locks belong to the open file description, so two `FileLock`s in one process (two
/// `open` calls) exclude each other just as two processes do, and the kernel drops the lock
/// when the process dies: a stale lock file never blocks anyone.
struct FileLock {
  /// How long ``acquire(_:timeout:clock:)`` sleeps between tries.
  static let pollInterval = 0.01

  private let fd: Int32

  /// Opens (creating it 0600 if needed) `path` with `O_RDWR|O_CREAT|O_NOFOLLOW|O_CLOEXEC`,
  /// checks it is a regular file of ours, and polls `flock(LOCK_EX|LOCK_NB)` every
  /// ``pollInterval`` seconds on `clock` until it succeeds or `timeout` seconds have passed.
  /// `EINTR` is retried; `EWOULDBLOCK` means "held by someone else"; other errors are thrown.
  static func acquire(_ path: String, timeout: Double, clock: any TimeSource) throws(StoreError) -> FileLock {
    let fd: Int32
    do {
      fd = try SecureFile.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK, mode: FileMode.ownerReadWrite)
    } catch  where error.errno == ELOOP {
      throw .symbolicLink(path: path)
    } catch {
      throw .io(path: path, operation: "open the lock file", error)
    }
    func failing(_ error: StoreError) -> StoreError {
      SecureFile.close(fd)
      return error
    }
    let info: stat
    do { info = try SecureFile.status(of: fd) } catch {
      throw failing(.io(path: path, operation: "check the lock file", error))
    }
    guard FileMode.isRegular(info.st_mode) else { throw failing(.notRegularFile(path: path)) }
    guard info.st_uid == geteuid() else { throw failing(.fileNotOwned(path: path)) }
    if info.st_mode & FileMode.permissions != FileMode.ownerReadWrite {
      do { try SecureFile.changeMode(fd, FileMode.ownerReadWrite) } catch {
        throw failing(.io(path: path, operation: "set the mode of", error))
      }
    }

    let start = clock.monotonic()
    while true {
      if flock(fd, LOCK_EX | LOCK_NB) == 0 { return FileLock(fd: fd) }
      let code = errno
      switch code {
      case EINTR:
        continue
      case EWOULDBLOCK:
        if clock.monotonic() - start >= timeout { throw failing(.lockTimeout(path: path, seconds: timeout)) }
        clock.sleep(seconds: pollInterval)
      default:
        throw failing(.io(path: path, operation: "lock", SystemError(call: "flock", errno: code)))
      }
    }
  }

  /// Closes the descriptor, which releases the lock.
  func release() { SecureFile.close(fd) }
}
