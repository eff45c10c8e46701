import Foundation

/// The real programs the container and Go tests drive. Outside CI a missing one skips its test
/// (with the reason); under CI (`CI` set) it fails the test. `docker` is the one exception: its
/// Debian package brings a daemon that cannot run here, so its tests skip even under CI.
enum RealClients {
  static var underCI: Bool { !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty }

  /// The test-tools virtual environment (`scripts/test-tools.sh --print`).
  static var testTools: String {
    let environment = ProcessInfo.processInfo.environment
    if let dir = environment["GHLOGIN_TEST_TOOLS"], !dir.isEmpty { return dir }
    let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.cache")
    return cache + "/ghlogin-test-tools"
  }

  /// `bin/go` of the test tools.
  static var go: String? { executable(testTools + "/bin/go") }

  /// `name` on `PATH` (or in /usr/sbin, /usr/bin), or nil.
  static func onPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/bin"] {
      if let found = executable(directory + "/" + name) { return found }
    }
    return nil
  }

  private static func executable(_ path: String) -> String? {
    FileManager.default.isExecutableFile(atPath: path) ? path : nil
  }

  /// Whether the tests needing all of `tools` run: true when each is found; false (skip)
  /// outside CI when one is missing; under CI a missing one is an error.
  static func available(_ tools: [(name: String, path: String?)]) throws -> Bool {
    let missing = tools.filter { $0.path == nil }.map(\.name)
    guard missing.isEmpty else {
      if underCI {
        throw HarnessError("\(missing.joined(separator: ", ")) missing under CI: .ci/run installs them")
      }
      print("skipping: \(missing.joined(separator: ", ")) not installed (.ci/run installs them)")
      return false
    }
    return true
  }
}
