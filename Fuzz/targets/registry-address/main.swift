// Fuzz target: the container registry normaliser (ToolHelpers/RegistryAddress.swift) and the
// exact registry table it feeds (ToolHelpers/RegistryMap.swift), R104.
//
// Input: the bytes a container tool writes to `docker-credential-ghlogin get`. Invariants:
// - a normalised registry is printable ASCII without uppercase, '/', '@', '?', '#', '\' or
//   whitespace, is a fixed point (normalising it again gives itself), and is what an
//   independent reading gives: the input trimmed of ASCII whitespace, ASCII-lowercased, one
//   "https://" dropped, cut at the first '/', its port read as a number and ":443" dropped;
// - an answer names only a mapped host: when the table maps the registry to a host, a row of
//   the table holds exactly that registry (byte for byte) and that host, and no other host
//   claims it; a registry the table does not hold is unmapped.

let config: Config = {
  let bytes = Array(
    #"{"host": "github.test", "container_registries": ["registry.example:5000"], "hosts": {"ghe.test": {"container_registries": ["cr.ghe.test"]}}}"#
      .utf8)
  guard let config = try? Config.parse(bytes: bytes, file: "/fuzz/config.json", variables: [:]) else {
    invariant(false, "the fixed config does not parse")
    fatalError()
  }
  return config
}()
let map = RegistryMap(config: config, loggedIn: ["github.com", "ghe.example.com", "acme.ghe.com", "10.0.0.1:8443"])

/// The independent reading of what the normaliser should give, before host validation.
func reference(_ bytes: [UInt8]) -> [UInt8] {
  var slice = bytes[...]
  func space(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
  while let first = slice.first, space(first) { slice = slice.dropFirst() }
  while let last = slice.last, space(last) { slice = slice.dropLast() }
  var lowered = slice.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
  if lowered.starts(with: Array("https://".utf8)) { lowered.removeFirst(8) }
  if let slash = lowered.firstIndex(of: UInt8(ascii: "/")) { lowered = Array(lowered[..<slash]) }
  // A port is read as a number (leading zeros go), and 443 is no port.
  if let colon = lowered.lastIndex(of: UInt8(ascii: ":")), lowered.last != UInt8(ascii: "]"),
    let port = Int(String(decoding: lowered[(colon + 1)...], as: UTF8.self))
  {
    lowered = Array(lowered[..<colon]) + (port == 443 ? [] : Array(":\(port)".utf8))
  }
  return lowered
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = bytes(data, size)
  guard let registry = RegistryAddress.normalize(input) else {
    return 0
  }
  let utf8 = Array(registry.utf8)
  invariant(!utf8.isEmpty, "empty registry accepted")
  invariant(
    utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !(0x41...0x5A).contains($0) && !"/@?#\\".utf8.contains($0) },
    "normalised registry holds a forbidden byte: \(utf8)")
  invariant(RegistryAddress.normalize(registry) == registry, "normalising is not idempotent: \(registry)")
  invariant(reference(input) == utf8, "normaliser and reference disagree: \(registry) vs \(reference(input))")
  switch map.lookup(registry) {
  case .host(let host):
    let rows = map.entries.filter { $0.registry == registry }
    invariant(rows.count == 1 && rows[0].host == host, "\(registry) answered for \(host) without exactly one row")
    invariant(map.entries.contains { $0.registry.utf8.elementsEqual(utf8) && $0.host == host }, "no exact row")
  case .unmapped:
    invariant(!map.entries.contains { $0.registry == registry }, "a held registry came back unmapped")
  case .ambiguous(let hosts):
    invariant(hosts.count > 1, "ambiguous with one host")
  }
  return 0
}
