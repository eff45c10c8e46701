import Foundation
import GHLoginTestSupport
import Synchronization
import Testing

/// skopeo and podman (the real programs) pulling through `docker-credential-ghlogin` from
/// Debian's `docker-registry` (the CNCF distribution registry) behind a bearer-token server
/// (`Tests/Scripts/registry_token_server.py`) that grants only a Basic `login:token` the fake
/// GitHub's `/user` accepts, as ghcr.io does (R104, R105). The image is built by hand
/// (`make_oci_layout.py`) and pushed in set-up, through the helper; nothing uses the network.
@Suite(.serialized) struct ContainerRegistryEndToEndTests {
  static let token = "gho_E2Eregistry000000000000000000000000001"
  static let image = "octocat/private:v1"

  /// Everything the tests share, started once: the fake GitHub, the token server, a private
  /// registry (token auth) and a public one (no auth), both over TLS with the tests' CA.
  final class World: @unchecked Sendable {
    let root: TemporaryDirectory
    let fake: FakeGitHub
    var children: [ChildProcess] = []
    var privateRegistry = ""
    var publicRegistry = ""
    var tokenLog = ""
    /// A directory with the tests' CA as `ca.crt`, for `--cert-dir`.
    var certDir = ""
    /// HOME with the login, set up by `ghlogin setup-docker`.
    var loggedIn = ""
    /// HOME without a login, whose helper entries name both registries.
    var loggedOut = ""
    let skopeo: String
    let podman: String

