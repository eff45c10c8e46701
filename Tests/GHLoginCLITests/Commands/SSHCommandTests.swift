import Testing

import GHLoginTestSupport
@testable import GHLoginCLI

/// `ghlogin ssh`'s own options and the ssh command line it builds (issue 35 §3).
@Suite struct SSHCommandTests {
  func parse(_ arguments: [String]) throws -> SSHCommand {
    try SSHCommand(ArgumentParser.parse(arguments, for: SSHCommand.configuration, helpOnTerminal: false))
  }

  func usage(_ arguments: [String]) -> String? {
    do {
      _ = try parse(arguments)
      return nil
    } catch {
      return (error as? UsageError)?.message ?? "\(error)"
    }
  }

  @Test func forwardOptionsBeforeTheDoubleDashSSHsAfterIt() throws {
    let command = try parse(["--repo", "acme/api", "--host", "ghe.example.com", "--", "-p", "22", "me@h", "ls"])
    #expect(command.policy.repositories == ["acme/api"])
    #expect(command.policy.host == "ghe.example.com", "--host stays the GitHub host")
    #expect(command.ssh.options == ["-p", "22"])
    #expect(command.ssh.destination == "me@h")
    #expect(command.ssh.command == ["ls"])
    #expect(command.remoteDirectory == "/tmp")
  }

  @Test func usageErrors() {
    #expect(usage(["--", "host"]) == "a forward needs --repo OWNER/NAME[,...]")
    #expect(usage(["--repo", "acme/api"]) == "missing argument SSH-ARGUMENTS")
    #expect(
      usage(["--repo", "acme/api", "--", "-v"]) == "missing DESTINATION: give ssh's [user@]host after the ssh options")
    #expect(usage(["--repo", "acme/api", "--", "-f", "host"])?.hasPrefix("ssh option -f is refused") == true)
    #expect(usage(["--repo", "acme/api", "--name", "x", "--", "host"]) == "unknown option --name")
    for bad in ["relative", "/tmp/a:b", "/tmp/%h", "/tmp/$HOME", "/tmp/a b", "~/x", ""] {
      #expect(
        usage(["--repo", "acme/api", "--remote-dir", bad, "--", "host"])?.hasPrefix("--remote-dir must be") == true,
        "\(bad)")
    }
    #expect(usage(["--repo", "acme/api", "--remote-dir", "/run/user/1000", "--", "host"]) == nil)
  }

  @Test func sshGetsGhloginsOptionsFirstAndDoubleDashBeforeTheDestination() throws {
    let ssh = try SSHArguments.parse(["-p", "2222", "--", "me@host", "echo", "hi"])
    let arguments = SSHCommand.sshArguments(
      ssh, remote: "/tmp/ghlogin-1.sock", forward: "/run/user/0/ghlogin/forward-1.sock", addTerminal: false)
    #expect(
      arguments == [
        "-o", "ControlMaster=no", "-o", "ControlPath=none", "-o", "ExitOnForwardFailure=yes", "-o",
        "ClearAllForwardings=no", "-R", "/tmp/ghlogin-1.sock:/run/user/0/ghlogin/forward-1.sock", "-p", "2222", "--",
        "me@host", SSHRemoteScript.command(socket: "/tmp/ghlogin-1.sock", command: ["echo", "hi"]),
      ])
    let shell = SSHCommand.sshArguments(
      try SSHArguments.parse(["host"]), remote: "/tmp/r.sock", forward: "/f.sock", addTerminal: true)
    #expect(shell.contains("-t"))
    #expect(shell.last == SSHRemoteScript.command(socket: "/tmp/r.sock", command: []))
  }
}
