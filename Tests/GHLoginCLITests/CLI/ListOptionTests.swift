import Testing
import GHLoginTestSupport

@testable import GHLoginCLI

/// Issue 34 §1: list options take comma-separated values and may be repeated; a single-value
/// option given twice is a usage error, not a silent last-wins.
@Suite struct ListOptionTests {
  static let configuration = CommandConfiguration(
    name: "t", abstract: "t",
    options: [
      .option("host", short: "h", value: "HOST", help: "host", aliases: ["hostname"]),
      .list("repo", value: "OWNER/NAME", help: "repos"), .flag("json", help: "json"),
    ])

  @Test func listValuesAccumulateInOrder() throws {
    let parsed = try ArgumentParser.parse(
      ["--repo", "a/b,a/c", "--repo=a/d", "--json", "--repo", "a/e"], for: Self.configuration)
    #expect(parsed.list("repo") == ["a/b", "a/c", "a/d", "a/e"])
    #expect(parsed.value("repo") == nil)
    #expect(parsed.list("host").isEmpty)
    #expect(try ArgumentParser.parse([], for: Self.configuration).list("repo").isEmpty)
  }

  @Test(arguments: [
    ["--host", "a", "--host", "b"],
    ["--host=a", "--hostname", "b"],
    ["-h", "a", "--host", "a"],
  ])
  func singleValueOptionTwiceIsRefused(_ arguments: [String]) {
    #expect(throws: UsageError("option --host takes one value and was given more than once")) {
      try ArgumentParser.parse(arguments, for: Self.configuration)
    }
  }

  @Test func flagsMayBeRepeated() throws {
    #expect(try ArgumentParser.parse(["--json", "--json"], for: Self.configuration).flag("json"))
  }

  /// The built command: exit 2, the message on stderr, nothing on stdout.
  @Test func theCommandExits2() {
    let run = runCommand(["token", "--host", "github.com", "--host", "example.com"])
    #expect(run.status == .usage)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.contains("option --host takes one value and was given more than once"))
  }
}
