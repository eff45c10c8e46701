#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// One resolved socket address (IPv4 or IPv6), copied out of `getaddrinfo`'s list.
package struct SocketAddress: CustomStringConvertible, Sendable {
  package var storage = sockaddr_storage()
  package var length: socklen_t = 0

  var family: Int32 { Int32(storage.ss_family) }

  /// The address as text (`inet_ntop`), without the port.
  package var description: String {
    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    let size = socklen_t(text.count)
    let ok = withUnsafeBytes(of: storage) { raw -> Bool in
      if family == AF_INET {
        var inet = raw.loadUnaligned(as: sockaddr_in.self).sin_addr
        return inet_ntop(AF_INET, &inet, &text, size) != nil
      }
      var inet6 = raw.loadUnaligned(as: sockaddr_in6.self).sin6_addr
      return inet_ntop(AF_INET6, &inet6, &text, size) != nil
    }
    return ok ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
  }

  /// The port in host byte order.
  package var port: Int {
    withUnsafeBytes(of: storage) { raw in
      family == AF_INET
        ? Int(UInt16(bigEndian: raw.loadUnaligned(as: sockaddr_in.self).sin_port))
        : Int(UInt16(bigEndian: raw.loadUnaligned(as: sockaddr_in6.self).sin6_port))
    }
  }

  /// The address `ip` (4 bytes: a `sockaddr_in`; 16: a `sockaddr_in6`) and `port`, built
  /// directly: no name lookup. Nil for any other length.
  package init?(ip: [UInt8], port: Int) {
    let bigEndianPort = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
    switch ip.count {
    case 4:
      var inet = sockaddr_in()
      inet.sin_family = sa_family_t(AF_INET)
      inet.sin_port = bigEndianPort
      withUnsafeMutableBytes(of: &inet.sin_addr) { $0.copyBytes(from: ip) }
      store(inet)
    case 16:
      var inet6 = sockaddr_in6()
      inet6.sin6_family = sa_family_t(AF_INET6)
      inet6.sin6_port = bigEndianPort
      withUnsafeMutableBytes(of: &inet6.sin6_addr) { $0.copyBytes(from: ip) }
      store(inet6)
    default:
      return nil
    }
  }

  /// Keeps `address` (a `sockaddr_in` or `sockaddr_in6`) as this address.
  private mutating func store<Address>(_ address: Address) {
    withUnsafeBytes(of: address) { source in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) } }
    length = socklen_t(MemoryLayout<Address>.size)
  }

  package init() {}

  /// `127.0.0.1:port` as a `sockaddr_in`.
  static func ipv4Loopback(port: Int) -> SocketAddress {
    var address = SocketAddress()
    var inet = sockaddr_in()
    inet.sin_family = sa_family_t(AF_INET)
    inet.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
    inet.sin_addr.s_addr = in_addr_t(INADDR_LOOPBACK).bigEndian
    withUnsafeBytes(of: &inet) { source in
      withUnsafeMutableBytes(of: &address.storage) { $0.copyMemory(from: source) }
    }
    address.length = socklen_t(MemoryLayout<sockaddr_in>.size)
    return address
  }
}

/// Why a host name could not be turned into addresses.
package struct ResolveError: Error, Equatable, Sendable {
  /// `gai_strerror`'s text, or our own for refused test mappings.
  package var reason: String
}

/// Name resolution with `getaddrinfo(3)`, under a deadline and a stop descriptor.
///
/// `getaddrinfo` itself has no timeout and Ctrl-C does not cut it short, so a name (not an IP
/// literal) is looked up on a helper thread (``resolve(host:port:lookup:deadline:stopFD:clock:)``)
/// whose answer is awaited with `poll(2)`.
enum Resolver {
  /// Every TCP address for `host` (an IPv6 literal may keep its brackets) and `port`, in
  /// `getaddrinfo`'s order, before `deadline`; ``ResolveError/timedOut`` after it, and
  /// ``ResolveError/interrupted`` as soon as `stopFD` is readable.
  ///
  /// In DEBUG builds only, `GHLOGIN_TEST_RESOLVE=host:port:addr[,...]` in
  /// `variables` maps a name to a loopback address first, so tests can use
  /// real-looking names (SNI and certificate checks see `github.test`) while
  /// connecting to 127.0.0.1. Release builds ignore the variable.
  package static func resolve(
    host: String, port: Int, variables: EnvironmentVariables, lookup: NameLookup = .system,
    deadline: Double = .infinity, stopFD: Int32? = nil, clock: any TimeSource = SystemClock()
  ) throws(ResolveError) -> [SocketAddress] {
    let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    #if DEBUG
      if let mapped = try testMapping(host: name, port: port, variables: variables) { return [mapped] }
    #endif
    // An IP literal needs no resolver: it is the address itself, with no call that could ask DNS (R98).
    if let bytes = IPAddress.parse(name), let address = SocketAddress(ip: bytes, port: port) { return [address] }
    return try resolve(host: name, port: port, lookup: lookup, deadline: deadline, stopFD: stopFD, clock: clock)
  }

