import Foundation
import Testing

import GHLoginTestSupport

@testable import GHLoginCore

#if canImport(Glibc)
  import Glibc
#endif

/// Name resolution under the connection deadline and the stop descriptor,
/// with an injected resolver that never answers.
@Suite struct ResolverDeadlineTests {
  /// A lookup that blocks its thread forever, like a resolver that never answers.
  static let neverAnswers = NameLookup { _, _ throws(ResolveError) -> [SocketAddress] in
    while true { sleep(3600) }
  }

  /// A lookup that must not be called.
  static let mustNotRun = NameLookup { _, _ throws(ResolveError) -> [SocketAddress] in
    throw ResolveError(reason: "the lookup ran")
  }

  /// Writes a byte to `fd` after `delay` seconds, from another thread.
  static func signal(_ fd: Int32, after delay: Double) {
    Thread.detachNewThread {
      Thread.sleep(forTimeInterval: delay)
      var byte: UInt8 = 1
      _ = send(fd, &byte, 1, Int32(MSG_NOSIGNAL))
    }
  }

  @Test func deadlineEndsAHungLookup() {
    let clock = SystemClock()
    let start = clock.monotonic()
    #expect(throws: ResolveError.timedOut) {
      try Resolver.resolve(
        host: "github.test", port: 443, variables: [:], lookup: Self.neverAnswers, deadline: start + 0.3, clock: clock)
    }
    let waited = clock.monotonic() - start
    #expect(waited >= 0.29 && waited < 2, "waited \(waited) s")
  }

  @Test func stopDescriptorEndsAHungLookupAtOnce() throws {
    let stop = try FileDescriptor.pipe()
    let clock = SystemClock()
    let start = clock.monotonic()
    Self.signal(stop.write.rawValue, after: 0.2)
    #expect(throws: ResolveError.interrupted) {
      try Resolver.resolve(
        host: "github.test", port: 443, variables: [:], lookup: Self.neverAnswers, deadline: start + 30,
        stopFD: stop.read.rawValue, clock: clock)
    }
    #expect(clock.monotonic() - start < 2)
  }

  @Test func answersAndFailuresComeBackFromTheThread() throws {
    let answers = NameLookup { _, port throws(ResolveError) in [SocketAddress.ipv4Loopback(port: port)] }
    let addresses = try Resolver.resolve(
      host: "github.test", port: 8443, variables: [:], lookup: answers, deadline: SystemClock().monotonic() + 5)
    #expect(addresses.map(\.description) == ["127.0.0.1"])
    #expect(addresses.map(\.port) == [8443])
    let fails = NameLookup { _, _ throws(ResolveError) -> [SocketAddress] in
      throw ResolveError(reason: "Name or service not known")
    }
    #expect(throws: ResolveError(reason: "Name or service not known")) {
      try Resolver.resolve(
        host: "nx.test", port: 443, variables: [:], lookup: fails, deadline: SystemClock().monotonic() + 5)
    }
  }

  @Test(arguments: ["127.0.0.1", "[::1]"])
  func ipLiteralsNeedNoLookup(host: String) throws {
    let addresses = try Resolver.resolve(host: host, port: 80, variables: [:], lookup: Self.mustNotRun, deadline: 0)
    #expect(addresses.count == 1)
  }

  /// Through the HTTP client: the connect deadline covers resolution (exit 1, the host named).
  @Test func clientTimesOutResolvingWithTheHostNamed() throws {
    var client = HTTPClient(variables: [:], userAgent: "ua")
    client.lookup = Self.neverAnswers
    client.connectTimeout = 0.3
    let request = HTTPRequest(method: "GET", url: try WebURL(parsing: "https://github.test/"))
    let result = Result { () throws(HTTPError) in try client.perform(request, timeout: 30) }
    #expect(result.error == .timedOut(host: "github.test", phase: .resolve))
    #expect(result.error?.message == "timed out resolving github.test")
    #expect(result.error?.exitStatus == .failure)
    #expect(result.error?.requestMayHaveBeenSent == false)
  }

  /// Through the HTTP client: Ctrl-C (the stop descriptor) ends the wait at once, exit 130.
  @Test func clientIsInterruptedWhileResolving() throws {
    let stop = try FileDescriptor.pipe()
    var client = HTTPClient(variables: [:], userAgent: "ua")
    client.lookup = Self.neverAnswers
    client.connectTimeout = 30
    client.stopFD = stop.read.rawValue
    Self.signal(stop.write.rawValue, after: 0.2)
    let start = SystemClock().monotonic()
    let request = HTTPRequest(method: "GET", url: try WebURL(parsing: "https://github.test/"))
    let result = Result { () throws(HTTPError) in try client.perform(request, timeout: 30) }
    #expect(result.error == .interrupted)
    #expect(result.error?.exitStatus == .interrupted)
    #expect(SystemClock().monotonic() - start < 2)
  }

}
