#if canImport(Glibc)
  import Glibc
#endif

/// What the C library holds about this process: its environment block and standard descriptors.
package enum ProcessState {
  /// The standard input descriptor (`STDIN_FILENO`).
  static var standardInput: Int32 { STDIN_FILENO }
  /// The standard output descriptor (`STDOUT_FILENO`).
  package static var standardOutput: Int32 { STDOUT_FILENO }
  /// The standard error descriptor (`STDERR_FILENO`).
  package static var standardError: Int32 { STDERR_FILENO }

  /// The real user ID, from `getuid(2)` (which always succeeds: no errno).
  package static var userID: UInt32 { getuid() }

  /// The effective user ID, from `geteuid(2)` (which always succeeds: no errno).
  static var effectiveUserID: UInt32 { geteuid() }

  /// The login name of user `uid` (`getpwuid_r(3)`), or nil when the user database has none.
  static func userName(_ uid: UInt32) -> String? {
    var entry = passwd()
    var found: UnsafeMutablePointer<passwd>?
    var buffer = [CChar](repeating: 0, count: 4096)
    let status = getpwuid_r(uid, &entry, &buffer, buffer.count, &found)
    guard status == 0, found != nil, let name = entry.pw_name else { return nil }
    return String(cString: name)
  }

  /// Sends this process `SIGKILL` (`kill(getpid(), SIGKILL)`): it dies at once, nothing
  /// flushed, unwound or cleaned up. Only the store's test faults call it, to crash at a chosen step.
  static func killImmediately() { _ = kill(getpid(), SIGKILL) }

  /// The value of `name` in `environ`, found in place: what ``environmentVariables()`` would hold
  /// for it (the last `name=` entry wins, as there), without copying the other entries. Nil for
  /// a name that is empty or holds `=` or NUL, which no entry can have. No call, so no errno.
  static func environmentVariable(_ name: String) -> String? {
    var name = name
    return name.withUTF8 { key -> String? in
      guard !key.isEmpty, !key.contains(UInt8(ascii: "=")), !key.contains(0) else { return nil }
      let bytes = UnsafeRawPointer(key.baseAddress!).assumingMemoryBound(to: CChar.self)
      var found: UnsafeMutablePointer<CChar>?
      var entry = environ
      while let pointer = entry.pointee {
        // The first byte rules out most entries without a call. strncmp stops at the first
        // difference: a shorter entry differs at its NUL (the key has none).
        if pointer[0] == bytes[0], strncmp(pointer, bytes, key.count) == 0,
          pointer[key.count] == CChar(UInt8(ascii: "="))
        {
          found = pointer + key.count + 1
        }
        entry += 1
      }
      return found.map { String(cString: $0) }
    }
  }

  /// The variables in `environ`, each `NAME=value` entry split at its first `=`; entries
  /// without one are skipped, and a later duplicate name wins. No call, so no errno.
  package static func environmentVariables() -> [String: String] {
    var count = 0
    while environ[count] != nil { count += 1 }
    var variables = [String: String](minimumCapacity: count)  // no rehashing while it fills
    var entry = environ
    while let pointer = entry.pointee {
      // Split at the first `=` on the bytes (strchr): String.firstIndex(of:) walks grapheme
      // clusters, for every variable on `token`'s path.
      if let equals = strchr(pointer, Int32(UInt8(ascii: "="))) {
        let nameLength = pointer.distance(to: equals)
        let name = UnsafeRawBufferPointer(start: pointer, count: nameLength)
        variables[String(decoding: name, as: UTF8.self)] = String(cString: equals + 1)
      }
      entry += 1
    }
    return variables
  }
}

/// Heap copies of C strings, for C APIs that take arrays of `char *`.
enum CStringCopy {
  /// A `strdup(3)` copy of `string`, to give back with ``free(_:)``; nil only when out of
  /// memory (`ENOMEM`), which callers pass on as a null entry.
  package static func duplicate(_ string: String) -> UnsafeMutablePointer<CChar>? { strdup(string) }

  /// Releases a copy from ``duplicate(_:)`` with `free(3)` (which cannot fail; nil is a no-op).
  package static func free(_ pointer: UnsafeMutablePointer<CChar>?) { Glibc.free(pointer) }
}
