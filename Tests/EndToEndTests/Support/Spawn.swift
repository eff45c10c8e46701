import Foundation
import GHLoginTestSupport

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Starts children with `posix_spawn(3)` directly, so that a child gets exactly what a user's
/// shell would give it: stdin/stdout/stderr on pipes and **no other descriptor** (every fd from
/// 3 up is closed in the child; our pipes are `O_CLOEXEC` as well), **every signal at its
/// default disposition and none blocked** (the test runner's threads block or ignore some, e.g.
/// SIGPIPE), and its own process group (so a leftover grandchild such as a browser stub can be
/// killed with the group). Foundation's `Process` cannot promise these on Linux: it passes a
/// socket of its own to every child, which would break fd-inheritance tests (R6).
enum Spawn {
  /// A started child: its pid (also its process-group id) and the parent's pipe ends.
  struct Child {
    let pid: pid_t
    let stdinWrite: Int32
    let stdoutRead: Int32
    let stderrRead: Int32
  }

  /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), looked up at run time because
  /// the header declares it only for `_GNU_SOURCE`; nil on an older glibc (CLOEXEC still holds).
  private typealias AddCloseFrom =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
  private static let addCloseFrom: AddCloseFrom? = {
    guard
      let symbol = dlsym(
        UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
    else { return nil }
    return unsafeBitCast(symbol, to: AddCloseFrom.self)
  }()

  /// glibc's `pipe2`, looked up at run time for the same reason (declared only for `_GNU_SOURCE`).
  private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
  private static let pipe2: Pipe2? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2") else { return nil }
    return unsafeBitCast(symbol, to: Pipe2.self)
  }()

  /// Serializes pipe creation with spawning, for the fallback where `pipe2` is missing and
  /// `FD_CLOEXEC` is set after `pipe` (no child of ours may be spawned in between).
  private static let spawnLock = NSLock()

  /// A close-on-exec pipe: `pipe2(O_CLOEXEC)`, else `pipe` + `fcntl(F_SETFD)` under `spawnLock`.
  private static func makePipe() throws -> [Int32] {
    var fds: [Int32] = [-1, -1]
    if let pipe2 {
      guard pipe2(&fds, O_CLOEXEC) == 0 else { throw HarnessError("pipe2 failed, errno \(errno)") }
      return fds
    }
    spawnLock.lock()
    defer { spawnLock.unlock() }
    guard pipe(&fds) == 0 else { throw HarnessError("pipe failed, errno \(errno)") }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return fds
  }

  /// The harness writes to children's stdin; a child that already exited must give EPIPE,
  /// not kill the test process with SIGPIPE. (Children get SIGPIPE back at its default.)
  private static let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

  /// Spawns `executable` (an absolute path) with `arguments` and `environment` (nil: this
  /// process's environment). The C calls are `pipe2(O_CLOEXEC)` and `posix_spawn`; a failure
  /// becomes a ``HarnessError`` naming the errno.
  static func start(executable: String, arguments: [String], environment: [String: String]?) throws
    -> Child
  {
    _ = ignoreSIGPIPE
    let input = try makePipe()
    let output = try makePipe()
    let errors = try makePipe()
    defer {
      close(input[0])
      close(output[1])
      close(errors[1])
    }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input[0], STDIN_FILENO)
    posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO)
    posix_spawn_file_actions_adddup2(&actions, errors[1], STDERR_FILENO)
    if let addCloseFrom { _ = addCloseFrom(&actions, 3) }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noneBlocked = sigset_t()
    sigemptyset(&noneBlocked)
    var allDefault = sigset_t()
    sigfillset(&allDefault)
    posix_spawnattr_setsigmask(&attributes, &noneBlocked)
    posix_spawnattr_setsigdefault(&attributes, &allDefault)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

    let env = pinned(environment ?? ProcessInfo.processInfo.environment)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    var pid: pid_t = 0
    spawnLock.lock()
    let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    spawnLock.unlock()
    guard result == 0 else {
      close(input[1])
      close(output[0])
      close(errors[0])
      throw HarnessError("posix_spawn \(executable) failed, errno \(result)")
    }
    return Child(pid: pid, stdinWrite: input[1], stdoutRead: output[0], stderrRead: errors[0])
  }

  /// An empty directory for `XDG_CONFIG_DIRS`, made once per test run.
  private static let emptyConfigDirs: String =
    (try? makeTemporaryDirectory(prefix: "ghlogin-xdg-dirs")) ?? "/nonexistent/ghlogin-xdg-dirs"

  /// `environment` as every child gets it: `XDG_CONFIG_DIRS` pinned to an empty directory
  /// unless the test sets it (so the machine's `/etc/xdg/ghlogin/config.json` is never a
  /// layer of a test's config), no `GHLOGIN_DEFAULT_*` (a packager's build-time app), and the
  /// sanitizers' options of this test process (``sanitizerOptions``) unless the test sets them.
  static func pinned(_ environment: [String: String]) -> [String: String] {
    var env = environment.filter { !$0.key.hasPrefix("GHLOGIN_DEFAULT_") }
    if env["XDG_CONFIG_DIRS"] == nil { env["XDG_CONFIG_DIRS"] = emptyConfigDirs }
    env.merge(sanitizerOptions) { own, _ in own }
    return env
  }

  /// `ASAN_OPTIONS`, `LSAN_OPTIONS` and `TSAN_OPTIONS` as `scripts/sanitizers.sh` set them for
  /// the test process: a sanitized ghlogin started with a test's own environment still reads
  /// the suppression files (without them, LeakSanitizer's report of libsecret's suppressed leak
  /// ended up in the locked-keyring tests' stderr). Empty outside a sanitizer run.
  static let sanitizerOptions: [String: String] = ProcessInfo.processInfo.environment.filter {
    ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS"].contains($0.key)
  }

  /// Waits for `pid` (`waitpid`, retried on EINTR) and returns the exit code, or minus the
  /// signal number when a signal ended it (as Python's `returncode`): read from the raw wait
  /// status, so `exit(130)` (0 + 130) and death by SIGINT (-2) stay apart, although a shell
  /// shows 130 for both.
  static func waitForExit(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      if errno != EINTR { return -1 }
    }
    let signalNumber = status & 0x7F
    return signalNumber == 0 ? (status >> 8) & 0xFF : -signalNumber
  }
}
