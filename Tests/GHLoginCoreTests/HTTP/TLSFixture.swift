import Foundation
import GHLoginTestSupport
import Synchronization

/// Certificates made with the `openssl` command, and a Python `ssl` server (plus CONNECT proxy) using them.
///
/// An independent TLS implementation, so the client is not tested against itself.
final class TLSFixture: Sendable {
  let directory: String

  /// Whether `python3` (with `ssl`) and `openssl` can run here.
  static let toolsAvailable: Bool = python != nil && run(["openssl", "version"])

  /// The real Python interpreter (skipping launcher shims, which cost a start-up each time).
  static let python: String? = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import ssl, sys; print(sys.executable)"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let path = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return process.terminationStatus == 0 && !path.isEmpty ? path : nil
  }()

  /// One set of certificates for the whole test process (made once, on first use).
  static let shared: TLSFixture? = try? TLSFixture()

  var caFile: String { directory + "/ca.pem" }

  private init() throws {
    directory = try makeTemporaryDirectory(prefix: "ghlogin-tls")
    try "".write(toFile: directory + "/index.txt", atomically: true, encoding: .utf8)
    try "1000\n".write(toFile: directory + "/serial", atomically: true, encoding: .utf8)
    let config = """
      [ ca ]
      default_ca = testca
      [ testca ]
      database = \(directory)/index.txt
      new_certs_dir = \(directory)
      serial = \(directory)/serial
      default_md = sha256
      policy = anything
      [ anything ]
      commonName = supplied
      """
    try config.write(toFile: directory + "/ca.cnf", atomically: true, encoding: .utf8)
    let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    try check(
      ["openssl", "req", "-x509"] + ec + [
        "-keyout", "ca.key", "-out", "ca.pem", "-days", "3", "-subj", "/CN=ghlogin test CA",
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
      ])
    try leaf("good", sans: "DNS:github.test,DNS:localhost,IP:127.0.0.1")
    try leaf("other", sans: "DNS:other.test")
    try leaf("expired", sans: "DNS:github.test,IP:127.0.0.1", dates: ("20200101000000Z", "20200102000000Z"))
    try FileManager.default.copyItem(atPath: Self.script, toPath: directory + "/fake_tls.py")
  }

  private func leaf(_ name: String, sans: String, dates: (String, String)? = nil) throws {
    let ext = "subjectAltName=\(sans)\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
    try ext.write(toFile: "\(directory)/\(name).ext", atomically: true, encoding: .utf8)
    try check([
      "openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
      "-keyout", "\(name).key", "-out", "\(name).csr", "-subj", "/CN=\(name)",
    ])
    let validity = dates.map { ["-startdate", $0.0, "-enddate", $0.1] } ?? ["-days", "2"]
    try check(
      [
        "openssl", "ca", "-batch", "-notext", "-config", "ca.cnf", "-cert", "ca.pem", "-keyfile", "ca.key",
        "-in", "\(name).csr", "-out", "\(name).pem", "-extfile", "\(name).ext",
      ] + validity)
  }

  struct CommandFailed: Error { var command: [String] }

  private func check(_ arguments: [String]) throws {
    guard Self.run(arguments, in: directory) else { throw CommandFailed(command: arguments) }
  }

  @discardableResult
  static func run(_ arguments: [String], in directory: String? = nil) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }

  /// Starts the Python server with `leaf` (good, other, expired); `mode` is "normal" or "tls11".
  func startServer(leaf: String, mode: String = "normal") throws -> FakeTLSServer {
    try FakeTLSServer(fixture: self, leaf: leaf, mode: mode)
  }

  /// The server, a real Python file: Tests/FakeGitHub/fake_tls.py, found from this file's path.
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("FakeGitHub/fake_tls.py").path
}

/// A running `fake_tls.py`: a TLS server on `port`, a CONNECT proxy to it on `proxyPort`, and their log.
final class FakeTLSServer: Sendable {
  let port: Int
  let proxyPort: Int
  private let logPath: String
  private let process: TestLock<Process>

  fileprivate init(fixture: TLSFixture, leaf: String, mode: String) throws {
    logPath = fixture.directory + "/log-" + UUID().uuidString + ".jsonl"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: TLSFixture.python ?? "/usr/bin/python3")
    process.arguments = [
      fixture.directory + "/fake_tls.py", "\(fixture.directory)/\(leaf).pem",
      "\(fixture.directory)/\(leaf).key", mode, logPath,
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    let ports = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    guard ports.count == 2 else {
      kill(process.processIdentifier, SIGKILL)
      throw TLSFixture.CommandFailed(command: process.arguments ?? [])
    }
    port = ports[0]
    proxyPort = ports[1]
    self.process = TestLock(process)
  }

  deinit { stop() }

  /// Kills the server with SIGKILL: a process spawned from a test worker thread inherits its blocked
  /// signal mask, so SIGTERM (`Process.terminate`) may never arrive.
  func stop() {
    process.withLock { process in
      if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
      }
    }
  }

  /// The log entries, waiting up to 5 s until there are at least `count`.
  func log(atLeast count: Int = 1) -> [[String: Any]] {
    for _ in 0..<500 {
      let entries = readLog()
      if entries.count >= count { return entries }
      usleep(10_000)
    }
    return readLog()
  }

  private func readLog() -> [[String: Any]] {
    guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
    }
  }
}
