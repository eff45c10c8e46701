import Testing

import GHLoginTestSupport
@testable import GHLoginCLI

/// The forward options shared by `agent forward` and `container-args` (issue 35 §2), and the
/// duration syntax `auth --timeout` shares with `--ttl`.
@Suite struct ForwardOptionsTests {
  func agent(_ arguments: [String]) throws -> AgentCommand {
    try AgentCommand(ArgumentParser.parse(arguments, for: AgentCommand.configuration))
  }

  @Test func agentForwardReadsThePolicy() throws {
    let command = try agent([
      "forward", "--repo", "acme/api", "--repo", "acme/web", "--permission", "contents:read", "--ttl", "8h",
      "--confirm", "--max-tokens", "5", "--name", "dev", "--user", "octocat", "--host", "github.com",
    ])
    let policy = try #require(command.policy)
    #expect(policy.repositories == ["acme/api", "acme/web"])
    #expect(policy.permissions == ["contents:read"])
    #expect(policy.ttl == 28_800)
    #expect(policy.confirm && policy.maxTokens == 5 && policy.name == "dev" && !policy.unscoped)
    #expect(policy.user == "octocat" && policy.host == "github.com")
  }

  @Test(arguments: [
    (["forward"], "a forward needs --repo OWNER/NAME[,...]"),
    (
      ["forward", "--repo", "acme/api", "--ttl", "59s"],
      "--ttl takes a duration from 1m to 24h (N seconds, Ns, Nm or Nh), not '59s'"
    ),
    (
      ["forward", "--repo", "acme/api", "--unscoped"],
      "--unscoped hands out the login's own token: give the forward a --ttl"
    ),
    (["list", "--repo", "acme/api"], "--repo, --permission, --ttl and the other forward options go with forward"),
    (["revoke"], "revoke needs the forward's id or name"),
  ])
  func refusals(arguments: [String], message: String) {
    #expect(throws: UsageError(message)) { try agent(arguments) }
  }

  @Test func revokeTakesTheForward() throws {
    #expect(try agent(["revoke", "dev"]).forward == "dev")
  }

  @Test(arguments: [("5m", 300), ("90", 90), ("1h", 3600), ("1s", 1)])
  func authTimeoutTakesADuration(text: String, seconds: Int) throws {
    let command = try AuthCommand(ArgumentParser.parse(["--timeout", text], for: AuthCommand.configuration))
    #expect(command.timeout == seconds)
  }

  @Test(arguments: ["2h", "0", "61m", "x"])
  func authTimeoutKeepsItsRange(text: String) {
    #expect(
      throws: UsageError("--timeout takes a duration from 1s to 1h (N seconds, Ns, Nm or Nh), not '\(text)'")
    ) { try AuthCommand(ArgumentParser.parse(["--timeout", text], for: AuthCommand.configuration)) }
  }

  @Test func containerArgsArePrintedAsIssue35Lists() {
    let lines = ContainerArgsCommand.runArguments(
      forward: "/run/user/1/ghlogin/f.sock", binary: "/usr/bin/ghlogin", selinux: false, keepID: false)
    #expect(
      lines == [
        "-v", "/run/user/1/ghlogin/f.sock:/run/ghlogin/agent.sock", "-v", "/usr/bin/ghlogin:/usr/local/bin/ghlogin:ro",
        "-v", "/usr/bin/ghlogin:/usr/local/bin/docker-credential-ghlogin:ro", "-e",
        "GHLOGIN_AGENT_SOCK=/run/ghlogin/agent.sock", "-e", "GIT_CONFIG_COUNT=3", "-e",
        "GIT_CONFIG_KEY_0=credential.helper", "-e", "GIT_CONFIG_VALUE_0=", "-e", "GIT_CONFIG_KEY_1=credential.helper",
        "-e", "GIT_CONFIG_VALUE_1=!ghlogin git-credential", "-e", "GIT_CONFIG_KEY_2=credential.useHttpPath", "-e",
        "GIT_CONFIG_VALUE_2=true",
      ])
    let json = ContainerArgsCommand.devcontainerLines(
      forward: "/r/f\"x.sock", binary: "/b/ghlogin", selinux: false, keepID: true)
    #expect(
      json.first == #""mounts": ["source=/r/f\"x.sock,target=/run/ghlogin/agent.sock,type=bind", "#
        + #""source=/b/ghlogin,target=/usr/local/bin/ghlogin,type=bind,readonly", "#
        + #""source=/b/ghlogin,target=/usr/local/bin/docker-credential-ghlogin,type=bind,readonly"],"#)
    #expect(json.last == #""runArgs": ["--userns=keep-id"],"#)
  }
}