    init(skopeo: String, podman: String, registry: String) throws {
      self.skopeo = skopeo
      self.podman = podman
      root = try TemporaryDirectory(prefix: "ghlogin-registry")
      let certificates = try TestCertificates.directory()
      certDir = root.at("certs")
      try FileManager.default.createDirectory(atPath: certDir, withIntermediateDirectories: true)
      try FileManager.default.copyItem(atPath: certificates + "/ca.pem", toPath: certDir + "/ca.crt")
      fake = try FakeGitHub.start()
      try fake.register(["tokens": [["access_token": ContainerRegistryEndToEndTests.token, "login": "octocat"]]])

      // The token server's signing key and certificate (the registry's rootcertbundle).
      let openssl = try run(
        "/usr/bin/openssl",
        [
          "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", root.at("jwt.key"), "-out", root.at("jwt.pem"),
          "-days", "2", "-subj", "/CN=ghlogin-test-registry-token",
        ])
      guard openssl.status == 0 else { throw HarnessError("openssl req failed: \(openssl.stderr)") }
      tokenLog = root.at("token.log")
      guard FileManager.default.createFile(atPath: tokenLog, contents: nil) else {
        throw HarnessError("could not create \(tokenLog)")
      }
      let tokenServer = try ChildProcess(
        executable: HarnessPaths.python3,
        arguments: [
          HarnessPaths.packageRoot + "/Tests/Scripts/registry_token_server.py", certificates + "/server.pem",
          certificates + "/server.key", certificates + "/ca.pem", "https://127.0.0.1:\(fake.port)/api/v3/user",
          root.at("jwt.key"), root.at("jwt.pem"), "ghlogin-test-registry", "ghlogin-test-issuer", tokenLog,
        ], environment: nil, stdin: nil)
      children.append(tokenServer)
      let tokenPort = try tokenServer.waitForLine(.stdout, timeout: 20) { Int($0) != nil }

      let ports = try freePorts(2)
      privateRegistry = "127.0.0.1:\(ports[0])"
      publicRegistry = "127.0.0.1:\(ports[1])"
      for (name, address, authorized) in [("private", privateRegistry, true), ("public", publicRegistry, false)] {
        var lines = [
          "version: 0.1", "log:", "  level: info", "storage:", "  filesystem:",
          "    rootdirectory: \(root.at(name + "-storage"))", "http:", "  addr: \(address)",
          "  secret: ghlogin-test-http-secret", "  tls:", "    certificate: \(certificates)/server.pem",
          "    key: \(certificates)/server.key",
        ]
        if authorized {
          lines += [
            "auth:", "  token:", "    realm: https://127.0.0.1:\(tokenPort)/token",
            "    service: ghlogin-test-registry",
            "    issuer: ghlogin-test-issuer", "    rootcertbundle: \(root.at("jwt.pem"))",
          ]
        }
        let config = root.at("\(name).yml")
        try (lines.joined(separator: "\n") + "\n").write(toFile: config, atomically: true, encoding: .utf8)
        let child = try ChildProcess(
          executable: registry, arguments: ["serve", config], environment: ["PATH": "/usr/bin:/bin"], stdin: nil)
        children.append(child)
        _ = try child.waitForLine(.stderr, timeout: 30) { $0.contains("listening on") }
      }
      // The world is a static, never deinitialized: the fake and the token server end with the
      // test process (their stdin's EOF), the registries read no stdin. This watcher does, and
      // when it ends takes the registries and the directory with it.
      let watcher = try ChildProcess(
        executable: "/bin/sh",
        arguments: ["-c", #"cat >/dev/null; kill "$@" 2>/dev/null; rm -rf "$0""#, root.path]
          + children.dropFirst().map { String($0.pid) },
        environment: ["PATH": "/usr/bin:/bin"])
      children.append(watcher)

      loggedIn = try makeHome("in", registries: [privateRegistry], loggedIn: true)
      loggedOut = try makeHome("out", registries: [privateRegistry, publicRegistry], loggedIn: false)

      // The image, pushed to the private registry through the helper and to the public one without.
      let layout = root.at("layout")
      let made = try run(
        HarnessPaths.python3, [HarnessPaths.packageRoot + "/Tests/Scripts/make_oci_layout.py", layout, "v1"])
      guard made.status == 0 else { throw HarnessError("make_oci_layout.py failed: \(made.stderr)") }
      for destination in [privateRegistry, publicRegistry] {
        let pushed = try run(
          skopeo,
          [
            "--insecure-policy", "copy", "--dest-cert-dir", certDir, "oci:\(layout):v1",
            "docker://\(destination)/\(ContainerRegistryEndToEndTests.image)",
          ], environment: environment(loggedIn))
        guard pushed.status == 0 else { throw HarnessError("skopeo copy to \(destination) failed: \(pushed.stderr)") }
      }
    }

    deinit {
      for child in children { child.closeStdin() }
      fake.stop()
    }

    /// A HOME with ghlogin's config (host github.test, `container_registries`), the helper link
    /// on PATH, optionally the login, and docker's config written by `ghlogin setup-docker`.
    func makeHome(_ name: String, registries: [String], loggedIn: Bool) throws -> String {
      let home = root.at(name)
      for directory in ["", "/.config", "/.config/ghlogin", "/bin", "/run"] {
        try FileManager.default.createDirectory(
          atPath: home + directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
      }
      let binary = try HarnessPaths.ghloginBinary()
      try FileManager.default.createSymbolicLink(
        atPath: home + "/bin/docker-credential-ghlogin", withDestinationPath: binary)
      let config = try JSONSerialization.data(withJSONObject: [
        "host": "github.test", "container_registries": registries,
      ])
      try config.write(to: URL(fileURLWithPath: home + "/.config/ghlogin/config.json"))
      if loggedIn {
        try CredentialsFile.write(
          ["github.test": ("octocat", 1, ContainerRegistryEndToEndTests.token)],
          to: home + "/.config/ghlogin/credentials.json", scopes: ["repo", "read:packages"])
      }
      let setup = try runGHLogin(["setup-docker"], env: environment(home))
      guard setup.status == 0 else { throw HarnessError("setup-docker failed: \(setup.stderr)") }
      return home
    }

    /// What skopeo, podman and the helper run with: a HOME of the tests, nothing else inherited.
    func environment(_ home: String) -> [String: String] {
      [
        "HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_RUNTIME_DIR": home + "/run",
        "PATH": home + "/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "TMPDIR": root.path,
      ]
    }

    func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws
      -> (status: Int32, stdout: String, stderr: String)
    {
      try ChildProcess(executable: executable, arguments: arguments, environment: environment, stdin: "")
        .finish(timeout: 120)
    }

    /// `podman` with its own storage (vfs, rootful, no daemon) under the test's directory.
    func podman(_ home: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
      let storage = root.at("podman-" + FilePath.name(of: home))
      return try run(
        podman,
        [
          "--root", storage + "/root", "--runroot", storage + "/runroot", "--storage-driver", "vfs",
          "--cgroup-manager", "cgroupfs", "--events-backend", "none",
        ] + arguments, environment: environment(home))
    }

    /// Requests the token server logged: (authorization sent, granted).
    func tokenRequests() -> [(authorization: Bool, granted: Bool)] {
      let text = (try? String(contentsOfFile: tokenLog, encoding: .utf8)) ?? ""
      return text.split(separator: "\n").compactMap { line in
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
          return nil
        }
        return ((object["authorization"] as? Bool) ?? false, (object["granted"] as? Bool) ?? false)
      }
    }
  }

  static let world = TestLock<Result<World, any Error>?>(nil)

  /// The shared world, or nil when a client is missing outside CI (skipped).
  static func shared() throws -> World? {
    let skopeo = RealClients.onPath("skopeo")
    let podman = RealClients.onPath("podman")
    let registry = RealClients.onPath("docker-registry")
    guard try RealClients.available([("skopeo", skopeo), ("podman", podman), ("docker-registry", registry)]),
      let skopeo, let podman, let registry
    else { return nil }
    return try world.withLock { cached in
      if let cached { return try cached.get() }
      let result = Result<World, any Error> { try World(skopeo: skopeo, podman: podman, registry: registry) }
      cached = result
      return try result.get()
    }
  }

