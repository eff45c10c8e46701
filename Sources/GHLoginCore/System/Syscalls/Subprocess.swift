#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Runs a program to completion without a shell and collects what it printed (for `git config`).
///
/// The program is found on the `PATH` of the environment it is given (not of this process),
/// started with `posix_spawn(3)` with its arguments as separate strings, standard input on
/// `/dev/null`, and standard output and error on socket pairs we read until both close. Our
/// own descriptors are all close-on-exec, so the child inherits none of them.
package enum Subprocess {
  /// What the program did.
  package struct Result: Sendable, Equatable {
    /// The exit status, or 128 + the signal number when a signal ended it.
    package var status: Int32
    package var stdout: [UInt8]
    package var stderr: [UInt8]
  }

  /// The largest output kept from each stream; the rest is read and dropped.
  static let outputLimit = 1 << 20

  /// The first regular, executable file named `name` in the directories of `path` (a
  /// colon-separated list); empty entries (the current directory) are skipped on purpose.
  package static func find(_ name: String, path: String?) -> String? {
    for directory in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where directory.hasPrefix("/") {
      let candidate = directory + "/" + name
      var info = stat()
      guard stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 else {
        continue
      }
      return candidate
    }
    return nil
  }

  /// Runs `executable` (an absolute path) with `arguments` and exactly `environment`, waits
  /// for it (`waitpid`, `EINTR` retried) and returns its status and output.
  package static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]
  ) throws(SystemError) -> Result {
    let output = try FileDescriptor.pipe()
    let errors = try FileDescriptor.pipe()
    // The child's ends block, as programs expect of their standard streams.
    try Self.setBlocking(output.write)
    try Self.setBlocking(errors.write)
    let pid = try Spawn.start(executable, argv: [executable] + arguments, environment: environment) { actions in
      posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_adddup2(&actions, output.write.rawValue, STDOUT_FILENO)
      posix_spawn_file_actions_adddup2(&actions, errors.write.rawValue, STDERR_FILENO)
    }
    output.write.close()
    errors.write.close()

    var collected: ([UInt8], [UInt8]) = ([], [])
    do {
      collected = try drain(output.read, errors.read)
    } catch {
      _ = waitForExit(pid)
      throw error
    }
    return Result(status: waitForExit(pid), stdout: collected.0, stderr: collected.1)
  }

  /// Reads both descriptors until both reach end of file, with one `poll(2)` loop.
  private static func drain(_ first: FileDescriptor, _ second: FileDescriptor) throws(SystemError) -> ([UInt8], [UInt8])
  {
    var buffers: [[UInt8]] = [[], []]
    var open = [true, true]
    let descriptors = [first, second]
    let clock = SystemClock()
    while open.contains(true) {
      var set = PollSet()
      var indices: [Int] = []
      for index in 0..<2 where open[index] {
        set.add(descriptors[index].rawValue, events: Poll.readable)
        indices.append(index)
      }
      _ = try set.wait(deadline: .infinity, clock: clock)
      for (slot, index) in indices.enumerated() where set.isReady(slot) {
        var chunk: [UInt8] = []
        switch try descriptors[index].read(appendingTo: &chunk, count: 16_384) {
        case .bytes:
          if buffers[index].count < outputLimit { buffers[index] += chunk.prefix(outputLimit - buffers[index].count) }
        case .endOfFile:
          open[index] = false
        case .wouldBlock:
          break
        }
      }
    }
    return (buffers[0], buffers[1])
  }

  /// Clears `O_NONBLOCK` with `fcntl(F_GETFL/F_SETFL)`, retrying `EINTR`.
  private static func setBlocking(_ descriptor: FileDescriptor) throws(SystemError) {
    let fd = descriptor.rawValue
    let flags = try retryingEINTR("fcntl") { fcntl(fd, F_GETFL) }
    try retryingEINTR("fcntl") { fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
  }

  /// Waits for `pid` with `waitpid(2)`, retrying `EINTR`; returns its exit status.
  private static func waitForExit(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 {
      if errno != EINTR { return 127 }
    }
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }
}
