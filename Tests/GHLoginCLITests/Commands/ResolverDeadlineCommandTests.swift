import GHLoginTestSupport
import Glibc
import Testing

@testable import GHLoginCLI

/// GHLoginCoreTests' `ResolverDeadlineTests` through a command.
@Suite struct ResolverDeadlineCommandTests {
  /// Through a command: `whoami` with a resolver that never answers exits 1 naming the host,
  /// and exits 130 when interrupted; the credentials are untouched either way.
  @Test func whoamiWithAHungResolver() throws {
    let fixture = try LifecycleFixture()
    try fixture.seed(sampleCredential())
    let before = fixture.fileBytes
    var client = HTTPClient(variables: [:], userAgent: "ua")
    client.lookup = Self.neverAnswers
    client.connectTimeout = 0.3
    let timedOut = fixture.run(["whoami"], transport: client)
    #expect(timedOut.status == .failure)
    #expect(timedOut.stdout.isEmpty)
    #expect(
      timedOut.stderr
        == "ghlogin: identity check at https://api.github.com/: timed out resolving api.github.com; "
        + "check your network connection\n")

    let stop = try FileDescriptor.pipe()
    var byte: UInt8 = 1
    _ = send(stop.write.rawValue, &byte, 1, Int32(MSG_NOSIGNAL))
    client.connectTimeout = 30
    client.stopFD = stop.read.rawValue
    let interrupted = fixture.run(["whoami"], transport: client)
    #expect(interrupted.status == .interrupted)
    #expect(interrupted.stderr == "ghlogin: interrupted\n")
    #expect(fixture.fileBytes == before)
  }

  /// A lookup that blocks its thread forever, like a resolver that never answers.
  static let neverAnswers: NameLookup = {
    var lookup = NameLookup.system
    lookup.lookup = { _, _ throws(ResolveError) -> [SocketAddress] in
      while true { sleep(3600) }
    }
    return lookup
  }()
}
