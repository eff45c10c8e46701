import Testing

import GHLoginTestSupport
@testable import GHLoginCore

#if canImport(Glibc)
  import Glibc
#endif

struct FileDescriptorTests {
  @Test func pipeEndsAreCloseOnExecAndNonBlocking() throws {
    let pipe = try FileDescriptor.pipe()
    for end in [pipe.read, pipe.write] {
      #expect(end.isCloseOnExec)
      #expect(fcntl(end.rawValue, F_GETFL) & O_NONBLOCK != 0)
    }
    var buffer: [UInt8] = []
    #expect(try pipe.read.read(appendingTo: &buffer, count: 16) == .wouldBlock)
    #expect(try pipe.write.write([1, 2, 3][...]) == .bytes(3))
    #expect(try pipe.read.read(appendingTo: &buffer, count: 16) == .bytes(3))
    #expect(buffer == [1, 2, 3])
    pipe.write.close()
    // A process another test spawns at this moment holds a copy of the write end until its
    // exec closes it (close-on-exec): wait for the end of file instead of expecting it at once.
    var waiter = pollfd(fd: pipe.read.rawValue, events: Int16(POLLIN), revents: 0)
    #expect(poll(&waiter, 1, 5_000) == 1)
    #expect(try pipe.read.read(appendingTo: &buffer, count: 16) == .endOfFile)
  }

  @Test func closeIsIdempotentAndReleaseKeepsTheDescriptor() throws {
    let pipe = try FileDescriptor.pipe()
    let raw = pipe.read.rawValue
    pipe.read.release()
    #expect(!pipe.read.isOpen)
    #expect(fcntl(raw, F_GETFD) >= 0, "a released descriptor stays open")
    Glibc.close(raw)
    pipe.write.close()
    pipe.write.close()
    #expect(pipe.write.rawValue == -1)
    #expect(!FileDescriptor.isCloseOnExec(-1))
  }

  @Test func readErrorsNameTheCall() {
    var buffer: [UInt8] = []
    #expect(throws: SystemError(call: "read", errno: EBADF)) {
      try FileDescriptor.read(-1, appendingTo: &buffer, count: 1)
    }
  }
}

struct SocketTests {
  @Test func socketsAreCloseOnExecAndNonBlocking() throws {
    let socket = try Socket.tcp(family: AF_INET)
    #expect(socket.descriptor.isCloseOnExec)
    #expect(fcntl(socket.fd, F_GETFL) & O_NONBLOCK != 0)
  }

  @Test func acceptedSocketsAreCloseOnExec() throws {
    let listener = try Socket.listenOnLoopback(port: 0, backlog: 4)
    #expect(try listener.accept() == nil, "nothing pending")
    let port = try listener.localAddress().port
    let clock = SystemClock()
    let client = try Socket.connect(to: .ipv4Loopback(port: port), deadline: clock.monotonic() + 5, clock: clock)
    #expect(try Poll.wait(for: Poll.readable, on: listener.fd, deadline: clock.monotonic() + 5, clock: clock))
    let accepted = try #require(try listener.accept())
    #expect(accepted.descriptor.isCloseOnExec)
    #expect(fcntl(accepted.fd, F_GETFL) & O_NONBLOCK != 0)
    #expect(try client.send(Array("hi".utf8)[...]) == .bytes(2))
    var buffer: [UInt8] = []
    #expect(try Poll.wait(for: Poll.readable, on: accepted.fd, deadline: clock.monotonic() + 5, clock: clock))
    #expect(try accepted.receive(appendingTo: &buffer, count: 10) == .bytes(2))
  }

