import Foundation
import Testing

@testable import GHLoginKit

#if canImport(Glibc)
  import Glibc
#endif

/// The signal handler changes process-wide state (every later wait sees the interruption), so it is
/// exercised in a child copy of this test binary, running only ``InterruptChildProcessTests``.
struct InterruptTests {
  @Test func handlerRunsInAChildProcess() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
    process.arguments = ["--testing-library", "swift-testing", "--filter", "InterruptChildProcessTests"]
    process.environment = ProcessInfo.processInfo.environment.merging(["GHLOGIN_INTERRUPT_CHILD": "1"]) { $1 }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(text)")
    #expect(text.contains("signalWritesToTheSelfPipe() passed"), "the child ran the test: \(text)")
    #expect(!text.contains("recorded an issue"), "\(text)")
  }
}

@Suite(.enabled(if: ProcessInfo.processInfo.environment["GHLOGIN_INTERRUPT_CHILD"] == "1"))
struct InterruptChildProcessTests {
  @Test func signalWritesToTheSelfPipe() throws {
    // Spawned from a worker thread, this process may start with signals blocked; unblock them here.
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    sigaddset(&set, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)

    let fd = Interrupt.install()
    #expect(fd >= 0)
    #expect(Interrupt.install() == fd, "installing twice gives the same descriptor")
    #expect(FileDescriptor.isCloseOnExec(fd))
    #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0)
    #expect(!Interrupt.wasRequested)
    var pollSet = [pollfd(fd: fd, events: Poll.readable, revents: 0)]
    #expect(try Poll.wait(&pollSet, deadline: 0, clock: SystemClock()) == 0, "not readable before a signal")

    let pipe = try FileDescriptor.pipe()
    let clock = SystemClock()
    raise(SIGINT)
    #expect(Interrupt.wasRequested)
    #expect(try Poll.wait(&pollSet, deadline: 0, clock: clock) == 1, "readable after SIGINT")
    #expect(throws: Poll.interruption) {
      try Poll.wait(for: Poll.readable, on: pipe.read.rawValue, deadline: clock.monotonic() + 30, clock: clock)
    }
    let server = try LoopbackServer()
    #expect(server.serve(deadline: clock.monotonic() + 30, clock: clock, stopFD: fd) { _ in LoopbackReply(status: 404) } == .interrupted)
    let result = Result { () throws(HTTPError) in
      try HTTPClient(variables: [:], userAgent: "ua").perform(
        HTTPRequest(method: "GET", url: WebURL(scheme: .http, host: "127.0.0.1", port: server.port)), timeout: 30)
    }
    #expect(result.error == .interrupted)
    #expect(result.error?.exitStatus == .interrupted)
    // A resolver that never answers is cut short by the same self-pipe (issue 11 item 6).
    var hung = HTTPClient(variables: [:], userAgent: "ua")
    hung.lookup = ResolverDeadlineTests.neverAnswers
    hung.connectTimeout = 30
    let request = HTTPRequest(method: "GET", url: WebURL(scheme: .https, host: "github.test"))
    let resolving = Result { () throws(HTTPError) in try hung.perform(request, timeout: 30) }
    #expect(resolving.error == .interrupted)
    raise(SIGTERM)
    #expect(Interrupt.wasRequested, "SIGTERM is handled too (the process is still here)")
  }
}
