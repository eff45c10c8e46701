import Foundation
import Testing

/// R81: `auth --with-token` on a terminal reads the token with the echo off (never
/// shown), and gives the terminal back as it was, also after Ctrl-C. Driven through a
/// pseudo-terminal by a small Python harness.
@Suite struct WithTokenTerminalTests {
  static let pat = "ghp_terminalPAT0123456789abcdefghijklmnop"

  /// Runs ghlogin with a pty as stdin; `mode` "type" writes the token and a newline once the
  /// echo is off, "interrupt" sends SIGINT instead. Prints one JSON line.
  static let harness = #"""
    import json, os, pty, select, signal, subprocess, sys, termios, time
    binary, env, mode, token = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3], sys.argv[4]
    master, slave = pty.openpty()
    child = subprocess.Popen([binary, "auth", "--with-token"], stdin=slave, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env)
    echo = lambda: bool(termios.tcgetattr(slave)[3] & termios.ECHO)
    deadline = time.time() + 20
    while echo() and time.time() < deadline and child.poll() is None:
        time.sleep(0.02)
    echo_while_reading = echo()
    if mode == "type":
        os.write(master, (token + "\n").encode())
    else:
        child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    shown = b""
    while select.select([master], [], [], 0.3)[0]:
        data = os.read(master, 4096)
        if not data:
            break
        shown += data
    print(json.dumps({"status": child.returncode, "stdout": out.decode(), "stderr": err.decode(),
                      "echo_while_reading": echo_while_reading, "echo_after": echo(),
                      "shown": shown.decode("latin-1")}))
    """#

  func drive(_ scenario: Scenario, mode: String) async throws -> [String: Any] {
    let binary = try HarnessPaths.ghloginBinary()
    let env = String(
      decoding: try JSONSerialization.data(withJSONObject: Spawn.pinned(scenario.environment())), as: UTF8.self)
    let result = try await offload { try runPython(Self.harness, [binary, env, mode, Self.pat], timeout: 60) }
    let line = try #require(result.stdout.split(separator: "\n").last, "\(result)")
    return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
  }

  @Test func theTokenIsReadWithTheEchoOff() async throws {
    let scenario = try await Scenario.start()
    try scenario.fake.register(["tokens": [["access_token": Self.pat, "login": "octocat"]]])
    let report = try await drive(scenario, mode: "type")
    #expect(report["status"] as? Int == 0, "\(report)")
    #expect(report["echo_while_reading"] as? Bool == false)
    #expect(report["echo_after"] as? Bool == true)
    #expect(report["shown"] as? String == "\r\n", "only the newline is echoed")
    #expect(
      report["stderr"] as? String == "Paste the token (it will not be shown), then press Enter:\n"
        + "Logged in to github.test as octocat (token from standard input)\n"
        + "To let git use this login: ghlogin setup-git\n")
    let hosts = scenario.sandbox.credentialsJSON()?["hosts"] as? [String: Any]
    let account = ((hosts?["github.test"] as? [String: Any])?["accounts"] as? [[String: Any]])?.first
    #expect(account?["token"] as? String == Self.pat)
  }

  @Test func ctrlCRestoresTheEchoAndStoresNothing() async throws {
    let scenario = try await Scenario.start()
    let report = try await drive(scenario, mode: "interrupt")
    #expect(report["status"] as? Int == -Int(SIGINT), "death by SIGINT (130 in a shell): \(report)")
    #expect(report["echo_while_reading"] as? Bool == false)
    #expect(report["echo_after"] as? Bool == true)
    #expect(
      report["stderr"] as? String == "Paste the token (it will not be shown), then press Enter:\n"
        + "ghlogin: interrupted; nothing was stored\n")
    expectNothingStored(scenario)
    #expect(try scenario.fake.log().isEmpty)
  }
}
