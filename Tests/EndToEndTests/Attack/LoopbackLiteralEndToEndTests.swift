import Foundation
import GHLoginTestSupport
import Testing

/// R98 on the built binary: only 127.0.0.0/8 in canonical dotted decimal and
/// IPv6 `::1` may take plain `http://`, for every URL key, through `config set` and a load
/// alike (the same decoder); `http://127.0.0.08` is not looked up and sent the token.
@Suite struct LoopbackLiteralEndToEndTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let host: String
    let outcome: LoopbackSpelling.Outcome
    var testDescription: String { host }
  }

  static let cases = LoopbackSpelling.table.map { Case(host: $0.host, outcome: $0.outcome) }
  static let token = "gho_loopbackLiteral0123456789abcdefghijkl"

  /// The message a refused URL gets for `key` in `file` (after `ghlogin: `).
  static func message(_ outcome: LoopbackSpelling.Outcome, file: String, key: String) -> String? {
    switch outcome {
    case .loopback: nil
    case .insecure:
      "\(file): \"\(key)\" uses http://; https is required except for literal loopback addresses (127.0.0.0/8 as "
        + "four plain decimal numbers such as 127.0.0.1, or [::1]), not the name localhost, which may resolve elsewhere\n"
    case .invalid(let reason): "\(file): \"\(key)\" is not a valid URL: \(reason)\n"
    }
  }

  /// `config set KEY http://HOST:8080/x` for every URL key, top level and in a host block.
  @Test(arguments: cases)
  func configSet(_ spelling: Case) throws {
    let home = try TemporaryDirectory(prefix: "ghlogin-loopback")
    let env = ["HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    let file = home.path + "/.config/ghlogin/config.json"
    let url = "http://\(spelling.host):8080/x"
    for key in LoopbackSpelling.urlKeys {
      for (host, path) in [(nil, key), ("ghe.example.com", "hosts.ghe.example.com." + key)] as [(String?, String)] {
        let hostArgs = host.map { ["--host", $0] } ?? []
        let before = try? Data(contentsOf: URL(fileURLWithPath: file))
        let run = try runGHLogin(["config", "set"] + hostArgs + [key, url], env: env)
        if let message = Self.message(spelling.outcome, file: file, key: path) {
          #expect(run.status == 2, "\(key) \(run)")
          #expect(run.stderr == "ghlogin: " + message, "\(key)")
          let after = try? Data(contentsOf: URL(fileURLWithPath: file))
          #expect(after == before, "\(key): the file changed")
        } else {
          #expect(run == (0, "", ""), "\(key)")
          #expect(try runGHLogin(["config", "get"] + hostArgs + [key], env: env) == (0, url + "\n", ""), "\(key)")
        }
      }
    }
  }

  /// A config file holding the URL, loaded by `token` (which needs no network): the same outcome.
  @Test(arguments: cases)
  func configLoad(_ spelling: Case) throws {
    let home = try TemporaryDirectory(prefix: "ghlogin-loopback")
    let env = ["HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    let directory = home.path + "/.config/ghlogin"
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let file = directory + "/config.json"
    for key in LoopbackSpelling.urlKeys {
      let text = #"{"host": "ghe.example.com", "client_id": "Iv1.x", "\#(key)": "http://\#(spelling.host):8080/x"}"#
      try Data(text.utf8).write(to: URL(fileURLWithPath: file))
      let run = try runGHLogin(["token"], env: env)
      if let message = Self.message(spelling.outcome, file: file, key: key) {
        #expect(run.status == 2, "\(key) \(run)")
        #expect(run.stderr == "ghlogin: " + message, "\(key)")
      } else {
        #expect(run.status == 4, "\(key) \(run)")
        #expect(run.stderr.hasPrefix("ghlogin: not logged in to ghe.example.com"), "\(key) \(run)")
      }
    }
  }

  /// The attack: `api_url` `http://127.0.0.08:PORT`, where "DNS" (the debug build's resolver
  /// map) says 127.0.0.1 and a listener waits. `whoami` now stops at the config; the listener
  /// never sees a connection, let alone the token.
  @Test func plantedNonCanonicalLoopbackGetsNoToken() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let listener = try ChildProcess(
      executable: HarnessPaths.python3,
      arguments: [
        "-c",
        "import socket, sys\ns = socket.socket()\ns.bind(('127.0.0.1', 0))\ns.listen(1)\n"
          + "print(s.getsockname()[1], flush=True)\ns.settimeout(5)\n"
          + "try:\n  c, _ = s.accept()\n  c.settimeout(5)\n  print('GOT', c.recv(65536), flush=True)\n"
          + "except socket.timeout:\n  print('NOTHING', flush=True)\n",
      ])
    let port = try await offload { try listener.waitForLine(.stdout, timeout: 10) { Int($0) != nil } }
    try scenario.sandbox.writeConfig(["api_url": "http://127.0.0.08:\(port)"])
    let resolve = scenario.fake.resolveValue + ",127.0.0.08:\(port):127.0.0.1"
    let run = try await scenario.run(["whoami"], env: ["GHLOGIN_TEST_RESOLVE": resolve])
    let heard = try await offload { try listener.finish(timeout: 20) }
    #expect(run.status == 2, "\(run)")
    #expect(
      run.stderr
        == "ghlogin: " + (Self.message(.insecure, file: scenario.sandbox.configFile, key: "api_url") ?? ""))
    #expect(heard.stdout.hasSuffix("NOTHING\n"), "\(heard)")
    #expect(!heard.stdout.contains(Self.token))
    #expect(try scenario.fake.requests().isEmpty)
  }
}
