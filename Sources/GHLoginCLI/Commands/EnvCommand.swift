import GHLoginCore

/// `ghlogin env`: shell lines that export the token, for `eval "$(ghlogin env)"`.
struct EnvCommand: Command {
  static let configuration = CommandConfiguration(
    name: "env", abstract: "print shell lines that export the token, for eval",
    discussion: """
      Prints lines setting GH_TOKEN and GITHUB_TOKEN (and GH_HOST for a host other than
      github.com), quoted for the shell, on stdout:
        sh, bash, zsh:  eval "$(ghlogin env)"
        fish:           ghlogin env --shell fish | source
        PowerShell:     ghlogin env --shell powershell | Invoke-Expression
      Refuses to print to a terminal (exit 2) unless --force. Exits 4 with nothing on stdout
      when there is no login for the host. An expiring token is refreshed first, as by 'token',
      and the same warning about GitHub's expiry of the token is printed on stderr.

      With --repo OWNER/NAME[,...] (and --permission NAME:LEVEL[,...]), the lines export a
      new token narrowed to those repositories and permissions, as 'ghlogin token --repo' prints.
      """,
    options: [
      .host, .user,
      .option(
        "shell", value: "SHELL", help: "The shell to write for (default: sh)",
        choices: ShellQuoting.Shell.allCases.map(\.rawValue)),
      .flag("force", help: "Print even when stdout is a terminal"), .repo, .permission,
    ])

  var selection: AccountSelection
  var shell: ShellQuoting.Shell
  var force: Bool
  /// `--repo` and `--permission`: export a narrowed token instead of the login's.
  var narrowing: Narrowing?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    selection = AccountSelection(arguments)
    shell = arguments.value("shell").flatMap(ShellQuoting.Shell.init(rawValue:)) ?? .sh
    force = arguments.flag("force")
    narrowing = try Narrowing.parse(arguments)
  }

  /// stdout is a terminal and `--force` was not given: exit 2.
  struct TerminalRefused: ReportableError, Equatable {
    var message: String {
      "env: not printing the token to a terminal; use it as eval \"$(ghlogin env)\", or add --force"
    }
    var exitStatus: ExitStatus { .usage }
    var errorKind: ErrorKind { .configuration }
  }

  func run(in environment: Environment) throws -> ExitStatus {
    if environment.stdout.isTerminal && !force { throw TerminalRefused() }
    // Inside `ghlogin run`: the run's token, nothing else (issue 34 §1).
    if let run = environment.variables["GHLOGIN_RUN"] {
      let (host, token, _) = try Workspace(environment, unknownConfigKeys: .lenient).runToken(id: run)
      environment.stdout.write(Self.lines(token: token, host: host, shell: shell))
      return .success
    }
    if let narrowing {
      let (narrowed, warning) = try Workspace(environment, unknownConfigKeys: .lenient).narrowedToken(
        selection, narrowing)
      if let warning { Workspace.printWarning(warning, on: environment) }
      environment.stdout.write(Self.lines(token: narrowed.token, host: narrowed.host, shell: shell))
      return .success
    }
    let (host, account) = try Workspace(environment, unknownConfigKeys: .lenient).usableCredential(selection)
    if let warning = TokenExpirationHeader.warning(
      expiration: account.gitHubExpiration, login: account.login, host: host.name, now: environment.clock.now(),
      remedies: .ghlogin)
    {
      Workspace.printWarning(warning, on: environment)
    }
    environment.stdout.write(Self.lines(token: account.token, host: host, shell: shell))
    return .success
  }

  /// The lines for `shell`: GH_TOKEN, GITHUB_TOKEN, and GH_HOST unless the host is github.com.
  static func lines(token: String, host: GitHubHost, shell: ShellQuoting.Shell) -> String {
    var variables = [("GH_TOKEN", token), ("GITHUB_TOKEN", token)]
    if !host.isGitHubDotCom { variables.append(("GH_HOST", host.name)) }
    return variables.map { ShellQuoting.export($0.0, $0.1, for: shell) + "\n" }.joined()
  }
}
