/// The exact table from container registries to the GitHub host whose login they take (R104).
///
/// Built in: `ghcr.io` and `docker.pkg.github.com` → `github.com`; `containers.SUBDOMAIN.ghe.com`
/// → `SUBDOMAIN.ghe.com`; `containers.HOST` and `docker.HOST` → an Enterprise Server `HOST` (the
/// names GitHub documents). Plus `container_registries` from the config (top level for
/// ``Config/defaultHost``, `hosts.H` for `H`). Enterprise hosts are those the config names or
/// logged in to. Names compare byte for byte with ``RegistryAddress``'s output; a registry two
/// hosts claim maps to neither, so no guess hands out a token.
package struct RegistryMap: Sendable, Equatable {
  /// Registry → GitHub host name, every pair of the table (a registry may repeat when claimed
  /// twice): `registryNames[i]` → `hostNames[i]`. Two arrays of strings, not one of pairs: an
  /// array of tuples has its type made at run time, on the path docker runs for every pull.
  private var registryNames: [String] = []
  private var hostNames: [String] = []

  /// Every row of the table, in order, as pairs (for checks such as the fuzz target's; the
  /// lookups read the two arrays).
  package var entries: [(registry: String, host: String)] {
    registryNames.indices.map { (registry: registryNames[$0], host: hostNames[$0]) }
  }

  /// What the table says about one registry.
  package enum Lookup: Sendable, Equatable {
    /// Exactly one GitHub host.
    case host(String)
    /// No row names it.
    case unmapped
    /// Several hosts claim it (configured twice): none is used.
    case ambiguous([String])
  }

  /// The registries built in for `host` (see the type's documentation).
  static func builtInRegistries(for host: GitHubHost) -> [String] {
    if host.isGitHubDotCom { return ["ghcr.io", "docker.pkg.github.com"] }
    guard host.port == nil, !host.hostname.hasPrefix("[") else { return [] }
    if host.isGHEDotCom { return ["containers." + host.hostname] }
    // An IPv4 literal has no subdomains.
    if host.hostname.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") }) { return [] }
    return ["containers." + host.hostname, "docker." + host.hostname]
  }

  /// The table for `config` and the hosts logged in to (`loggedIn`, store names).
  package init(config: Config, loggedIn: [String]) {
    var hosts: [String] = [GitHubHost.gitHubDotCom.name]
    func add(_ name: String) {
      guard let host = try? GitHubHost(validating: name), !hosts.contains(host.name) else { return }
      hosts.append(host.name)
    }
    add(config.defaultHost)
    for name in config.hosts.keys.sorted() { add(name) }
    for name in (config.system?.hosts.keys).map({ $0.sorted() }) ?? [] { add(name) }
    // An array, not `some Sequence<String>`: a generic parameter is not specialised across the
    // module boundary, and the run-time conformance lookup it needs is on `docker-credential
    // get`'s path (bench/RESULTS.md, issue 19).
    for name in loggedIn.sorted() { add(name) }

    func claim(_ registry: String, _ host: String) {
      if !registryNames.indices.contains(where: { registryNames[$0] == registry && hostNames[$0] == host }) {
        registryNames.append(registry)
        hostNames.append(host)
      }
    }
    for name in hosts {
      guard let host = try? GitHubHost(validating: name) else { continue }
      for registry in Self.builtInRegistries(for: host) { claim(registry, host.name) }
    }
    // Configured names, per host as every other key is (a host block over the top level, which
    // is for the config's own host; the user's file over the system file: Config.settings(for:)).
    for name in hosts {
      for registry in config.settings(for: name).containerRegistries ?? [] { claim(registry, name) }
    }
  }

  /// The GitHub host for `registry` (already normalised by ``RegistryAddress``): exact matches only.
  package func lookup(_ registry: String) -> Lookup {
    let hosts = registryNames.indices.filter { registryNames[$0] == registry }.map { hostNames[$0] }
    switch hosts.count {
    case 0: return .unmapped
    case 1: return .host(hosts[0])
    default: return .ambiguous(hosts)
    }
  }

  /// The registries that map to `host` and to no other host, in table order.
  package func registries(for host: String) -> [String] {
    hostNames.indices.filter { hostNames[$0] == host }.map { registryNames[$0] }.filter { lookup($0) == .host(host) }
  }

  /// Every registry that maps to exactly one host, with it, in table order.
  package var unambiguous: [(registry: String, host: String)] {
    registryNames.indices.filter { lookup(registryNames[$0]) == .host(hostNames[$0]) }.map {
      (registry: registryNames[$0], host: hostNames[$0])
    }
  }
}
