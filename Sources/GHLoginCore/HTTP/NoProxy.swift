/// The `NO_PROXY` list: hosts that are reached directly, never through the proxy (R78).
///
/// Comma-separated, trimmed, case-insensitive; entries that cannot be parsed are ignored.
/// - `*` alone: nothing is proxied.
/// - `example.com`: that host and its subdomains, on a label boundary
///   (`api.example.com` yes, `notexample.com` no).
/// - `.example.com` or `*.example.com`: subdomains only.
/// - `host:port`, `[v6]:port`, `1.2.3.4:port`: only for that port.
/// - `10.0.0.1`, `[::1]`, `10.0.0.0/8`, `fd00::/8`: IP-literal hosts only (names are never
///   resolved to match them). A trailing dot on the host or entry is ignored.
struct NoProxy: Sendable, Equatable {
  package enum Entry: Sendable, Equatable {
    case everything
    case domain(String, subdomainsOnly: Bool, port: Int?)
    case network(address: [UInt8], prefixLength: Int, port: Int?)
  }

  package let entries: [Entry]

  package init(_ text: String) {
    entries = text.split(separator: ",").compactMap { Self.parse($0.trimmingASCIIWhitespace().lowercased()) }
  }

  /// Whether a request to `host` (as in ``WebURL/host``) on `port` must bypass the proxy.
  package func matches(host: String, port: Int) -> Bool {
    var name = host.lowercased()
    if name.hasSuffix(".") { name.removeLast() }
    let literal = name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
    let address = IPAddress.parse(literal)
    for entry in entries {
      switch entry {
      case .everything:
        return true
      case .domain(let domain, let subdomainsOnly, let entryPort):
        if let entryPort, entryPort != port { continue }
        if name.hasSuffix("." + domain) || (!subdomainsOnly && name == domain) { return true }
      case .network(let network, let prefixLength, let entryPort):
        if let entryPort, entryPort != port { continue }
        if let address, address.count == network.count, Self.prefix(of: address, equals: network, bits: prefixLength) {
          return true
        }
      }
    }
    return false
  }

  private static func parse(_ text: String) -> Entry? {
    if text.isEmpty { return nil }
    if text == "*" { return .everything }
    var hostPart = Substring(text)
    var port: Int?
    if hostPart.first == "[" {
      guard let close = hostPart.firstIndex(of: "]") else { return nil }
      let after = hostPart[hostPart.index(after: close)...]
      if !after.isEmpty {
        guard after.first == ":", let value = parsePort(after.dropFirst()) else { return nil }
        port = value
      }
      hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
    } else if hostPart.filter({ $0 == ":" }).count == 1, let colon = hostPart.firstIndex(of: ":") {
      guard let value = parsePort(hostPart[hostPart.index(after: colon)...]) else { return nil }
      port = value
      hostPart = hostPart[..<colon]
    }
    if let slash = hostPart.firstIndex(of: "/") {
      guard let address = IPAddress.parse(String(hostPart[..<slash])),
        let bits = Int(hostPart[hostPart.index(after: slash)...]), (0...address.count * 8).contains(bits)
      else { return nil }
      return .network(address: address, prefixLength: bits, port: port)
    }
    if let address = IPAddress.parse(String(hostPart)) {
      return .network(address: address, prefixLength: address.count * 8, port: port)
    }
    var domain = String(hostPart)
    var subdomainsOnly = false
    if domain.hasPrefix("*.") { domain.removeFirst() }
    if domain.hasPrefix(".") {
      subdomainsOnly = true
      domain.removeFirst()
    }
    if domain.hasSuffix(".") { domain.removeLast() }
    guard !domain.isEmpty, !domain.contains("*") else { return nil }
    return .domain(domain, subdomainsOnly: subdomainsOnly, port: port)
  }

  private static func parsePort(_ text: Substring) -> Int? {
    guard !text.isEmpty, text.count <= 5, text.allSatisfy({ $0.isASCIIDigit }), let port = Int(text),
      (1...65535).contains(port)
    else { return nil }
    return port
  }

  /// Whether the first `bits` bits of `address` and `network` agree.
  private static func prefix(of address: [UInt8], equals network: [UInt8], bits: Int) -> Bool {
    var remaining = bits
    for (left, right) in zip(address, network) where remaining > 0 {
      let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
      if left & mask != right & mask { return false }
      remaining -= 8
    }
    return true
  }
}
