import Foundation
import GHLoginTestSupport
import Testing

@testable import GHLoginCLI
@testable import GHLoginCore
@testable import GHLoginKit

#if canImport(Glibc)
  import Glibc
#endif

/// The stop descriptor is passed down explicitly: a cancellation pipe stops every wait in-process,
/// with no signal and no global state.
struct StopDescriptorTests {
  @Test func aSignalledPipeStopsPollTheListenerAndTheHTTPClient() throws {
    let stop = try CancellationPipe()
    let pipe = try FileDescriptor.pipe()
    let clock = SystemClock()
    let server = try LoopbackServer()
    let request = HTTPRequest(method: "GET", url: WebURL(scheme: .http, host: "127.0.0.1", port: server.port))
    // Not signalled: a wait times out as usual, and nothing is interrupted.
    #expect(
      try Poll.wait(for: Poll.readable, on: pipe.read.rawValue, deadline: 0, clock: clock, stopFD: stop.readFD) == false
    )

    stop.signal()
    let started = clock.monotonic()
    #expect(throws: Poll.interruption) {
      try Poll.wait(
        for: Poll.readable, on: pipe.read.rawValue, deadline: clock.monotonic() + 30, clock: clock, stopFD: stop.readFD)
    }
    #expect(
      server.serve(deadline: clock.monotonic() + 30, clock: clock, stopFD: stop.readFD) { _ in
        LoopbackReply(status: 404)
      }
        == .interrupted)
    let client = HTTPClient(variables: [:], userAgent: "ua").stopping(on: stop.readFD)
    #expect(throws: HTTPError.interrupted) { try client.send(request, timeout: 30) }
    // Without the descriptor the same client is not stopped (it reaches the listener, which never answers).
    let unstopped = Result { () throws(HTTPError) in
      try HTTPClient(variables: [:], userAgent: "ua").perform(request, timeout: 0.2)
    }
    #expect(unstopped.error != nil && unstopped.error != .interrupted)
    #expect(clock.monotonic() - started < 5)
  }

  /// Once something installed Ctrl-C handling, every request a command makes
  /// through its workspace watches that descriptor, whichever entry point made the workspace;
  /// a stop descriptor set with `stopping(on:)` (a login, a library call's cancellation) wins.
  @Test func everyTransportOfAWorkspaceWatchesTheInstalledInterruptDescriptor() throws {
    let home = try TemporaryDirectory()
    let installed = try CancellationPipe()
    let explicit = try CancellationPipe()
    func environment(installed fd: Int32?) -> Environment {
      Environment(
        arguments: [], variables: ["HOME": home.path], stdout: BufferOutput(), stderr: BufferOutput(),
        stdin: BufferInput([]), clock: ManualClock(), browser: RecordingBrowser(),
        transport: { _ in HTTPClient(variables: [:], userAgent: "test") }, interruptDescriptor: { fd },
        installedInterruptDescriptor: { fd })
    }
    let watched = try Workspace(collectingWarnings: environment(installed: installed.readFD), quiet: true)
    #expect((watched.transport(for: .gitHubDotCom) as? HTTPClient)?.stopFD == installed.readFD)
    let unwatched = try Workspace(collectingWarnings: environment(installed: nil), quiet: true)
    #expect((unwatched.transport(for: .gitHubDotCom) as? HTTPClient)?.stopFD == nil)
    let stopped = watched.stopping(on: explicit.readFD)
    #expect((stopped.transport(for: .gitHubDotCom) as? HTTPClient)?.stopFD == explicit.readFD)
  }
}

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
      try Poll.wait(
        for: Poll.readable, on: pipe.read.rawValue, deadline: clock.monotonic() + 30, clock: clock, stopFD: fd)
    }
    let server = try LoopbackServer()
    #expect(
      server.serve(deadline: clock.monotonic() + 30, clock: clock, stopFD: fd) { _ in LoopbackReply(status: 404) }
        == .interrupted)
    let result = Result { () throws(HTTPError) in
      try HTTPClient(variables: [:], userAgent: "ua", stopFD: fd).perform(
        HTTPRequest(method: "GET", url: WebURL(scheme: .http, host: "127.0.0.1", port: server.port)), timeout: 30)
    }
    #expect(result.error == .interrupted)
    #expect(result.error?.exitStatus == .interrupted)
    // A resolver that never answers is cut short by the same self-pipe.
    var hung = HTTPClient(variables: [:], userAgent: "ua", stopFD: fd)
    hung.lookup = ResolverDeadlineTests.neverAnswers
    hung.connectTimeout = 30
    let request = HTTPRequest(method: "GET", url: WebURL(scheme: .https, host: "github.test"))
    let resolving = Result { () throws(HTTPError) in try hung.perform(request, timeout: 30) }
    #expect(resolving.error == .interrupted)
    raise(SIGTERM)
    #expect(Interrupt.wasRequested, "SIGTERM is handled too (the process is still here)")
  }
}