  @Test func listenerBindsLoopbackWithoutReuse() throws {
    let listener = try Socket.listenOnLoopback(port: 0, backlog: 4)
    var value: Int32 = -1
    var length = socklen_t(MemoryLayout<Int32>.size)
    getsockopt(listener.fd, SOL_SOCKET, SO_REUSEADDR, &value, &length)
    #expect(value == 0)
    getsockopt(listener.fd, SOL_SOCKET, SO_REUSEPORT, &value, &length)
    #expect(value == 0)
    #expect(try listener.localAddress().description == "127.0.0.1")
    #expect(throws: SystemError(call: "bind", errno: EADDRINUSE)) {
      try Socket.listenOnLoopback(port: try listener.localAddress().port, backlog: 4)
    }
  }

  @Test func sendingToAClosedPeerIsAnErrorNotSIGPIPE() throws {
    let pair = try FileDescriptor.pipe()
    let socket = Socket(owning: pair.write)
    pair.read.close()
    #expect(throws: SystemError(call: "send", errno: EPIPE)) { try socket.send([1][...]) }
  }

  @Test func connectRefused() throws {
    let port = try Socket.listenOnLoopback(port: 0, backlog: 1).localAddress().port
    let clock = SystemClock()
    #expect(throws: SystemError(call: "connect", errno: ECONNREFUSED)) {
      try Socket.connect(to: .ipv4Loopback(port: port), deadline: clock.monotonic() + 5, clock: clock)
    }
  }

  @Test func connectDeadline() throws {
    // A listener that never accepts, with its queue full: further SYNs are dropped.
    let listener = try Socket.listenOnLoopback(port: 0, backlog: 0)
    let port = try listener.localAddress().port
    let clock = SystemClock()
    var held: [Socket] = []
    var outcome: SystemError?
    for _ in 0..<8 {
      do {
        held.append(try Socket.connect(to: .ipv4Loopback(port: port), deadline: clock.monotonic() + 0.2, clock: clock))
      } catch {
        outcome = error
        break
      }
    }
    #expect(outcome == Socket.connectTimedOut)
  }

  @Test func pastDeadlinePollsDoNotWait() throws {
    let pipe = try FileDescriptor.pipe()
    let clock = ManualClock()
    #expect(Poll.milliseconds(until: clock.monotonic() - 1, clock: clock) == 0)
    #expect(Poll.milliseconds(until: clock.monotonic() + 0.0001, clock: clock) == 1)
    // Any clock but the system's may jump ahead while poll blocks: 100 ms slices at most.
    #expect(Poll.milliseconds(until: clock.monotonic() + 1e12, clock: clock) == 100)
    #expect(Poll.milliseconds(until: clock.monotonic() + 0.05, clock: clock) == 50)
    let system = SystemClock()
    #expect(Poll.milliseconds(until: system.monotonic() + 1e12, clock: system) == Int32.max)
    #expect(
      try Poll.wait(for: Poll.readable, on: pipe.read.rawValue, deadline: clock.monotonic(), clock: clock) == false)
    #expect(
      try Poll.wait(for: Poll.writable, on: pipe.write.rawValue, deadline: clock.monotonic(), clock: clock) == true)
  }
}

struct ResolverTests {
  @Test func literalsResolveToThemselves() throws {
    #expect(try Resolver.resolve(host: "127.0.0.1", port: 443, variables: [:]).map(\.description) == ["127.0.0.1"])
    #expect(try Resolver.resolve(host: "127.0.0.1", port: 443, variables: [:]).first?.port == 443)
  }

  @Test func testMappingIsDebugOnlyAndLoopbackOnly() throws {
    let variables = ["GHLOGIN_TEST_RESOLVE": "github.test:443:127.0.0.1,api.github.test:8443:127.0.0.1"]
    #expect(
      try Resolver.testMapping(host: "github.test", port: 443, variables: EnvironmentVariables(variables))?.port == 443)
    #expect(
      try Resolver.testMapping(host: "api.github.test", port: 8443, variables: EnvironmentVariables(variables))?
        .description == "127.0.0.1")
    #expect(
      try Resolver.testMapping(host: "github.test", port: 8443, variables: EnvironmentVariables(variables)) == nil)
    #expect(try Resolver.testMapping(host: "other.test", port: 443, variables: EnvironmentVariables(variables)) == nil)
    #expect(try Resolver.testMapping(host: "github.test", port: 443, variables: [:]) == nil)
    #expect(throws: ResolveError(reason: "GHLOGIN_TEST_RESOLVE may only map to 127.0.0.1")) {
      try Resolver.testMapping(
        host: "github.test", port: 443, variables: ["GHLOGIN_TEST_RESOLVE": "github.test:443:140.82.112.3"])
    }
  }

  @Test(arguments: [
    ("1.2.3.4", [1, 2, 3, 4] as [UInt8]?), ("255.255.255.255", [255, 255, 255, 255]), ("1.2.3", nil),
    ("1.2.3.4.5", nil),
    ("01.2.3.4", nil), ("256.1.1.1", nil), ("github.test", nil), ("", nil),
    ("::1", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]), ("[::1]", nil),
  ])
  func ipLiterals(_ text: String, _ bytes: [UInt8]?) {
    #expect(IPAddress.parse(text) == bytes)
  }
}
