import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// The registry normaliser and the exact registry → host table (R104).
@Suite struct RegistryMapTests {
  @Test(arguments: [
    ("ghcr.io", "ghcr.io"), ("  ghcr.io\n", "ghcr.io"), ("GHCR.IO", "ghcr.io"), ("https://ghcr.io", "ghcr.io"),
    ("https://ghcr.io/", "ghcr.io"), ("HTTPS://ghcr.io/v2/owner/image", "ghcr.io"), ("ghcr.io:443", "ghcr.io"),
    ("https://ghcr.io:443/", "ghcr.io"), ("registry.example:5000", "registry.example:5000"),
    ("127.0.0.1:5000", "127.0.0.1:5000"), ("index.docker.io/v1/", "index.docker.io"),
  ])
  func normalises(input: String, expected: String) {
    #expect(RegistryAddress.normalize(input) == expected)
  }

  @Test(arguments: [
    "", "   \n", "ghcr.io@x", "user@ghcr.io", "http://ghcr.io", "ftp://ghcr.io", "https://https://ghcr.io",
    "ghcr .io", "ghcr.io\u{0}", "ghcr.io\u{7f}", "ghcr.io\u{85}", "ghсr.io" /* Cyrillic с */, "ghcr.io:",
    "ghcr.io:0", "ghcr.io:99999", "ghcr.io?x", "ghcr.io#x", "ghcr.io\\x", "ghcr.io.", "-ghcr.io",
    "ghcr.io\r\nevil.test", "GHCR.İO",
  ])
  func refuses(input: String) {
    #expect(RegistryAddress.normalize(input) == nil)
  }

  @Test func refusesInputOverSixtyFourKiB() {
    let long = Array("ghcr.io".utf8) + [UInt8](repeating: 0x20, count: RegistryAddress.maximumInputSize)
    #expect(RegistryAddress.normalize(long) == nil)
  }

  static let config = Config(file: "/nonexistent/config.json")

  @Test func builtInTable() {
    let map = RegistryMap(config: Self.config, loggedIn: ["github.com", "ghe.example.com", "acme.ghe.com"])
    #expect(map.lookup("ghcr.io") == .host("github.com"))
    #expect(map.lookup("docker.pkg.github.com") == .host("github.com"))
    #expect(map.lookup("containers.ghe.example.com") == .host("ghe.example.com"))
    #expect(map.lookup("docker.ghe.example.com") == .host("ghe.example.com"))
    #expect(map.lookup("containers.acme.ghe.com") == .host("acme.ghe.com"))
    #expect(map.lookup("docker.acme.ghe.com") == .unmapped)
    #expect(map.lookup("ghe.example.com") == .unmapped)
    #expect(map.registries(for: "github.com") == ["ghcr.io", "docker.pkg.github.com"])
  }

  /// The "Never" cases (R104): each gets "not found", never github.com's login.
  @Test(arguments: [
    "ghcr.io.evil.test", "evilghcr.io", "ghcr.io@x", "https://ghcr.io:444", "docker.io", "index.docker.io",
    "https://index.docker.io/v1/", "xghcr.io", "ghcr.i", "ghcr.io:80", "pkg.github.com", "github.com",
    "containers.github.com", "GHCR.IO.", "ghcr.io%2e",
  ])
  func neverMapsLookalikes(input: String) {
    let map = RegistryMap(config: Self.config, loggedIn: ["github.com", "ghe.example.com"])
    let registry = RegistryAddress.normalize(input)
    #expect(registry.map(map.lookup) ?? .unmapped == .unmapped)
  }

  @Test func hostsWithAPortOrAnAddressGetNoBuiltInNames() {
    #expect(RegistryMap.builtInRegistries(for: try! GitHubHost(validating: "ghe.example.com:8443")).isEmpty)
    #expect(RegistryMap.builtInRegistries(for: try! GitHubHost(validating: "10.0.0.1")).isEmpty)
    #expect(RegistryMap.builtInRegistries(for: try! GitHubHost(validating: "[::1]")).isEmpty)
  }

  @Test func configuredRegistries() throws {
    let bytes = Array(
      """
      {"host": "github.test", "container_registries": ["Registry.Example:443", "127.0.0.1:5000"],
       "hosts": {"ghe.example.com": {"container_registries": ["cr.example.com"]}}}
      """.utf8)
    let config = try Config.parse(bytes: bytes, file: "/c.json", variables: [:])
    #expect(config.topLevel.containerRegistries == ["registry.example", "127.0.0.1:5000"])
    let map = RegistryMap(config: config, loggedIn: [])
    #expect(map.lookup("registry.example") == .host("github.test"))
    #expect(map.lookup("127.0.0.1:5000") == .host("github.test"))
    #expect(map.lookup("cr.example.com") == .host("ghe.example.com"))
    #expect(map.lookup("containers.ghe.example.com") == .host("ghe.example.com"))
    #expect(map.lookup("127.0.0.1:5001") == .unmapped)
    #expect(map.lookup("127.0.0.1") == .unmapped)
  }

  @Test func aRegistryClaimedTwiceMapsToNeither() throws {
    let bytes = Array(
      """
      {"container_registries": ["cr.example.com"],
       "hosts": {"ghe.example.com": {"container_registries": ["cr.example.com", "ghcr.io"]}}}
      """.utf8)
    let map = RegistryMap(config: try Config.parse(bytes: bytes, file: "/c.json", variables: [:]), loggedIn: [])
    #expect(map.lookup("cr.example.com") == .ambiguous(["github.com", "ghe.example.com"]))
    #expect(map.lookup("ghcr.io") == .ambiguous(["github.com", "ghe.example.com"]))
    #expect(map.registries(for: "github.com") == ["docker.pkg.github.com"])
    #expect(!map.unambiguous.contains { $0.registry == "ghcr.io" })
  }

  @Test(arguments: [
    #"{"container_registries": "ghcr.io"}"#, #"{"container_registries": [1]}"#,
    #"{"container_registries": ["https://cr.example.com"]}"#, #"{"container_registries": ["cr.example.com/path"]}"#,
    #"{"container_registries": ["u@cr.example.com"]}"#, #"{"container_registries": ["cr example"]}"#,
  ])
  func refusesBadConfiguredRegistries(json: String) {
    #expect(throws: ConfigError.self) { try Config.parse(bytes: Array(json.utf8), file: "/c.json", variables: [:]) }
  }
}
