import Foundation
import GHLoginTestSupport

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Which output stream of a child to look at.
enum ChildStream: Sendable { case stdout, stderr }

/// The output and exit status of a child, filled in by reader threads and a waiter thread.
/// `@unchecked Sendable`: every mutable field is guarded by `condition`.
private final class ChildOutput: @unchecked Sendable {
  let condition = NSCondition()
  var data: [ChildStream: [UInt8]] = [.stdout: [], .stderr: []]
  var ended: Set<ChildStream> = []
  var exitStatus: Int32?
  /// When the waiter thread reaped the child: the time of its death as a dedicated thread saw
  /// it, whatever the test's own tasks were waiting for.
  var exitTime: Date?
  /// The read end of each stream's pipe until its end is read.
  private var descriptors: [ChildStream: Int32] = [:]

  /// Reads `fd` on its own thread until EOF, then closes it. Bytes are only ever read under
  /// `condition`'s lock (``readPending(_:)``), once `poll` says the pipe has some or has ended,
  /// so ``text(_:)`` can take the rest itself: what the child wrote before a test looks is
  /// always there, however late this thread runs (a server that logs a request before answering
  /// it: the client's exit never outruns the log).
  func startReader(_ fd: Int32, _ stream: ChildStream) {
    condition.lock()
    descriptors[stream] = fd
    condition.unlock()
    Thread { [self] in
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      while true {
        poller.revents = 0
        let ready = poll(&poller, 1, -1)
        if ready < 0 && errno == EINTR { continue }
        condition.lock()
        // Bytes first; the end only once none are left (POLLHUP comes with the last bytes too).
        let read = readPending(stream)
        let atEnd = ready < 0 || (!read && poller.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0)
        if atEnd {
          ended.insert(stream)
          descriptors[stream] = nil
        }
        condition.broadcast()
        condition.unlock()
        if atEnd {
          close(fd)
          return
        }
      }
    }.start()
  }

  /// Appends whatever `stream`'s pipe holds now (`FIONREAD`), without blocking; whether it read
  /// anything. Called with `condition` locked.
  @discardableResult
  func readPending(_ stream: ChildStream) -> Bool {
    guard let fd = descriptors[stream] else { return false }
    var didRead = false
    var available: Int32 = 0
    while ioctl(fd, UInt(FIONREAD), &available) == 0, available > 0 {
      var buffer = [UInt8](repeating: 0, count: Int(available))
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      data[stream, default: []] += buffer[0..<count]
      didRead = true
    }
    return didRead
  }

  /// Reaps `pid` on its own thread and records its status.
  func startWaiter(_ pid: pid_t) {
    Thread { [self] in
      let status = Spawn.waitForExit(pid)
      let time = Date()
      condition.lock()
      exitStatus = status
      exitTime = time
      condition.broadcast()
      condition.unlock()
    }.start()
  }

  /// Everything `stream` has carried so far, what is still in its pipe included. Called with
  /// `condition` locked.
  func text(_ stream: ChildStream) -> String {
    readPending(stream)
    return String(decoding: data[stream] ?? [], as: UTF8.self)
  }
}

/// A running child (see ``Spawn`` for what it inherits), whose stdout and stderr are collected
/// as they arrive, so a test can wait for a particular stderr line (the authorize URL) while
/// the process keeps running, and a chatty child never blocks on a full pipe.
/// Dropping the last reference kills the child's process group if it is still running.
final class ChildProcess: @unchecked Sendable {
  /// The command line, for messages.
  let commandLine: String
  /// The child's pid; also its process-group id.
  let pid: pid_t
  private let output = ChildOutput()
  private let stdinLock = NSLock()
  private var stdinFD: Int32

  /// Starts `executable` (absolute path) with `arguments`; `environment` replaces this
  /// process's environment (nil: inherit it). `stdin`, when given, is written and then closed;
  /// otherwise stdin stays open until ``closeStdin()`` (the fake GitHub exits on its EOF).
  init(
    executable: String, arguments: [String], environment: [String: String]? = nil,
    stdin: String? = nil
  ) throws {
    commandLine = ([executable] + arguments).joined(separator: " ")
    let child = try Spawn.start(
      executable: executable, arguments: arguments, environment: environment)
    pid = child.pid
    stdinFD = child.stdinWrite
    output.startReader(child.stdoutRead, .stdout)
    output.startReader(child.stderrRead, .stderr)
    output.startWaiter(child.pid)
    if let stdin {
      writeStdin(stdin)
      closeStdin()
    }
  }

  deinit {
    closeStdin()
    if !hasExited { kill(-pid, SIGKILL) }
  }

  /// When the child was reaped; nil while it runs. A test timing how fast the child reacts
  /// uses this, not the time its own task resumes (the test's tasks share two threads with the
  /// rest of the suite).
  var exitedAt: Date? {
    output.condition.lock()
    defer { output.condition.unlock() }
    return output.exitTime
  }

