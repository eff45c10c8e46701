import Foundation
import Testing

/// bench/run's own verdicts (bench/test_verdict.py on made-up figures): a compared command that
/// answers wrongly or not at all, a missed ratio and a binary without `NEEDED` lines fail with
/// 1; a broken bench (a Python traceback, a missing figure) exits 2; right answers within every
/// target pass.
@Suite struct BenchVerdictTests {
  @Test func benchVerdictsHoldOnMadeUpFigures() throws {
    let child = try ChildProcess(
      executable: HarnessPaths.python3, arguments: [HarnessPaths.packageRoot + "/bench/test_verdict.py"], stdin: "")
    let result = try child.finish(timeout: 120)
    #expect(result.status == 0, "test_verdict.py failed:\n\(result.stderr.suffix(4000))")
    #expect(result.stderr.contains("\nOK"), "\(result.stderr.suffix(2000))")
  }
}
