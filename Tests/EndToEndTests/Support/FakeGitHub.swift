import Foundation

/// A running `Tests/FakeGitHub/fake_github.py`: a strict fake of GitHub's OAuth endpoints and
/// REST API over TLS on 127.0.0.1, plus its plain-HTTP control port.
///
/// The process is stopped by ``stop()`` or when the object goes away (its stdin is closed, and
/// it exits on EOF), so it never outlives the test process. See `Tests/FakeGitHub/README.md` for
/// the script keys, directives and log entries.
final class FakeGitHub: @unchecked Sendable {
  /// The TLS port (serves github.test, api.github.test, ghe.test and 127.0.0.1).
  let port: Int
  /// The plain-HTTP control port on 127.0.0.1.
  let controlPort: Int
  /// The certificate directory made by `make_certs.sh`.
  let certDir: String
  /// The test CA to trust (`SSL_CERT_FILE`).
  let caFile: String
  private let child: ChildProcess

  private init(port: Int, controlPort: Int, certDir: String, child: ChildProcess) {
    self.port = port
    self.controlPort = controlPort
    self.certDir = certDir
    self.caFile = certDir + "/ca.pem"
    self.child = child
  }

  deinit { stop() }

  /// Starts a fake presenting `certName` (`server`, `wronghost`, `expired`, `selfsigned`);
  /// `extraArgs` go to fake_github.py (for example `["--tls-max", "1.1"]`).
  static func start(certName: String = "server", extraArgs: [String] = []) throws -> FakeGitHub {
    let certDir = try TestCertificates.directory()
    let script = HarnessPaths.fakeGitHubDirectory + "/fake_github.py"
    let child = try ChildProcess(
      executable: HarnessPaths.python3,
      arguments: [script, "--certs", certDir, "--cert-name", certName] + extraArgs)
    let line = try child.waitForLine(.stdout, timeout: 20) { $0.hasPrefix("{") }
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let port = object["port"] as? Int, let controlPort = object["control_port"] as? Int
    else {
      throw HarnessError("fake_github.py printed an unexpected first line: \(line)")
    }
    return FakeGitHub(port: port, controlPort: controlPort, certDir: certDir, child: child)
  }

  /// Stops the fake (closes its stdin, then waits up to 3 s before killing it). Idempotent.
  func stop() {
    child.closeStdin()
    _ = try? child.finish(timeout: 3)
  }

  /// What the fake wrote on stderr (Python tracebacks, if any), for diagnosing a failing test.
  var serverStderr: String { child.text(.stderr) }

  // MARK: Names and URLs

  /// `https://github.test:PORT` (web endpoints).
  var webBase: String { "https://github.test:\(port)" }
  /// `https://api.github.test:PORT` (REST API root).
  var apiBase: String { "https://api.github.test:\(port)" }
  /// `https://ghe.test:PORT` (Enterprise-style host; API under `/api/v3`).
  var gheBase: String { "https://ghe.test:\(port)" }
  /// The value for `GHLOGIN_TEST_RESOLVE`: every test name mapped to 127.0.0.1 on this port.
  var resolveValue: String {
    ["github.test", "api.github.test", "ghe.test"].map { "\($0):\(port):127.0.0.1" }
      .joined(separator: ",")
  }

  // MARK: Control

  /// Merges a script update (`POST /control/script`); throws when the fake refuses it.
  func script(_ json: [String: Any]) throws {
    _ = try control("POST", "/control/script", json)
  }

  /// Registers users, apps, tokens and refresh tokens (`POST /control/users`).
  func register(_ json: [String: Any]) throws {
    _ = try control("POST", "/control/users", json)
  }

  /// Revokes the live token `token`, as GitHub does when its user revokes it (`POST /control/revoke`).
  func revoke(_ token: String) throws {
    _ = try control("POST", "/control/revoke", ["access_token": token])
  }