  /// Whether the child has exited (and been reaped).
  var hasExited: Bool {
    output.condition.lock()
    defer { output.condition.unlock() }
    return output.exitStatus != nil
  }

  /// Everything the child has written to `stream` so far (what its pipe still holds is read
  /// first), decoded as UTF-8.
  func text(_ stream: ChildStream) -> String {
    output.condition.lock()
    defer { output.condition.unlock() }
    return output.text(stream)
  }

  /// Writes to the child's stdin (`write(2)`; ignored once stdin is closed or the child is gone).
  func writeStdin(_ text: String) {
    stdinLock.lock()
    defer { stdinLock.unlock() }
    guard stdinFD >= 0 else { return }
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { write(stdinFD, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      bytes = bytes.dropFirst(written)
    }
  }

  /// Waits until the child has read everything written to its stdin (the pipe holds no byte:
  /// `FIONREAD`) and is blocked reading more (`read(0, ...)` in `/proc/PID/syscall`; where that
  /// file cannot be read, sleeping in `/proc/PID/stat`): a readiness signal from the child, where
  /// a sleep would only hope it got there. False when it has not within `timeout` seconds (it
  /// exited, or is busy elsewhere).
  func waitUntilBlockedReadingStdin(timeout: Double) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    repeat {
      if hasExited { return false }
      if unreadStdin == 0, isBlockedReadingStdin { return true }
      usleep(2_000)
    } while Date() < deadline
    return false
  }

  /// Bytes written to stdin the child has not read yet (0 once stdin is closed).
  private var unreadStdin: Int32 {
    stdinLock.lock()
    defer { stdinLock.unlock() }
    var count: Int32 = 0
    guard stdinFD >= 0, ioctl(stdinFD, UInt(FIONREAD), &count) == 0 else { return 0 }
    return count
  }

  /// Whether the child's main thread is in `read(2)` on descriptor 0 (or, without access to
  /// `/proc/PID/syscall`, asleep).
  private var isBlockedReadingStdin: Bool {
    if let syscall = readProcFile("/proc/\(pid)/syscall"), !syscall.isEmpty {
      return syscall.hasPrefix("0 0x0 ")  // SYS_read, fd 0
    }
    guard let stat = readProcFile("/proc/\(pid)/stat"), let end = stat.lastIndex(of: ")")
    else { return false }
    return stat[stat.index(after: end)...].split(separator: " ").first == "S"
  }

  /// Closes the child's stdin (EOF for the child). Idempotent.
  func closeStdin() {
    stdinLock.lock()
    defer { stdinLock.unlock() }
    if stdinFD >= 0 {
      close(stdinFD)
      stdinFD = -1
    }
  }

  /// Sends `signal` to the child (`kill(2)`), or to its whole process group with `group: true`.
  func send(signal: Int32, group: Bool = false) {
    if !hasExited { kill(group ? -pid : pid, signal) }
  }

  /// Waits until a complete line of `stream` satisfies `predicate`, and returns it.
  /// Throws when `timeout` seconds pass, or the stream ends first.
  func waitForLine(
    _ stream: ChildStream = .stderr, timeout: Double, where predicate: (String) -> Bool
  ) throws -> String {
    let deadline = Date(timeIntervalSinceNow: timeout)
    output.condition.lock()
    defer { output.condition.unlock() }
    while true {
      let text = output.text(stream)
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      if let line = lines.first(where: { predicate(String($0)) }) { return String(line) }
      if output.ended.contains(stream) {
        throw HarnessError(
          "\(commandLine): \(stream) ended without the expected line; it said:\n\(text)")
      }
      if !output.condition.wait(until: deadline) {
        throw HarnessError(
          "\(commandLine): no expected \(stream) line within \(timeout) s; so far:\n\(text)")
      }
    }
  }

  /// Waits for the child to exit and its output to end; returns its status (exit code, or
  /// -N when signal N ended it: ``Spawn/waitForExit(_:)``) and output. On timeout the process group is killed (SIGKILL) and a
  /// ``HarnessError`` carrying the output is thrown.
  func finish(timeout: Double) throws -> (status: Int32, stdout: String, stderr: String) {
    let deadline = Date(timeIntervalSinceNow: timeout)
    output.condition.lock()
    while output.exitStatus == nil && output.condition.wait(until: deadline) {}
    let status = output.exitStatus
    // A grandchild (a browser stub) could still hold the pipes: bound the wait for EOF.
    let outputDeadline = Date(timeIntervalSinceNow: 2)
    while status != nil && output.ended.count < 2 && output.condition.wait(until: outputDeadline) {}
    let stdout = output.text(.stdout)
    let stderr = output.text(.stderr)
    output.condition.unlock()
    guard let status else {
      kill(-pid, SIGKILL)
      throw HarnessError(
        "\(commandLine) did not exit within \(timeout) s\nstdout:\n\(stdout)\nstderr:\n\(stderr)")
    }
    return (status, stdout, stderr)
  }
}
