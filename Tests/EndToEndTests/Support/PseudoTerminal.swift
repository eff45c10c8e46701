import Foundation
import Testing

/// `argv` with stdin, stdout and stderr on a new pseudo-terminal (`Tests/Scripts/pty_run.py`),
/// typing each step's text once its prompt has been shown (`"TERM"` sends SIGTERM instead); the
/// exit status (-N for signal N) and what the terminal showed.
func runOnPseudoTerminal(_ argv: [String], env: [String: String], steps: [(when: String, send: String)] = [])
  throws -> (status: Int, output: String)
{
  var spec: [String: Any] = ["argv": argv, "env": Spawn.pinned(env), "timeout": 20]
  if !steps.isEmpty { spec["steps"] = steps.map { ["when": $0.when, "send": $0.send] } }
  let json = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)
  let result = try ChildProcess(
    executable: HarnessPaths.python3, arguments: [HarnessPaths.packageRoot + "/Tests/Scripts/pty_run.py", json],
    stdin: ""
  ).finish(timeout: 30)
  let report = try #require(
    try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
  return (report["status"] as? Int ?? -1, report["output"] as? String ?? "")
}
