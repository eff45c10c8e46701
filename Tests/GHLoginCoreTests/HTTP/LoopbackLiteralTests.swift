import GHLoginTestSupport
import Synchronization
import Testing

@testable import GHLoginCore

#if canImport(Glibc)
  import Glibc
#endif

/// Names a ``NameLookup`` was asked for; its answer is always 127.0.0.1 (what a DNS server
/// under the attacker's control could say), so a test can tell a lookup from a literal.
final class LookupLog: Sendable {
  private let names = TestLock<[String]>([])
  var asked: [String] { names.withLock { $0 } }
  var lookup: NameLookup {
    NameLookup { host, port throws(ResolveError) in
      self.names.withLock { $0.append(host) }
      return [SocketAddress.ipv4Loopback(port: port)]
    }
  }
}

/// R98: `http://127.0.0.08` passed the loopback check (leading zeros read
/// as decimal) while glibc's `getaddrinfo` asked DNS for it. A literal loopback address is now
/// 127.0.0.0/8 in canonical dotted decimal or IPv6 `::1` (``IPAddress/loopback(_:)``), every
/// URL key of the config and the library's configuration is judged by it, and the connection
/// uses the parsed address with no lookup.
@Suite(.verifiesFakes) struct LoopbackLiteralTests {
  typealias Case = LoopbackSpelling.Case
  static let cases = LoopbackSpelling.cases

  /// The URL check itself, with and without a port.
  @Test(arguments: cases)
  func urlCheck(_ spelling: Case) throws {
    for url in ["http://\(spelling.host)/x", "http://\(spelling.host):8080/x"] {
      switch spelling.outcome {
      case .loopback: #expect(try WebURL(parsing: url).isLoopback, "\(url)")
      case .insecure: #expect(try !WebURL(parsing: url).isLoopback, "\(url)")
      case .invalid(let reason):
        #expect(throws: WebURL.ParseError(reason: reason)) { try WebURL(parsing: url) }
      }
    }
  }

  /// A config file (the load's decoder), every URL key at the top level and in a host block.
  @Test(arguments: cases)
  func configFile(_ spelling: Case) throws {
    let url = "http://\(spelling.host):8080/path"
    for key in LoopbackSpelling.urlKeys {
      for (text, path) in [
        (#"{"\#(key)": "\#(url)"}"#, key),
        (#"{"hosts": {"ghe.example.com": {"\#(key)": "\#(url)"}}}"#, "hosts.ghe.example.com." + key),
      ] {
        let result = Result { () throws(ConfigError) in
          try Config.parse(bytes: Array(text.utf8), file: "FILE", variables: [:])
        }
        switch spelling.outcome {
        case .loopback: #expect(result.error == nil, "\(text)")
        case .insecure: #expect(result.error == .insecureURL(file: "FILE", key: path), "\(text)")
        case .invalid(let reason):
          #expect(result.error == .invalidURL(file: "FILE", key: path, reason: reason), "\(text)")
        }
        #expect(result.error?.exitStatus ?? .usage == .usage)
      }
    }
  }

  /// The attack: the lookup (DNS) would answer with the server's address, but `127.0.0.08` is
  /// not a literal: refused before any lookup, nothing reaches the server.
  @Test(arguments: cases.filter { $0.outcome == .insecure })
  func clientRefusesWithoutALookup(_ spelling: Case) throws {
    let server = TestHTTPServer([.close])
    let log = LookupLog()
    var client = HTTPClient(variables: [:], userAgent: "ua")
    client.lookup = log.lookup
    let request = HTTPRequest(method: "GET", url: try WebURL(parsing: "http://\(spelling.host):\(server.port)/user"))
    let result = Result { () throws(HTTPError) in try client.perform(request, timeout: 5) }
    #expect(result.error == .insecureURL(host: spelling.host))
    #expect(log.asked.isEmpty)
    // Release the server's accept with a connection of our own; it must be the only one.
    let fd = TestNetwork.connect(port: server.port)
    if fd >= 0 { close(fd) }
    server.finish()
    #expect(server.requests == [""])
  }

  /// A loopback literal is connected as parsed: the request arrives and no lookup happened.
  @Test(arguments: ["127.0.0.1"])
  func clientConnectsToTheLiteralWithoutALookup(_ host: String) throws {
    let server = TestHTTPServer([.reply(Array("HTTP/1.1 204 No Content\r\n\r\n".utf8))])
    let log = LookupLog()
    var client = HTTPClient(variables: [:], userAgent: "ua")
    client.lookup = log.lookup
    let request = HTTPRequest(method: "GET", url: try WebURL(parsing: "http://\(host):\(server.port)/user"))
    let response = try Result { () throws(HTTPError) in try client.perform(request, timeout: 5) }.get()
    server.finish()
    #expect(response.status == 204)
    #expect(server.requests.count == 1)
    #expect(log.asked.isEmpty)
  }

  /// IPv6 spellings of `::1`: the client connects to ::1 itself (nothing listens there, so the
  /// connect is refused), never through a lookup.
  @Test(arguments: ["[::1]", "[0:0::1]", "[0:0:0:0:0:0:0:1]"])
  func clientConnectsToIPv6LoopbackWithoutALookup(_ host: String) throws {
    let log = LookupLog()
    var client = HTTPClient(variables: [:], userAgent: "ua")
    client.lookup = log.lookup
    client.connectTimeout = 5
    let request = HTTPRequest(method: "GET", url: try WebURL(parsing: "http://\(host):1/user"))
    let result = Result { () throws(HTTPError) in try client.perform(request, timeout: 5) }
    guard case .connect(let label, let port, _)? = result.error else {
      Issue.record("expected a refused connect, got \(result)")
      return
    }
    #expect(label == host && port == 1)
    #expect(log.asked.isEmpty)
  }

  /// The resolver's answer for a literal is the parsed address itself (no lookup, no getaddrinfo).
  @Test(arguments: [
    ("127.0.0.1", "127.0.0.1"), ("127.255.255.254", "127.255.255.254"), ("[::1]", "::1"), ("[0:0::1]", "::1"),
    ("[0:0:0:0:0:0:0:1]", "::1"),
  ])
  func resolverAnswersALiteralItself(_ host: String, _ address: String) throws {
    let log = LookupLog()
    let addresses = try Resolver.resolve(host: host, port: 8080, variables: [:], lookup: log.lookup, deadline: 0)
    #expect(addresses.map(\.description) == [address])
    #expect(addresses.map(\.port) == [8080])
    #expect(log.asked.isEmpty)
  }

  /// And `127.0.0.08` is a name to the resolver, as it is to glibc: which is why it is not loopback.
  @Test func resolverTreatsANonCanonicalSpellingAsAName() throws {
    let log = LookupLog()
    _ = try Resolver.resolve(host: "127.0.0.08", port: 80, variables: [:], lookup: log.lookup, deadline: .infinity)
    #expect(log.asked == ["127.0.0.08"])
  }
}
