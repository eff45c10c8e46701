import Foundation
import GHLoginTestSupport

/// The throwaway CA and leaf certificates, made once per test process by `make_certs.sh` into
/// a fresh temporary directory (kept until the process exits; the keys are test-only).
enum TestCertificates {
  private static let made = TestLock<String?>(nil)

  /// The directory holding `ca.pem`, `server.pem/key`, `wronghost.pem/key`, `expired.pem/key`,
  /// `selfsigned.pem/key`. The first call runs `make_certs.sh` (about 0.2 s).
  static func directory() throws -> String {
    try made.withLock { cached in
      if let cached { return cached }
      let dir = try makeTemporaryDirectory(prefix: "ghlogin-certs")
      let script = HarnessPaths.fakeGitHubDirectory + "/make_certs.sh"
      let child = try ChildProcess(
        executable: HarnessPaths.bash, arguments: [script, dir], stdin: "")
      let result = try child.finish(timeout: 60)
      guard result.status == 0 else {
        throw HarnessError("make_certs.sh failed (\(result.status)):\n\(result.stderr)")
      }
      cached = dir
      return dir
    }
  }
}
