import Foundation

/// Runs the built `ghlogin` with `args` and `env` (the environment is replaced, not merged),
/// feeding `stdin` if given, and waits for it to exit. Throws a ``HarnessError`` (with the
/// output so far) if it runs longer than `timeout` seconds; the process is then killed.
func runGHLogin(
  _ args: [String], env: [String: String], stdin: String? = nil, timeout: Double = 30
) throws -> (status: Int32, stdout: String, stderr: String) {
  let child = try ChildProcess(
    executable: try HarnessPaths.ghloginBinary(), arguments: args, environment: env,
    stdin: stdin ?? "")
  return try child.finish(timeout: timeout)
}

/// Starts the built `ghlogin` and returns at once, for tests that must act while it runs
/// (for `auth --no-browser`: `waitForLine(.stderr, timeout:) { $0.hasPrefix("https://") }`,
/// then ``runBrowser(url:fake:extraArgs:timeout:)``, then `finish(timeout:)`).
/// With `stdin` nil, the child's stdin stays open until `closeStdin()`.
func startGHLogin(_ args: [String], env: [String: String], stdin: String? = nil) throws
  -> ChildProcess
{
  try ChildProcess(
    executable: try HarnessPaths.ghloginBinary(), arguments: args, environment: env, stdin: stdin)
}

/// What `fake_browser.py` reported.
struct BrowserResult {
  /// fake_browser.py's exit status: 0 answered, 1 harness failure, 3 Location not loopback.
  let exitStatus: Int32
  /// The whole JSON report (`authorize`, `callback`, `callbacks`, `error`).
  let report: [String: Any]
  /// fake_browser.py's stderr.
  let stderr: String

  /// The authorize step's status (302 normally).
  var authorizeStatus: Int? { (report["authorize"] as? [String: Any])?["status"] as? Int }
  /// The authorize step's Location header.
  var location: String? { (report["authorize"] as? [String: Any])?["location"] as? String }
  /// The last callback delivery's HTTP status, nil when not delivered.
  var callbackStatus: Int? { (report["callback"] as? [String: Any])?["status"] as? Int }
  /// The last callback delivery's body (the page ghlogin served).
  var callbackBody: String? { (report["callback"] as? [String: Any])?["body"] as? String }
  /// The last callback delivery's response headers as (name, value) pairs.
  var callbackHeaders: [(String, String)] {
    let raw = (report["callback"] as? [String: Any])?["headers"] as? [[String]] ?? []
    return raw.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
  }
  /// The harness error text, if any.
  var error: String? { report["error"] as? String }
}

/// Runs `fake_browser.py url` trusting the fake's CA, with `extraArgs` (e.g. `["--state",
/// "WRONG"]`, `["--host-header", "evil.test:1234"]`, `["--repeat", "2"]`; see README.md).
func runBrowser(
  url: String, fake: FakeGitHub, extraArgs: [String] = [], timeout: Double = 30
) throws -> BrowserResult {
  let script = HarnessPaths.fakeGitHubDirectory + "/fake_browser.py"
  let child = try ChildProcess(
    executable: HarnessPaths.python3, arguments: [script, url, "--ca", fake.caFile] + extraArgs,
    stdin: "")
  let result = try child.finish(timeout: timeout)
  guard let line = result.stdout.split(separator: "\n").last,
    let report = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
  else {
    throw HarnessError(
      "fake_browser.py gave no JSON (status \(result.status)):\n\(result.stdout)\n\(result.stderr)")
  }
  return BrowserResult(exitStatus: result.status, report: report, stderr: result.stderr)
}

/// Runs `python3 -c code args...` (for small raw clients in harness tests) and returns its result.
func runPython(_ code: String, _ args: [String] = [], timeout: Double = 30) throws
  -> (status: Int32, stdout: String, stderr: String)
{
  let child = try ChildProcess(
    executable: HarnessPaths.python3, arguments: ["-c", code] + args, stdin: "")
  return try child.finish(timeout: timeout)
}