  @Test func skopeoInspectsThePrivateImageThroughTheHelper() throws {
    guard let world = try Self.shared() else { return }
    let before = world.tokenRequests().count
    let run = try world.run(
      world.skopeo, ["inspect", "--cert-dir", world.certDir, "docker://\(world.privateRegistry)/\(Self.image)"],
      environment: world.environment(world.loggedIn))
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("\"Digest\""))
    #expect(world.tokenRequests().dropFirst(before).contains { $0.granted })
  }

  @Test func podmanPullsThePrivateImageThroughTheHelper() throws {
    guard let world = try Self.shared() else { return }
    let run = try world.podman(
      world.loggedIn, ["pull", "--cert-dir", world.certDir, "\(world.privateRegistry)/\(Self.image)"])
    #expect(run.status == 0, "\(run.stderr)")
    let inspect = try world.podman(world.loggedIn, ["image", "inspect", "\(world.privateRegistry)/\(Self.image)"])
    #expect(inspect.status == 0, "\(inspect.stderr)")
  }

  @Test func aLoggedOutHelperStillLetsPublicImagesThrough() throws {
    guard let world = try Self.shared() else { return }
    let environment = world.environment(world.loggedOut)
    let inspect = try world.run(
      world.skopeo, ["inspect", "--cert-dir", world.certDir, "docker://\(world.publicRegistry)/\(Self.image)"],
      environment: environment)
    #expect(inspect.status == 0, "\(inspect.stderr)")
    let pull = try world.podman(
      world.loggedOut, ["pull", "--cert-dir", world.certDir, "\(world.publicRegistry)/\(Self.image)"])
    #expect(pull.status == 0, "\(pull.stderr)")
    // The private image stays private: the helper gave no credential.
    let denied = try world.run(
      world.skopeo, ["inspect", "--cert-dir", world.certDir, "docker://\(world.privateRegistry)/\(Self.image)"],
      environment: environment)
    #expect(denied.status != 0)
    #expect(!(denied.stdout + denied.stderr).contains(Self.token))
  }

  /// A global `credsStore: ghlogin` (docker then asks ghlogin for every registry; setup-docker
  /// never sets it) widens nothing: the helper answers "not found" for the unmapped public
  /// registry, and a public pull still works. (containers/image, under skopeo and podman, reads
  /// only `credHelpers` and `auths`, not `credsStore`: with this file skopeo does not call the
  /// helper at all, so the helper is also asked directly here.)
  @Test func aGlobalCredsStoreGivesNoTokenToAnUnmappedRegistry() throws {
    guard let world = try Self.shared() else { return }
    let home = try world.makeHome("global", registries: [world.privateRegistry], loggedIn: true)
    try Data(#"{"credsStore": "ghlogin"}"#.utf8).write(to: URL(fileURLWithPath: home + "/.docker/config.json"))
    let environment = world.environment(home)
    let helper = try ChildProcess(
      executable: home + "/bin/docker-credential-ghlogin", arguments: ["get"], environment: environment,
      stdin: world.publicRegistry + "\n"
    ).finish(timeout: 30)
    #expect(helper.status == 1)
    #expect(helper.stdout == "credentials not found in native keychain\n")
    let inspect = try world.run(
      world.skopeo, ["inspect", "--cert-dir", world.certDir, "docker://\(world.publicRegistry)/\(Self.image)"],
      environment: environment)
    #expect(inspect.status == 0, "\(inspect.stderr)")
  }

  /// The docker CLI where it is installed: the one client skipped when absent, even under CI
  /// (Debian's docker.io brings a daemon that cannot run on these machines).
  @Test func dockerManifestInspectThroughTheHelper() throws {
    guard let docker = RealClients.onPath("docker") else {
      print("skipping: the docker CLI is not installed (allowed: it needs a daemon)")
      return
    }
    guard let world = try Self.shared() else { return }
    var environment = world.environment(world.loggedIn)
    environment["DOCKER_CONFIG"] = world.loggedIn + "/.docker"
    let run = try world.run(
      docker, ["manifest", "inspect", "\(world.privateRegistry)/\(Self.image)"], environment: environment)
    #expect(run.status == 0, "\(run.stderr)")
  }
}

/// `count` TCP ports free on 127.0.0.1 at the time of asking.
private func freePorts(_ count: Int) throws -> [Int] {
  let code = """
    import socket
    socks = [socket.socket() for _ in range(\(count))]
    for s in socks: s.bind(("127.0.0.1", 0))
    print(" ".join(str(s.getsockname()[1]) for s in socks))
    """
  let result = try ChildProcess(executable: HarnessPaths.python3, arguments: ["-c", code], stdin: "").finish(
    timeout: 20)
  let ports = result.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
  guard ports.count == count else { throw HarnessError("could not find free ports: \(result.stderr)") }
  return ports
}

private enum FilePath {
  static func name(of path: String) -> String { String(path.split(separator: "/").last ?? "") }
}
