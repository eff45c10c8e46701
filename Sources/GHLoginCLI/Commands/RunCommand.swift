import GHLoginCore

/// `ghlogin run --repo … -- COMMAND ARGS…`: a child with a token minted for this run alone
/// (issue 34 §1).
struct RunCommand: Command {
  static let configuration = CommandConfiguration(
    name: "run", abstract: "run a command with a narrowed token minted for it",
    discussion: """
      Mints a token narrowed to --repo (and --permission) for this run, then runs COMMAND
      (found on PATH) with it in GH_TOKEN and GITHUB_TOKEN (and GH_HOST off github.com), git's
      credential helper for the host pinned to 'ghlogin git-credential' (GIT_CONFIG_COUNT,
      GIT_CONFIG_KEY_n, GIT_CONFIG_VALUE_n: a reset, then ghlogin), and GHLOGIN_RUN=ID, which
      names the run's record in the store. Inside the run, ghlogin's own token, env,
      git-credential, docker-credential and goauth hand out the run's token only: never the
      login's own, never a new one (exit 4 once the run has ended). GHLOGIN_AGENT_SOCK is
      removed from the child's environment.

      SIGINT, SIGTERM and SIGHUP are passed on to COMMAND. When it ends, its token is revoked
      and its record dropped (unless --keep), and ghlogin exits with its status, or dies of
      the signal that killed it. ghlogin's own failures before COMMAND starts exit 1, 2 or 4
      with nothing on stdout.

      run limits what a tool is handed, not what a process of your user can take: any such
      process can read your credentials. Against a hostile tool, run it as another user or in
      a container that has only the narrowed token (see doc/narrowed-tokens.md).
        ghlogin run --repo acme/api --permission contents:write -- git push
      """,
    options: [
      .host, .user, .repo, .permission,
      .flag("keep", help: "Leave the run's token valid and recorded after COMMAND ends"),
    ],
    arguments: [ArgumentSpec("COMMAND", help: "The command to run, after --, with its arguments", isVariadic: true)])

  var selection: AccountSelection
  var narrowing: Narrowing
  var keep: Bool
  var command: [String]

  init(_ arguments: ParsedArguments) throws(UsageError) {
    selection = AccountSelection(arguments)
    keep = arguments.flag("keep")
    guard let narrowing = try Narrowing.parse(arguments) else {
      throw UsageError("run needs --repo OWNER/NAME[,...]: the repositories its token may reach")
    }
    self.narrowing = narrowing
    command = arguments.positionals
    guard !command.isEmpty else { throw UsageError("missing COMMAND (after --)") }
  }

  func run(in environment: Environment) throws -> ExitStatus {
    let workspace = try Workspace(environment, unknownConfigKeys: .lenient)
    if let running = environment.variables["GHLOGIN_RUN"] {
      throw RunRefused(.nested(id: running), host: nil)
    }
    let path = environment.variables["PATH"]
    let name = command[0]
    guard let executable = name.contains("/") ? name : Subprocess.find(name, path: path) else {
      throw CommandNotFound(name: name)
    }
    let self_ = environment.executablePath
    guard self_.hasPrefix("/") else {
      throw UsageError("cannot tell the absolute path of ghlogin (got '\(Sanitize.terminal(self_))')")
    }
    let id = NarrowedRecord.newID()
    let (narrowed, warning) = try workspace.startRun(selection, narrowing, id: id)
    if let warning { Workspace.printWarning(warning, on: environment) }
    var variables = environment.variables.all
    variables["GHLOGIN_AGENT_SOCK"] = nil
    variables["GH_TOKEN"] = narrowed.token
    variables["GITHUB_TOKEN"] = narrowed.token
    variables["GH_HOST"] = narrowed.host.isGitHubDotCom ? nil : narrowed.host.name
    variables["GHLOGIN_RUN"] = id
    // git's own config entries for this process tree, after any the child already has.
    let base = Int(variables["GIT_CONFIG_COUNT"] ?? "") ?? 0
    let key = "credential.https://\(narrowed.host.name).helper"
    variables["GIT_CONFIG_KEY_\(base)"] = key
    variables["GIT_CONFIG_VALUE_\(base)"] = ""
    variables["GIT_CONFIG_KEY_\(base + 1)"] = key
    variables["GIT_CONFIG_VALUE_\(base + 1)"] = GitConfig.helperValue(executable: self_)
    variables["GIT_CONFIG_COUNT"] = String(base + 2)
    let ending: ChildRun.Ending
    do {
      ending = try ChildRun.run(executable, command, environment: variables)
    } catch {
      if !keep { workspace.endRun(id: id) }
      throw error
    }
    if !keep { workspace.endRun(id: id) }
    switch ending {
    case .exited(let status): return ExitStatus(rawValue: status)
    case .signaled(let number):
      // Die of the child's signal, as a shell around ghlogin expects.
      ChildRun.die(of: number)
      return ExitStatus(rawValue: 128 + number)
    }
  }

  /// COMMAND is not on PATH: exit 1 before anything is minted.
  struct CommandNotFound: ReportableError, Equatable {
    var name: String
    var message: String { "run: '\(Sanitize.terminal(name))' was not found on PATH; nothing was minted" }
    var exitStatus: ExitStatus { .failure }
    var errorKind: ErrorKind { .configuration }
  }
}
