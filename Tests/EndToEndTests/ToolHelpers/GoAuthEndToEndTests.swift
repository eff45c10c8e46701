import Foundation
import GHLoginTestSupport
import Testing

/// The real go command (Go >= 1.24 from the test tools) fetching a private module from an HTTPS
/// module proxy on 127.0.0.1 that wants the token, with `GOAUTH="ghlogin goauth"` (R104, R105).
@Suite(.serialized) struct GoAuthEndToEndTests {
  static let token = "gho_E2Egoauth0000000000000000000000000001"
  static let module = "example.test/private@v1.0.0"

  /// A module proxy (`Tests/Scripts/module_proxy.py`) and the requests it logged.
  final class Proxy {
    let child: ChildProcess
    let port: Int
    let log: String

    init(directory: String, name: String, basic: String?) throws {
      let certificates = try TestCertificates.directory()
      log = directory + "/" + name + ".log"
      guard FileManager.default.createFile(atPath: log, contents: nil) else {
        throw HarnessError("could not create \(log)")
      }
      var arguments = [
        HarnessPaths.packageRoot + "/Tests/Scripts/module_proxy.py", certificates + "/server.pem",
        certificates + "/server.key", log,
      ]
      if let basic { arguments += ["--basic", basic] }
      child = try ChildProcess(executable: HarnessPaths.python3, arguments: arguments, environment: nil, stdin: nil)
      guard let port = Int(try child.waitForLine(.stdout, timeout: 20) { Int($0) != nil }) else {
        throw HarnessError("module_proxy.py printed no port")
      }
      self.port = port
    }

    var url: String { "https://127.0.0.1:\(port)" }

    /// Each request: its path and its Authorization header (nil when none).
    func requests() -> [(path: String, authorization: String?)] {
      let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
      return text.split(separator: "\n").compactMap { line in
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
          let path = object["path"] as? String
        else { return nil }
        return (path, object["authorization"] as? String)
      }
    }

    deinit { child.closeStdin() }
  }

  /// Runs `go mod download` of the module through `other|protected` with `goauth`.
  func download(goauth: String) throws -> (
    status: Int32, output: String, protected: Proxy, other: Proxy, home: TemporaryDirectory
  )? {
    guard try RealClients.available([("go (scripts/test-tools.sh)", RealClients.go)]), let go = RealClients.go else {
      return nil
    }
    let home = try TemporaryDirectory(prefix: "ghlogin-goauth")
    for directory in [".config", ".config/ghlogin", "bin", "work"] {
      try FileManager.default.createDirectory(
        atPath: home.at(directory), withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }
    try FileManager.default.createSymbolicLink(
      atPath: home.at("bin/ghlogin"), withDestinationPath: try HarnessPaths.ghloginBinary())
    let protected = try Proxy(directory: home.path, name: "protected", basic: "octocat:\(Self.token)")
    let other = try Proxy(directory: home.path, name: "other", basic: nil)
    try CredentialsFile.write(
      ["127.0.0.1:\(protected.port)": ("octocat", 1, Self.token)], to: home.at(".config/ghlogin/credentials.json"))
    let environment = [
      "HOME": home.path, "XDG_CONFIG_HOME": home.at(".config"), "PATH": home.at("bin") + ":/usr/bin:/bin",
      "GOAUTH": goauth, "GOTOOLCHAIN": "local", "GOSUMDB": "off", "GOFLAGS": "-modcacherw", "GOENV": "off",
      "GOPROXY": "\(other.url)|\(protected.url)", "GOPATH": home.at("gopath"), "GOMODCACHE": home.at("modcache"),
      "GOCACHE": home.at("gocache"), "SSL_CERT_FILE": try TestCertificates.directory() + "/ca.pem",
      "LANG": "C.UTF-8",
    ]
    let child = try ChildProcess(
      executable: go, arguments: ["mod", "download", "-x", Self.module], environment: environment, stdin: "")
    let result = try child.finish(timeout: 120)
    return (result.status, result.stdout + result.stderr, protected, other, home)
  }

  @Test func goModDownloadWorksWithGhloginGoauth() throws {
    guard let run = try download(goauth: "ghlogin goauth") else { return }
    #expect(run.status == 0, "go mod download failed:\n\(run.output)")
    let protected = run.protected.requests()
    // Nothing disclosed before the server asked: the first request carries no credential.
    #expect(protected.first?.authorization == nil)
    #expect(protected.contains { $0.path.hasSuffix(".zip") && $0.authorization != nil })
    // The other host never sees ghlogin's credential (it has no login there).
    #expect(!run.other.requests().isEmpty)
    #expect(run.other.requests().allSatisfy { $0.authorization == nil })
  }

  @Test func goModDownloadFailsWithGoauthOff() throws {
    guard let run = try download(goauth: "off") else { return }
    #expect(run.status != 0)
    #expect(run.protected.requests().allSatisfy { $0.authorization == nil })
  }
}