  /// Every connection and request seen on the TLS side, oldest first (`GET /control/log`).
  func log() throws -> [[String: Any]] {
    guard let entries = try control("GET", "/control/log", nil) as? [[String: Any]] else {
      throw HarnessError("control log is not an array")
    }
    return entries
  }

  /// The request entries of the log, optionally only those for `path`.
  func requests(path: String? = nil) throws -> [[String: Any]] {
    try log().filter { entry in
      entry["type"] as? String == "request" && (path == nil || entry["path"] as? String == path)
    }
  }

  /// Waits until the fake has read a whole request for `path` (`GET /control/wait`), and returns
  /// its log entry; throws when none arrives within `timeout` seconds. The fake logs a request
  /// before it answers it (and before any scripted delay), so when this returns the client is
  /// waiting for the answer: a readiness signal, in place of a sleep.
  @discardableResult
  func waitForRequest(path: String, timeout: Double = 20) throws -> [String: Any] {
    let query = "path=\(path)&timeout=\(timeout)"
    guard let entry = try control("GET", "/control/wait?" + query, nil, timeout: timeout + 10) as? [String: Any]
    else { throw HarnessError("control wait answer is not an object") }
    return entry
  }

  /// The connection entries of the log (TLS outcome, SNI, request count), after waiting up to
  /// `settle` seconds for handshakes still `pending` to end: a client gives up on a certificate
  /// before the fake has read its alert.
  func connections(settle: Double = 2) throws -> [[String: Any]] {
    let deadline = Date(timeIntervalSinceNow: settle)
    while true {
      let entries = try log().filter { $0["type"] as? String == "connection" }
      if entries.allSatisfy({ $0["tls"] as? String != "pending" }) || Date() > deadline {
        return entries
      }
      Thread.sleep(forTimeInterval: 0.02)
    }
  }

  /// Counters, tokens, codes, device sessions and the current script (`GET /control/state`).
  func state() throws -> [String: Any] {
    guard let state = try control("GET", "/control/state", nil) as? [String: Any] else {
      throw HarnessError("control state is not an object")
    }
    return state
  }

  /// One counter from ``state()`` (0 when never incremented), e.g. `refresh_requests`.
  func counter(_ name: String) throws -> Int {
    (try state()["counters"] as? [String: Any])?[name] as? Int ?? 0
  }

  /// Everything back to the defaults (`POST /control/reset`).
  func reset() throws {
    _ = try control("POST", "/control/reset", [:])
  }

  /// Empties the log only (`POST /control/clear_log`).
  func clearLog() throws {
    _ = try control("POST", "/control/clear_log", [:])
  }

  /// Sends one control request and decodes the JSON answer; a non-200 status throws with the
  /// fake's error text.
  private func control(_ method: String, _ path: String, _ body: Any?, timeout: Double = 10) throws -> Any {
    var bytes: [UInt8] = []
    if let body {
      bytes = Array(try JSONSerialization.data(withJSONObject: body))
    }
    let response = try ControlHTTP.send(method: method, port: controlPort, path: path, body: bytes, timeout: timeout)
    let decoded = try? JSONSerialization.jsonObject(
      with: Data(response.body), options: [.fragmentsAllowed])
    guard response.status == 200, let decoded else {
      let text = String(decoding: response.body, as: UTF8.self)
      throw HarnessError("control \(method) \(path) -> \(response.status): \(text)")
    }
    return decoded
  }
}

extension Dictionary where Key == String, Value == Any {
  /// The first value of header `name` in a request log entry
  /// (its `headers` map lowercased names to lists of values).
  func header(_ name: String) -> String? {
    ((self["headers"] as? [String: Any])?[name.lowercased()] as? [String])?.first
  }

  /// The first value of form field `name` in a request log entry.
  func formValue(_ name: String) -> String? {
    ((self["form"] as? [String: Any])?[name] as? [String])?.first
  }

  /// The first value of query parameter `name` in a request log entry.
  func queryValue(_ name: String) -> String? {
    ((self["query_params"] as? [String: Any])?[name] as? [String])?.first
  }
}
