/// An exclusive `flock(2)` on a lock file, held until ``release()`` (R66).
///
/// `flock` locks belong to the open file description, so two `FileLock`s in one process (two
/// `open` calls) exclude each other just as two processes do, and the kernel drops the lock
/// when the process dies: a stale lock file never blocks anyone.
struct FileLock {
  /// How long ``acquire(_:timeout:clock:)`` sleeps between tries.
  static let pollInterval = 0.01

  private let fd: FileDescriptor

  /// Opens (creating it 0600 if needed) `path` with `O_RDWR|O_CREAT|O_NOFOLLOW|O_CLOEXEC`,
  /// checks it is a regular file of ours, and polls `flock(LOCK_EX|LOCK_NB)` every
  /// ``pollInterval`` seconds on `clock` until it succeeds or `timeout` seconds have passed.
  /// `EINTR` is retried; `EWOULDBLOCK` means "held by someone else"; other errors are thrown.
  /// On any failure the lock file's descriptor is closed before the error is thrown.
  package static func acquire(_ path: String, timeout: Double, clock: any TimeSource) throws(StoreError) -> FileLock {
    let fd: FileDescriptor
    do {
      fd = try FileDescriptor.open(
        path, .readWrite, [.create, .noFollow, .nonBlocking], mode: FileMode.ownerReadWrite)
    } catch  where error.isSymbolicLinkRefused {
      throw .symbolicLink(path: path)
    } catch {
      throw .io(path: path, operation: "open the lock file", error)
    }
    func failing(_ error: StoreError) -> StoreError {
      fd.close()
      return error
    }
    let info: FileStatus
    do { info = try fd.status() } catch {
      throw failing(.io(path: path, operation: "check the lock file", error))
    }
    guard info.kind == .regular else { throw failing(.notRegularFile(path: path)) }
    guard info.owner == ProcessState.effectiveUserID else { throw failing(.fileNotOwned(path: path)) }
    if info.permissions != FileMode.ownerReadWrite {
      do { try fd.changeMode(FileMode.ownerReadWrite) } catch {
        throw failing(.io(path: path, operation: "set the mode of", error))
      }
    }

    let start = clock.monotonic()
    while true {
      let locked: Bool
      do { locked = try fd.tryLockExclusive() } catch { throw failing(.io(path: path, operation: "lock", error)) }
      if locked { return FileLock(fd: fd) }
      if clock.monotonic() - start >= timeout { throw failing(.lockTimeout(path: path, seconds: timeout)) }
      clock.sleep(seconds: pollInterval)
    }
  }

  /// Closes the descriptor, which releases the lock.
  package func release() { fd.close() }
}
