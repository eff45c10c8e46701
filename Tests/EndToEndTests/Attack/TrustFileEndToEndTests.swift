import Foundation
import Testing

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// R90: a FIFO as `SSL_CERT_FILE` or `ca_file` hung `auth` in `open()` during
/// the TLS warm-up, past `--timeout`, Ctrl-C and SIGTERM. Now trust files are opened without
/// blocking and only a regular file (a directory for `SSL_CERT_DIR`) is used; anything else
/// stops the command at once with a message naming the variable or key, exit 2.
@Suite struct TrustFileEndToEndTests {
  /// Makes a FIFO in the sandbox (no one ever writes to it).
  static func makeFIFO(_ scenario: Scenario, _ name: String = "trust.fifo") throws -> String {
    let path = scenario.sandbox.home + "/" + name
    guard mkfifo(path, 0o600) == 0 else { throw HarnessError("mkfifo \(path): errno \(errno)") }
    return path
  }

  @Test(arguments: [["auth", "--no-browser", "--timeout", "20"], ["auth", "--device"]])
  func authWithAFIFOAsSSLCertFileStopsAtOnce(_ args: [String]) async throws {
    let scenario = try await Scenario.start()
    let fifo = try Self.makeFIFO(scenario)
    let started = Date()
    // A hang on the FIFO lasts until --timeout (20 s) or the harness's kill at 40 s; the bound is
    // wide because the whole suite loads 2 cores (one run took 11 s there; alone it takes 0.3 s).
    let run = try await scenario.run(args, env: ["SSL_CERT_FILE": fifo], timeout: 40)
    #expect(Date().timeIntervalSince(started) < 15)
    #expect(run.status == 2, "\(run)")
    #expect(
      run.stderr.hasSuffix(
        "ghlogin: cannot use SSL_CERT_FILE=\(fifo): it is a FIFO (named pipe), not a regular file; "
          + "point SSL_CERT_FILE at a PEM file of CA certificates, or unset it\n"), "\(run)")
    #expect(!run.stderr.contains("https://"), "no authorize URL before the trust store is usable: \(run)")
    #expect(try scenario.fake.requests().isEmpty)
    expectNothingStored(scenario)
  }

  /// The config's `ca_file` as a FIFO, a directory or a character device: the same, naming the key.
  @Test(arguments: ["fifo", "directory", "/dev/null"])
  func caFileThatIsNotARegularFileIsRefused(_ kind: String) async throws {
    let scenario = try await Scenario.start()
    let path: String
    let described: String
    switch kind {
    case "fifo":
      path = try Self.makeFIFO(scenario)
      described = "a FIFO (named pipe)"
    case "directory":
      path = scenario.sandbox.home
      described = "a directory"
    default:
      path = kind
      described = "a character device"
    }
    try scenario.sandbox.writeConfig(["ca_file": path])
    let run = try await scenario.run(["auth", "--no-browser", "--timeout", "20"], timeout: 15)
    #expect(run.status == 2, "\(run)")
    #expect(
      run.stderr.hasSuffix(
        "ghlogin: cannot use ca_file \(path) from the config: it is \(described), not a regular file; "
          + "set ca_file to a PEM file of CA certificates\n"), "\(run)")
    #expect(try scenario.fake.requests().isEmpty)
  }

  /// `whoami` (a stored login, one request) and `SSL_CERT_DIR` naming a file instead of a directory.
  @Test func sslCertDirThatIsNotADirectoryIsRefused() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: "gho_trustDir0123456789abcdefghijklmnopq")
    let fifo = try Self.makeFIFO(scenario)
    let run = try await scenario.run(["whoami"], env: ["SSL_CERT_DIR": "/nonexistent:" + fifo], timeout: 15)
    #expect(run.status == 2, "\(run)")
    #expect(
      run.stderr
        == "ghlogin: cannot use SSL_CERT_DIR entry \(fifo): it is a FIFO (named pipe), not a directory; "
        + "point SSL_CERT_DIR at directories of CA certificates, or unset it\n", "\(run)")
    #expect(try scenario.fake.requests().isEmpty)

    // A FIFO as SSL_CERT_FILE for whoami: no hang either.
    let file = try await scenario.run(["whoami"], env: ["SSL_CERT_FILE": fifo], timeout: 15)
    #expect(file.status == 2, "\(file)")
    // A regular file and a real directory still work.
    let good = try await scenario.run(["whoami"], env: ["SSL_CERT_DIR": scenario.sandbox.home])
    #expect(good.status == 0, "\(good)")
  }
}
