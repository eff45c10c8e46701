#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// `posix_spawn(3)` as every child of ghlogin is started (never `fork`, which is unsafe once
/// threads exist): its arguments as separate strings, exactly the environment given, no signal
/// blocked and every signal at its default action, whatever this process (or the calling
/// thread) has blocked or ignored.
package enum Spawn {
  /// glibc's `POSIX_SPAWN_SETSID` (2.26+), which the Swift module does not import.
  private static let setSID: Int32 = 0x80

  /// Starts `executable` (an absolute path) with `argv` (its first element the program's name)
  /// and `environment`; `files` arranges the child's descriptors (nil: it inherits them), and
  /// `newSession` makes it a session leader (`setsid`). Returns its pid.
  package static func start(
    _ executable: String, argv: [String], environment: [String: String], newSession: Bool = false,
    files: ((inout posix_spawn_file_actions_t) -> Void)? = nil
  ) throws(SystemError) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    files?(&actions)
    let arguments = argv.map { strdup($0) } + [nil]
    let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in arguments + variables { free(pointer) }
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    var all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    let flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | (newSession ? setSID : 0)
    posix_spawnattr_setflags(&attributes, Int16(flags))
    var pid = pid_t()
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, arguments, variables)
    guard spawned == 0 else { throw SystemError(call: "posix_spawn", errno: spawned) }
    return pid
  }
}