  /// `getaddrinfo` for `host` (no brackets) and `port`; blocks as long as the resolver does.
  static func systemLookup(host name: String, port: Int) throws(ResolveError) -> [SocketAddress] {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_protocol = Int32(IPPROTO_TCP)
    hints.ai_flags = AI_ADDRCONFIG | AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    var status: Int32
    repeat {
      status = getaddrinfo(name, String(port), &hints, &list)
    } while status == EAI_SYSTEM && errno == EINTR
    guard status == 0 else {
      let reason =
        status == EAI_SYSTEM
        ? SystemError(call: "getaddrinfo", errno: errno).reason : String(cString: gai_strerror(status))
      throw ResolveError(reason: reason)
    }
    defer { freeaddrinfo(list) }
    var addresses: [SocketAddress] = []
    var entry = list
    while let info = entry?.pointee {
      if let source = info.ai_addr, Int(info.ai_addrlen) <= MemoryLayout<sockaddr_storage>.size {
        var address = SocketAddress()
        withUnsafeMutableBytes(of: &address.storage) { target in
          target.copyMemory(from: UnsafeRawBufferPointer(start: source, count: Int(info.ai_addrlen)))
        }
        address.length = info.ai_addrlen
        addresses.append(address)
      }
      entry = info.ai_next
    }
    guard !addresses.isEmpty else { throw ResolveError(reason: "no addresses") }
    return addresses
  }

  #if DEBUG
    /// The `GHLOGIN_TEST_RESOLVE` entry for `host:port`, which may only point at 127.0.0.1.
    static func testMapping(host: String, port: Int, variables: EnvironmentVariables) throws(ResolveError)
      -> SocketAddress?
    {
      guard let spec = variables["GHLOGIN_TEST_RESOLVE"] else { return nil }
      for entry in spec.split(separator: ",") {
        let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].lowercased() == host, Int(parts[1]) == port else { continue }
        guard parts[2] == "127.0.0.1" else {
          throw ResolveError(reason: "GHLOGIN_TEST_RESOLVE may only map to 127.0.0.1")
        }
        return SocketAddress.ipv4Loopback(port: port)
      }
      return nil
    }
  #endif
}

/// IP literals as bytes, parsed with `inet_pton(3)` (strict dotted-quad IPv4, or IPv6).
package enum IPAddress {
  /// 4 bytes for IPv4, 16 for IPv6 (without brackets), nil for anything else.
  package static func parse(_ text: String) -> [UInt8]? {
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: v4) { Array($0) } }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: v6) { Array($0) } }
    return nil
  }
}

extension IPAddress {
  /// The address of `host` (as a URL holds it: an IPv6 literal in brackets) when it is a literal
  /// loopback address, nil otherwise (R98): the one rule for "plain http:// is allowed here"
  /// (``WebURL/isLoopback``), and the bytes the connection then uses (no name lookup).
  ///
  /// - IPv4: `127.0.0.0/8` in canonical dotted decimal only: four parts, each 1–3 digits from
  ///   0 to 255 without a leading zero. `127.0.0.08`, `127.000.000.001`, `127.1`, `0x7f.0.0.1`,
  ///   `2130706433` and `127.0.0.1.` are not literals to glibc's `getaddrinfo` (some are looked up
  ///   in DNS), so they are not loopback here either.
  /// - IPv6: `[::1]` or any other spelling `inet_pton(AF_INET6)` reads as `::1`
  ///   (`[0:0:0:0:0:0:0:1]`); IPv4-mapped forms (`[::ffff:127.0.0.1]`) are not loopback.
  package static func loopback(_ host: String) -> [UInt8]? {
    if host.hasPrefix("[") {
      guard host.hasSuffix("]"), host.count > 2 else { return nil }
      var v6 = in6_addr()
      guard inet_pton(AF_INET6, String(host.dropFirst().dropLast()), &v6) == 1 else { return nil }
      let bytes = withUnsafeBytes(of: v6) { Array($0) }
      return bytes == Array(repeating: 0, count: 15) + [1] ? bytes : nil
    }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    let canonical =
      parts.count == 4 && parts[0] == "127"
      && parts.allSatisfy { part in
        (1...3).contains(part.utf8.count) && part.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
          && (part == "0" || part.first != "0") && (Int(part) ?? 256) <= 255
      }
    // The bytes come from inet_pton, as the connection's would: both must agree it is this literal.
    guard canonical, let bytes = parse(host), bytes.count == 4, bytes[0] == 127 else { return nil }
    return bytes
  }
}
