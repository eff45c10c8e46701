import Foundation
import Testing

/// Paste-back on the real binary: `ghlogin auth --no-browser` with a pseudo-terminal on stdin
/// (Python's `pty`), the redirect address fetched from the fake without following it, and
/// typed into the terminal as a person would paste it.
@Suite struct PasteBackEndToEndTests {
  /// Starts ghlogin with a pty as stdin, waits for the prompt, types a malformed line, waits
  /// for the complaint, then types the address the fake redirected to. Prints JSON:
  /// `{"status", "stderr", "complaint"}`.
  static let driver = #"""
    import json, os, signal, subprocess, sys
    ghlogin, fake_browser, ca = sys.argv[1:4]
    signal.alarm(60)
    master, slave = os.openpty()
    proc = subprocess.Popen([ghlogin, "auth", "--no-browser", "--timeout", "60"], stdin=slave,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    os.close(slave)
    err = []
    def line():
        text = proc.stderr.readline().decode()
        err.append(text)
        if not text:
            raise SystemExit(json.dumps({"status": proc.wait(), "stderr": "".join(err), "complaint": None}))
        return text
    url = None
    while True:
        text = line()
        if text.startswith("https://"):
            url = text.strip()
        if text.startswith("If your browser cannot reach this machine"):
            break
    os.write(master, b"this is not it\n")
    complaint = line()
    out = subprocess.run([sys.executable, fake_browser, url, "--ca", ca, "--no-follow"],
                         capture_output=True, text=True, timeout=30)
    location = json.loads(out.stdout.strip().splitlines()[-1])["authorize"]["location"]
    os.write(master, (location + "\n").encode())
    rest = proc.stderr.read().decode()
    status = proc.wait()
    print(json.dumps({"status": status, "stderr": "".join(err) + rest, "complaint": complaint,
                      "location": location}))
    """#

  @Test func pastedRedirectLogsIn() throws {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    let child = try ChildProcess(
      executable: HarnessPaths.python3,
      arguments: [
        "-c", Self.driver, try HarnessPaths.ghloginBinary(), HarnessPaths.fakeGitHubDirectory + "/fake_browser.py",
        fake.caFile,
      ],
      environment: sandbox.environment(), stdin: "")
    let result = try child.finish(timeout: 90)
    let line = try #require(result.stdout.split(separator: "\n").last, "driver said: \(result.stderr)")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    let stderr = report["stderr"] as? String ?? ""
    #expect(report["status"] as? Int == 0, "\(stderr)")
    #expect(
      report["complaint"] as? String
        == "That address was not accepted: it is not a URL (it contains a space, a control character or a "
        + "non-ASCII character). Paste the whole address from the browser's address bar, or wait for the browser:\n")
    #expect(stderr.hasSuffix("Logged in to github.test as octocat\nTo let git use this login: ghlogin setup-git\n"))
    let location = try #require(report["location"] as? String)
    #expect(location.hasPrefix("http://127.0.0.1:"))
    // The code went through the fake's token endpoint once; nothing reached the listener itself.
    #expect(try fake.requests(path: "/login/oauth/access_token").count == 1)
    let credentials = try #require(sandbox.credentialsJSON())
    #expect((credentials["hosts"] as? [String: Any])?["github.test"] != nil)
  }
}
