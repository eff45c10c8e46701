import Testing

import GHLoginTestSupport
@testable import GHLoginCLI

/// `ghlogin ssh -- [ssh options] DESTINATION [COMMAND…]` read as ssh's getopt reads it, and the
/// options that would take the session away from its forward refused (issue 35 §3).
@Suite struct SSHArgumentsTests {
  func parse(_ arguments: [String]) throws -> SSHArguments { try SSHArguments.parse(arguments) }

  func refusal(_ arguments: [String]) -> String? {
    do {
      _ = try SSHArguments.parse(arguments)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func theDestinationIsTheFirstArgumentThatIsNoOptionNorAValue() throws {
    let plain = try parse(["host"])
    #expect(plain == SSHArguments(options: [], destination: "host", command: [], choosesTerminal: false))
    let spaced = try parse(["-p", "2222", "-i", "/k", "-v", "me@host", "ls", "-l"])
    #expect(spaced.options == ["-p", "2222", "-i", "/k", "-v"])
    #expect(spaced.destination == "me@host")
    #expect(spaced.command == ["ls", "-l"])
    // Glued values and grouped flags, as getopt reads them.
    let glued = try parse(["-p2222", "-tp", "2222", "-vvA", "-oUser=x", "-4Cl", "me", "host", "cmd"])
    #expect(glued.options == ["-p2222", "-tp", "2222", "-vvA", "-oUser=x", "-4Cl", "me"])
    #expect(glued.destination == "host")
    #expect(glued.command == ["cmd"])
    #expect(glued.choosesTerminal)
    // A value that looks like an option or a host is still the option's value.
    let values = try parse(["-l", "-weird", "-o", "host", "-E", "log", "dest"])
    #expect(values.options == ["-l", "-weird", "-o", "host", "-E", "log"])
    #expect(values.destination == "dest")
    // Every value-taking option.
    for letter in ["B", "b", "c", "D", "E", "e", "F", "I", "i", "J", "L", "l", "m", "P", "p", "Q", "R", "w"] {
      let parsed = try parse(["-" + letter, "value", "dest", "x"])
      #expect(parsed.destination == "dest", "-\(letter)")
      #expect(parsed.options == ["-" + letter, "value"])
    }
  }

  @Test func theCommandIsEverythingAfterTheDestinationLessALeadingDoubleDash() throws {
    #expect(try parse(["host", "--", "sh", "-c", "x"]).command == ["sh", "-c", "x"])
    #expect(try parse(["host", "sh", "--", "x"]).command == ["sh", "--", "x"])
    #expect(try parse(["host", "--", "--", "x"]).command == ["--", "x"])
    // Options after the destination belong to the command.
    #expect(try parse(["host", "-p", "22"]).command == ["-p", "22"])
    // `--` ends ssh's options: the next argument is the destination, whatever it looks like.
    let ended = try parse(["-v", "--", "host", "cmd"])
    #expect(ended.options == ["-v"])
    #expect(ended.destination == "host")
    #expect(ended.command == ["cmd"])
    #expect(try parse(["--", "-odd"]).destination == "-odd")
  }

  @Test func theTerminalChoiceIsSeen() throws {
    #expect(try parse(["-t", "host"]).choosesTerminal)
    #expect(try parse(["-T", "host"]).choosesTerminal)
    #expect(try parse(["-o", "RequestTTY=force", "host"]).choosesTerminal)
    #expect(try !parse(["-v", "host"]).choosesTerminal)
  }

  @Test func aMissingDestinationIsAUsageError() {
    let message = "missing DESTINATION: give ssh's [user@]host after the ssh options"
    #expect(refusal([]) == message)
    #expect(refusal(["-v"]) == message)
    #expect(refusal(["-p", "22"]) == message)
    #expect(refusal(["-v", "--"]) == message)
    #expect(refusal(["-p"]) == "ssh option -p needs a value")
    #expect(refusal(["-Z", "host"]) == "unknown ssh option -Z")
  }

  @Test func optionsThatTakeTheSessionAwayAreRefused() {
    #expect(
      refusal(["-N", "host"])
        == "ssh option -N is refused: it runs no remote command, and ghlogin ssh ends the forward with the remote "
        + "command")
    #expect(
      refusal(["-f", "host", "cmd"])
        == "ssh option -f is refused: ssh would go to the background, and ghlogin ssh ends the forward when ssh exits")
    #expect(
      refusal(["-W", "h:22", "host"])
        == "ssh option -W is refused: it forwards standard input and output instead of running the remote command")
    #expect(
      refusal(["-O", "check", "host"])
        == "ssh option -O is refused: it controls a master connection, and ghlogin ssh uses none")
    #expect(refusal(["-M", "host"])?.hasPrefix("ssh option -M is refused: ") == true)
    #expect(refusal(["-S", "/tmp/c", "host"])?.hasPrefix("ssh option -S is refused: ") == true)
    #expect(refusal(["-s", "host", "sftp"])?.hasPrefix("ssh option -s is refused: ") == true)
    // Grouped, glued, or after other options.
    #expect(refusal(["-vN", "host"])?.hasPrefix("ssh option -N is refused") == true)
    #expect(refusal(["-p", "22", "-qf", "host"])?.hasPrefix("ssh option -f is refused") == true)
    #expect(refusal(["-Wh:22", "host"])?.hasPrefix("ssh option -W is refused") == true)
    #expect(refusal(["-tOexit", "host"])?.hasPrefix("ssh option -O is refused") == true)
    // After the destination they are the remote command's.
    #expect(refusal(["host", "-N"]) == nil)
  }

  @Test func controlAndForwardingSettingsAreRefusedHoweverSpelled() {
    let master = "ssh option -o ControlMaster is refused: ghlogin ssh sets it (no master connection)"
    for spelling in [
      ["-o", "ControlMaster=yes"], ["-o", "controlmaster no"], ["-oControlMaster=auto"], ["-o", "CONTROLMASTER=no"],
      ["-o", "  ControlMaster   =  yes"], ["-o", "ControlMaster\tyes"], ["-o", "\"ControlMaster\" yes"],
      ["-o", "Control\"Master\" yes"], ["-o", "=ControlMaster yes"], ["-vo", "ControlMaster=yes"],
      ["-voControlMaster=yes"],
    ] {
      #expect(refusal(spelling + ["host"]) == master, "\(spelling)")
    }
    #expect(
      refusal(["-o", "ControlPath=/tmp/x", "host"])
        == "ssh option -o ControlPath is refused: ghlogin ssh sets it (no control socket)")
    #expect(
      refusal(["-o", "clearallforwardings yes", "host"])
        == "ssh option -o ClearAllForwardings is refused: it would drop the forward ghlogin ssh adds")
    #expect(refusal(["-o", "SessionType=none", "host"])?.hasPrefix("ssh option -o SessionType is refused") == true)
    #expect(
      refusal(["-o", "ForkAfterAuthentication=yes", "host"])?.hasPrefix(
        "ssh option -o ForkAfterAuthentication is refused") == true)
    // Other settings, and names that only start like them, go to ssh.
    #expect(refusal(["-o", "ControlPersist=no", "host"]) == nil)
    #expect(refusal(["-o", "ControlMasterX=yes", "host"]) == nil)
    #expect(refusal(["-o", "#ControlMaster yes", "host"]) == nil)
    #expect(refusal(["-o", "User=ControlMaster", "host"]) == nil)
  }

  @Test func theConfigKeywordIsReadAsSSHReadsIt() {
    #expect(SSHArguments.configKeyword("Port=22") == "port")
    #expect(SSHArguments.configKeyword(" Port 22") == "port")
    #expect(SSHArguments.configKeyword("\"Po rt\" 22") == "po rt")
    #expect(SSHArguments.configKeyword("") == nil)
    #expect(SSHArguments.configKeyword("   ") == nil)
    #expect(SSHArguments.configKeyword("\"unclosed") == nil)
  }
}
