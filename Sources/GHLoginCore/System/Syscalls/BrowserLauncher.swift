#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Starts the user's browser on a URL: `$BROWSER`, else `xdg-open`, spawned directly
/// (`posix_spawnp`, no shell), the URL its own argument, standard streams on /dev/null, and no
/// descriptor of ours inherited (they are all close-on-exec). Which URLs may be opened is
/// decided above, by ``SystemBrowser`` (R14); this is only the process.
package enum BrowserLauncher {
  /// Why the browser was not opened; the caller prints the URL either way.
  struct LaunchError: ReportableError {
    package var message: String
    package var exitStatus: ExitStatus { .failure }
    package var errorKind: ErrorKind { .system }
  }

  /// Launches the browser on `url`.
  package static func launch(_ url: String, environment: EnvironmentVariables) throws {
    var command = ["xdg-open"]
    if let browser = environment["BROWSER"]?.split(separator: ":").first {
      command = browser.split(separator: " ").map(String.init)
    }
    guard !command.isEmpty else { throw LaunchError(message: "BROWSER is empty") }
    try spawn(command + [url], environment: environment)
  }

  /// Whether a graphical browser can be expected: a display on Linux, or `BROWSER` set.
  package static func canOpen(environment: EnvironmentVariables) -> Bool {
    if let browser = environment["BROWSER"], !browser.isEmpty { return true }
    let display = environment["DISPLAY"] ?? environment["WAYLAND_DISPLAY"] ?? ""
    return !display.isEmpty
  }

  private static func spawn(_ argv: [String], environment: EnvironmentVariables) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
      posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
    }
    let arguments = argv.map { strdup($0) } + [nil]
    let variables = environment.all.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      arguments.forEach { free($0) }
      variables.forEach { free($0) }
    }
    // The child starts with no signal blocked and default handling of SIGINT and SIGTERM,
    // whatever thread spawns it and whatever handlers ghlogin installed.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGINT)
    sigaddset(&defaults, SIGTERM)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid = pid_t()
    let result = posix_spawnp(&pid, argv[0], &actions, &attributes, arguments, variables)
    guard result == 0 else {
      throw LaunchError(message: "could not start \(argv[0]): \(String(cString: strerror(result)))")
    }
    try Self.checkLaunch(pid, name: argv[0])
  }

  /// How long to watch the launcher for a quick failure before saying the browser was opened.
  static let launchGrace = 1.0

  /// The launcher (`xdg-open`) usually exits at once: waits up to ``launchGrace`` seconds
  /// (`waitpid(WNOHANG)` every 10 ms) and throws when it exited with a non-zero status or was
  /// killed, so "Opened your browser" is said only when the opener did not fail. A launcher
  /// still running then (a browser that stays in the foreground) counts as opened.
  private static func checkLaunch(_ pid: pid_t, name: String) throws {
    var waited = 0.0
    while waited < launchGrace {
      var status: Int32 = 0
      let result = waitpid(pid, &status, WNOHANG)
      if result == pid {
        let signal = status & 0x7F
        let code = (status >> 8) & 0xFF
        if signal != 0 { throw LaunchError(message: "\(name) was killed by signal \(signal)") }
        if code != 0 { throw LaunchError(message: "\(name) exited with status \(code)") }
        return
      }
      if result < 0 && errno != EINTR { return }
      var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
      nanosleep(&pause, nil)
      waited += 0.01
    }
  }
}
