import Foundation

extension Sandbox {
  /// `$HOME/browser-calls.jsonl`: one JSON line per invocation of the browser stub.
  var browserCallsFile: String { home + "/browser-calls.jsonl" }

  /// Installs an executable `name` (default `xdg-open`) in ``binDirectory`` that records each
  /// call as a JSON line in ``browserCallsFile``: `argv`, `fds` (every descriptor it inherited,
  /// number → `readlink` target; its own `listdir` descriptor is not included), `pid`, `ppid`.
  /// With `follow: true` it also starts `fake_browser.py URL --ca CA` detached (so it returns at
  /// once, as xdg-open does) writing its JSON report to the file named in `browser_output`.
  /// With `followOnly`, only URLs containing that text are followed (the others only recorded).
  /// Returns the stub's path.
  @discardableResult
  func installBrowserStub(named name: String = "xdg-open", follow: Bool = false, followOnly: String? = nil) throws
    -> String
  {
    let script = """
      #!\(HarnessPaths.python3)
      import json, os, subprocess, sys
      fds = {}
      for entry in os.listdir("/proc/self/fd"):
          try:
              fds[entry] = os.readlink("/proc/self/fd/" + entry)
          except OSError:
              pass  # the descriptor listdir itself used, already closed
      record = {"argv": sys.argv, "fds": fds, "pid": os.getpid(), "ppid": os.getppid()}
      if \(follow ? "True" : "False") and len(sys.argv) > 1 and \(pythonString(followOnly ?? "")) in sys.argv[1]:
          out = \(pythonString(home + "/browser-")) + str(os.getpid()) + ".json"
          record["browser_output"] = out
          with open(out, "wb") as sink:
              subprocess.Popen([\(pythonString(HarnessPaths.python3)),
                                \(pythonString(HarnessPaths.fakeGitHubDirectory + "/fake_browser.py")),
                                sys.argv[1], "--ca", \(pythonString(fake.caFile))],
                               stdin=subprocess.DEVNULL, stdout=sink, stderr=subprocess.DEVNULL,
                               start_new_session=True)
      with open(\(pythonString(browserCallsFile)), "a") as log:
          log.write(json.dumps(record) + "\\n")
      """
    let path = binDirectory + "/" + name
    try Data(script.utf8).write(to: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    return path
  }

  /// The calls the browser stub recorded so far, oldest first.
  func browserCalls() -> [[String: Any]] {
    guard let data = FileManager.default.contents(atPath: browserCallsFile) else { return [] }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
    }
  }

  /// Waits (up to `timeout` seconds) for the fake_browser report of a `follow: true` stub call
  /// and returns it (see ``BrowserResult/report``).
  func followedBrowserReport(of call: [String: Any], timeout: Double = 20) throws -> [String: Any] {
    guard let path = call["browser_output"] as? String else {
      throw HarnessError("this browser call was not followed (install the stub with follow: true)")
    }
    let deadline = Date(timeIntervalSinceNow: timeout)
    while Date() < deadline {
      if let data = FileManager.default.contents(atPath: path), data.last == UInt8(ascii: "\n"),
        let report = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
      {
        return report
      }
      Thread.sleep(forTimeInterval: 0.05)
    }
    throw HarnessError("no fake_browser report in \(path) within \(timeout) s")
  }
}

/// `text` as a Python string literal (JSON string syntax is valid Python).
private func pythonString(_ text: String) -> String {
  let data =
    (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes]))
    ?? Data("[\"\"]".utf8)
  return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
}
