import Testing

import GHLoginTestSupport
@testable import GHLoginCLI

/// `ghlogin agent`'s parsing, and the agent's log: a token only as a fingerprint (issue 35 §1).
@Suite struct AgentCommandTests {
  func parse(_ arguments: [String]) throws -> AgentCommand {
    try AgentCommand(ArgumentParser.parse(arguments, for: AgentCommand.configuration, helpOnTerminal: false))
  }

  @Test func actionsAndForeground() throws {
    #expect(try parse(["start"]).action == .start)
    #expect(try parse(["start", "--shell", "fish"]).shell == .fish)
    #expect(try parse(["--foreground"]).action == .foreground)
    #expect(throws: UsageError.self) { try parse([]) }
    #expect(throws: UsageError.self) { try parse(["foreground"]) }
    #expect(throws: UsageError.self) { try parse(["start", "--foreground"]) }
    #expect(throws: UsageError.self) { try parse(["status", "--log", "/tmp/x"]) }
  }

  @Test func theFingerprintIsTheFirst8HexOfSHA256() {
    #expect(AgentServer.fingerprint("abc") == "ba7816bf")
    #expect(!AgentServer.fingerprint("gho_secret").contains("gho"))
  }

  @Test func timestampsAreUTC() {
    #expect(AgentServer.timestamp(0) == "1970-01-01T00:00:00Z")
    #expect(AgentServer.timestamp(1_700_000_000.9) == "2023-11-14T22:13:20Z")
    #expect(AgentServer.timestamp(951_782_400) == "2000-02-29T00:00:00Z")
  }

  @Test func aLoginCommandIsRefusedWithTheVariable() throws {
    let error = AgentClientRoute.LoginIsElsewhere(command: "logout")
    #expect(error.exitStatus == .usage)
    #expect(
      error.message
        == "logout works on the stored login, and with GHLOGIN_AGENT_SOCK set the login lives where the ghlogin "
        + "agent runs: run 'ghlogin logout' there, or unset GHLOGIN_AGENT_SOCK to use the logins stored here")
  }
}
