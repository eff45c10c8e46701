import Testing
import GHLoginTestSupport

@testable import GHLoginCLI

@Suite struct CommandLineTests {
  @Test func rootHelpListsCommandsAndExitStatuses() {
    for arguments in [["--help"], ["-h"], ["help"]] {
      let run = runCommand(arguments)
      #expect(run.status == .success)
      #expect(run.stdout.hasPrefix("ghlogin — log in to GitHub"))
      #expect(run.stdout.contains("  version"))
      #expect(run.stdout.contains("4    not logged in, or the token was rejected"))
      #expect(run.stderr.isEmpty)
    }
  }

  @Test func eachCommandIsFoundUnderTheNameItsConfigurationGives() {
    for name in GHLogin.commandNames {
      #expect(GHLogin.command(named: name)?.configuration.name == name)
    }
    #expect(Set(GHLogin.commandNames).count == GHLogin.commandNames.count)
    #expect(GHLogin.commands.count == GHLogin.commandNames.count)
    // Each alias a configuration declares finds its command, and no other name does.
    let aliases = GHLogin.commands.flatMap { type in type.configuration.aliases.map { ($0, type) } }
    #expect(aliases.map(\.0) == ["login"])
    for (alias, type) in aliases { #expect(GHLogin.command(named: alias) == type) }
    for name in ["Token", "", "tokens", "git credential", "log-in"] { #expect(GHLogin.command(named: name) == nil) }
  }

  @Test func noArgumentsPrintsHelpOnStderrAndExits2() {
    let run = runCommand([])
    #expect(run.status == .usage)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.contains("Usage: ghlogin <command>"))
  }

  @Test func commandHelpThreeWays() {
    let expected = runCommand(["version", "--help"]).stdout
    #expect(expected.hasPrefix("Usage: ghlogin version\n"))
    #expect(runCommand(["version", "-h"]).stdout == expected)
    #expect(runCommand(["help", "version"]).stdout == expected)
  }

  @Test func versionTwoWays() {
    #expect(runCommand(["--version"]).stdout == "ghlogin \(Release.version)\n")
    #expect(
      runCommand(["version"]).stdout
        == "ghlogin \(Release.version)\nno OAuth app is built in (a client ID must be configured)\n")
  }

  @Test func unknownCommandSuggestsTheNearestAndExits2() {
    let run = runCommand(["versoin"])
    #expect(run.status == .usage)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr.hasPrefix("ghlogin: unknown command 'versoin'; did you mean `version`?\nUsage: ghlogin <command>"))
  }

  @Test func unknownCommandFarFromAnyHasNoSuggestion() {
    let run = runCommand(["zzzzzzzz"])
    #expect(run.status == .usage)
    #expect(run.stderr.hasPrefix("ghlogin: unknown command 'zzzzzzzz'\n"))
  }

  @Test func unknownOptionAndExtraArgumentExit2WithUsage() {
    let option = runCommand(["version", "--bogus"])
    #expect(option.status == .usage)
    #expect(
      option.stderr
        == "ghlogin version: unknown option --bogus\nUsage: ghlogin version\nRun 'ghlogin version --help' for more.\n")
    let extra = runCommand(["version", "extra"])
    #expect(extra.status == .usage)
    #expect(extra.stderr.hasPrefix("ghlogin version: unexpected argument 'extra'\n"))
    let topic = runCommand(["help", "versio"])
    #expect(topic.status == .usage)
    #expect(topic.stderr.hasPrefix("ghlogin help: no such command 'versio'; did you mean `version`?"))
  }
}

@Suite struct ArgumentParserTests {
  static let configuration = CommandConfiguration(
    name: "demo", abstract: "demo",
    options: [
      .option("host", value: "HOST", help: "host"), .flag("json", help: "json"),
      .option("shell", value: "SHELL", help: "shell", choices: ["sh", "fish"]),
      .option("port", short: "p", value: "N", help: "port"),
    ],
    arguments: [ArgumentSpec("OP", help: "op", isOptional: true)])

  @Test func longShortInlineAndFlags() throws {
    let parsed = try ArgumentParser.parse(["--host", "a", "--json", "-p", "8", "get"], for: Self.configuration)
    #expect(parsed.value("host") == "a")
    #expect(parsed.flag("json"))
    #expect(parsed.value("port") == "8")
    #expect(parsed.positionals == ["get"])
    let inline = try ArgumentParser.parse(["--host=b=c"], for: Self.configuration)
    #expect(inline.value("host") == "b=c")
    let dashes = try ArgumentParser.parse(["--", "--json"], for: Self.configuration)
    #expect(dashes.positionals == ["--json"])
    #expect(!dashes.flag("json"))
  }

  @Test(arguments: [
    (["--host"], "option --host needs a value (HOST)"),
    (["--host", "--json"], "option --host needs a value (HOST)"),
    (["--json=1"], "option --json takes no value"),
    (["--hst", "x"], "unknown option --hst; did you mean --host?"),
    (["-x"], "unknown option -x"),
    (["a", "b"], "unexpected argument 'b'"),
    (["--shell", "zsh"], "--shell must be one of sh, fish, not 'zsh'"),
  ])
  func errors(_ arguments: [String], _ message: String) {
    #expect(throws: UsageError(message)) { try ArgumentParser.parse(arguments, for: Self.configuration) }
  }

  /// Issue 29 §1: only the literal `-h` can be help, and only on a terminal; `--host` and
  /// `--hostname` with no value are always the usage error.
  @Test func dashHIsHelpOnlyOnATerminal() throws {
    let configuration = CommandConfiguration(
      name: "demo", abstract: "demo",
      options: [
        .option("host", short: "h", value: "HOST", help: "host", aliases: ["hostname"]), .flag("json", help: "json"),
      ])
    for arguments in [["-h"], ["-h", "--json"]] {
      #expect(try ArgumentParser.parse(arguments, for: configuration, helpOnTerminal: true).flag("help"))
      #expect(throws: UsageError("option --host needs a value (HOST)")) {
        try ArgumentParser.parse(arguments, for: configuration, helpOnTerminal: false)
      }
    }
    for arguments in [["--host"], ["--hostname"], ["--host", "--json"], ["--hostname", "--json"]] {
      for terminal in [true, false] {
        #expect(throws: UsageError("option --host needs a value (HOST)")) {
          try ArgumentParser.parse(arguments, for: configuration, helpOnTerminal: terminal)
        }
      }
    }
    #expect(try ArgumentParser.parse(["-h", "ghe.test"], for: configuration).value("host") == "ghe.test")
    #expect(try ArgumentParser.parse(["--help"], for: configuration).flag("help"))
    // Without --host, -h is always help.
    #expect(try ArgumentParser.parse(["-h"], for: Self.configuration, helpOnTerminal: false).flag("help"))
  }

  @Test func integerRange() throws {
    let parsed = try ArgumentParser.parse(["--port", "70000"], for: Self.configuration)
    #expect(throws: UsageError("--port must be a whole number from 0 to 65535, not '70000'")) {
      try parsed.integer("port", in: 0...65535)
    }
  }
}
