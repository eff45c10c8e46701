import Foundation
import GHLoginTestSupport
import Testing

/// scripts/check-test-filters.sh (issue 32 §2), which CI runs: every `swift test --filter` that
/// CONTRIBUTING.md gives, and every group it must give, selects a test. Run on a planted list of
/// test names and a planted document, so no `swift test list` runs inside the suite.
@Suite struct CheckTestFiltersScriptTests {
  static let names = [
    "EndToEndTests.LoginEndToEndTests/fullLoginThenWhoamiTokenStatusLogout()",
    "EndToEndTests.KeyringEndToEndTests/storesInTheKeyring()",
    "EndToEndTests.ContainerRegistryEndToEndTests/podmanPulls()",
    "EndToEndTests.ReleaseEndToEndTests/theReleaseBinaryNeedsGlibc234AtMost()",
    "GHLoginCoreTests.JSONTests/parses()",
    "GHLoginKitTests.GitHubLoginTests/logsIn()",
    "GHLoginCLITests.CommandLineTests/parses()",
  ]

  let directory: TemporaryDirectory
  init() throws { directory = try TemporaryDirectory(prefix: "check-test-filters") }

  func run(names: [String] = Self.names, document: String?) throws -> (status: Int32, stdout: String, stderr: String) {
    try (names.joined(separator: "\n") + "\n").write(
      toFile: directory.at("list.txt"), atomically: true, encoding: .utf8)
    if let document {
      try document.write(toFile: directory.at("CONTRIBUTING.md"), atomically: true, encoding: .utf8)
    }
    return try ChildProcess(
      executable: "/bin/bash",
      arguments: [
        HarnessPaths.packageRoot + "/scripts/check-test-filters.sh", "--list", directory.at("list.txt"),
        directory.at("CONTRIBUTING.md"),
      ],
      environment: ["PATH": "/usr/bin:/bin", "HOME": directory.path], stdin: ""
    ).finish(timeout: 60)
  }

  static let document = """
    Run a group:

        swift test --filter EndToEndTests
        swift test --skip-build --filter 'GHLoginCoreTests|GHLoginKitTests'

    or one test: `swift test --filter "JSONTests/parses"`, `swift test --filter=ReleaseEndToEndTests`.
    """

  @Test func everyDocumentedPatternMatches() throws {
    let result = try run(document: Self.document)
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout == "check-test-filters: 11 patterns, 7 tests, 0 matching nothing\n")
    #expect(result.stderr == "")
  }

  /// A documented pattern that matches nothing (a suite renamed after the docs were written)
  /// fails, naming the pattern and its line.
  @Test func aPlantedPatternThatMatchesNothingFails() throws {
    let result = try run(document: Self.document + "\n`swift test --filter KeyringSmokeTests`\n")
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stderr == "check-test-filters: \(directory.at("CONTRIBUTING.md")):7: --filter KeyringSmokeTests "
        + "matches no test in 'swift test list'\n")
    #expect(result.stdout == "check-test-filters: 12 patterns, 7 tests, 1 matching nothing\n")
  }

  /// Without CONTRIBUTING.md the required groups are still checked: a suite without the
  /// container-registry tests fails on that group.
  @Test func withoutTheDocumentTheRequiredGroupsAreChecked() throws {
    #expect(try run(document: nil).status == 0)
    let result = try run(names: Self.names.filter { !$0.contains("ContainerRegistry") }, document: nil)
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stderr == "check-test-filters: required group: --filter ContainerRegistry matches no test in "
        + "'swift test list'\n")
  }

  /// A CONTRIBUTING.md that gives no filter command at all is an error, not a pass.
  @Test func aDocumentWithNoFilterFails() throws {
    let result = try run(document: "Run the tests with `swift test`.\n")
    #expect(result.status == 1, "\(result)")
    #expect(result.stderr.contains("gives no 'swift test --filter' command"))
  }
}
