import GHLoginCore

/// `ghlogin auth`: log in through the browser (RFC 8252 loopback redirect, PKCE S256), or with
/// the device flow (RFC 8628) where no browser can reach this machine.
struct AuthCommand: Command {
  static let configuration = CommandConfiguration(
    name: "auth", abstract: "log in to a GitHub host through the browser, or with a one-time code",
    discussion: Help.clientIDNote + """


      Opens GitHub's authorization page in your browser and waits on 127.0.0.1 for the redirect
      back. The authorization code is exchanged once over HTTPS, GET /user says who logged in,
      and the token is stored in the 0600 credentials file. Logging in again with the same
      account replaces its token; another account is added and made active.

      The OAuth app needs the callback URL http://127.0.0.1/callback (GitHub accepts any port on a
      loopback callback). See the README for registering one.

      With no display (no DISPLAY or WAYLAND_DISPLAY) or over SSH (SSH_CONNECTION or SSH_TTY),
      auth uses the device flow instead: it prints a one-time code and a page to enter it on, from
      any device, and polls GitHub until you approve. The app must have "Enable Device Flow"
      ticked. It does so only where the device endpoint is known: a device_code_url is configured,
      or ghlogin derives the host's endpoints itself (github.com, *.ghe.com, an Enterprise Server
      with no authorize_url or token_url set); otherwise it uses the browser flow with paste-back
      and says why in one line. --device always uses the device flow; --web and --no-browser always
      use the browser flow. With --no-browser, or --web with no display, and a terminal, you may
      also paste the address the browser was redirected to, when the browser runs on another
      machine. If the browser shows an error about the app or its callback URL, press Ctrl-C and
      check 'ghlogin config get client_id'.

      With no client ID configured and a terminal on stdin and stderr, auth guides you through
      registering an OAuth app: it shows the values to enter on GitHub's page (and opens it when
      it can), asks for the client ID and the client secret (not shown; empty for a public
      client), saves them to your config file (0600; the hosts.HOST block with --host) and logs
      in. Ctrl-C at a prompt writes nothing. Without a terminal it exits 2 with the steps instead.

      --with-token stores a token made elsewhere instead (a classic or fine-grained personal access
      token, or a GitHub App user token), for CI and for organizations that block OAuth apps. It
      reads the token from standard input only, never from the command line: the whole input
      from a pipe or a file, or one line typed with the echo off on a terminal. GitHub is asked
      whose it is (GET /user) before it is stored; a rejected token exits 4 and stores nothing.
      No client ID is needed. For example, in CI:
        printf '%s' "$GITHUB_PAT" | ghlogin auth --with-token

      --add-scopes LIST logs in again asking for the scopes the current login was granted plus
      LIST (like gh auth refresh --scopes), as the same account.

      gh's two-word forms work too: 'ghlogin auth login|status|token|logout|switch|setup-git …'
      are the plain commands with the same options and exit statuses; 'ghlogin auth refresh
      -s LIST' is 'ghlogin auth --add-scopes LIST', and 'ghlogin auth refresh' alone is
      'ghlogin refresh'.
      """,
    options: [
      .host,
      .option(
        "scopes", short: "s", value: "LIST",
        help: "Comma-separated scopes to ask for (default: config, then repo,read:org,gist)"),
      .flag("device", help: "Use the device flow: a one-time code to enter on any device"),
      .flag("web", help: "Use the browser flow (a redirect to 127.0.0.1), even with no display"),
      .flag("no-browser", help: "Print the URL to open yourself; do not launch a browser"),
      .option("port", value: "N", help: "Listen on this port of 127.0.0.1 (default: any free port; browser flow)"),
      .option(
        "timeout", value: "DURATION",
        help: "Give up after N, Ns, Nm or Nh without a login, 1s to 1h (default: 5m; device flow: the code's life)"),
      .option("user", value: "LOGIN", help: "Fail unless GitHub logs in this account"),
      .flag("with-token", help: "Read a token from standard input and store it after GitHub accepts it"),
      .option(
        "add-scopes", value: "LIST", help: "Log in again asking for the granted scopes plus these (comma-separated)"),
    ],
    arguments: [
      ArgumentSpec(
        "SUBCOMMAND", help: "gh's two-word forms: auth login is auth, auth token is token, and so on (see above)",
        isOptional: true, choices: subcommands.map(\.word))
    ],
    aliases: ["login"])

  /// gh's `auth WORD` forms and the command each runs (`refresh`: see ``refreshArguments(_:)``).
  static let subcommands: [(word: String, command: String)] = [
    ("login", "auth"), ("status", "status"), ("token", "token"), ("logout", "logout"), ("switch", "switch"),
    ("setup-git", "setup-git"), ("refresh", "refresh"),
  ]

  /// `auth refresh ARGS`: with `-s/--scopes LIST`, `auth --add-scopes LIST` and the other
  /// arguments (gh adds those scopes to the login); without, `refresh ARGS`.
  static func refreshArguments(_ arguments: [String]) -> (command: String, arguments: [String]) {
    var rewritten: [String] = []
    var addsScopes = false
    var index = arguments.startIndex
    while index < arguments.endIndex {
      let argument = arguments[index]
      index += 1
      if argument == "--" {
        rewritten += arguments[(index - 1)...]
        break
      }
      if argument == "-s" || argument == "--scopes" {
        addsScopes = true
        rewritten.append("--add-scopes")
        if index < arguments.endIndex {
          rewritten.append(arguments[index])
          index += 1
        }
      } else if argument.hasPrefix("--scopes=") {
        addsScopes = true
        rewritten.append("--add-scopes=" + argument.dropFirst("--scopes=".count))
      } else {
        rewritten.append(argument)
      }
    }
    return addsScopes ? ("auth", rewritten) : ("refresh", rewritten)
  }

  var host: String?
  var scopes: [String]?
  var device: Bool
  var web: Bool
  var noBrowser: Bool
  var port: Int?
  var timeout: Int?
  var expectedLogin: String?
  /// `--with-token`: store a token read from standard input.
  var withToken: Bool
  /// `--add-scopes`: scopes to ask for on top of those the current login was granted.
  var addScopes: [String]?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    host = arguments.value("host")
    scopes = try Self.scopeList(arguments, "scopes")
    addScopes = try Self.scopeList(arguments, "add-scopes")
    withToken = arguments.flag("with-token")
    device = arguments.flag("device")
    web = arguments.flag("web")
    noBrowser = arguments.flag("no-browser")
    port = try arguments.integer("port", in: 0...65535)
    timeout = try arguments.duration("timeout", in: 1...3600)
    expectedLogin = arguments.value("user")
    if let word = arguments.positionals.first {
      throw UsageError("put '\(word)' first, right after auth: ghlogin auth \(word) [options]")
    }
    if device && web { throw UsageError("--device and --web choose different flows; give one of them") }
    if device && port != nil { throw UsageError("--port is for the browser flow; the device flow listens on no port") }
    if scopes != nil && addScopes != nil {
      throw UsageError("--scopes gives the whole list and --add-scopes adds to the granted one; give one of them")
    }
    if withToken {
      let others = [
        ("device", device), ("web", web), ("no-browser", noBrowser), ("port", port != nil),
        ("timeout", timeout != nil), ("scopes", scopes != nil), ("add-scopes", addScopes != nil),
      ].filter(\.1).map { "--" + $0.0 }
      if let other = others.first {
        throw UsageError("\(other) is for logging in through GitHub; --with-token stores a token you already have")
      }
    }
  }

  /// The comma-separated scope names of option `name`, or nil when it was not given.
  private static func scopeList(_ arguments: ParsedArguments, _ name: String) throws(UsageError) -> [String]? {
    guard let list = arguments.value(name) else { return nil }
    let names = list.split(separator: ",").map { $0.trimmingASCIIWhitespace() }.filter { !$0.isEmpty }
    guard !names.isEmpty || name == "scopes", names.allSatisfy({ $0.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } }) else {
      throw UsageError("--\(name) takes names like repo,read:org without spaces or control characters")
    }
    return names
  }

  /// Said once, under the browser flow's waiting line: a wrong client ID or callback URL shows an
  /// error page in the browser while the terminal would count down to the end.
  static let browserErrorHint =
    "If the browser shows an error about the app or its callback URL, press Ctrl-C and check "
    + "'ghlogin config get client_id'."

  /// The flow the flags ask for: `--device` the device flow, `--web` and `--no-browser` the
  /// browser flow; nil lets the plan choose (``Workspace/route(_:)``).
  var requestedFlow: LoginFlow? { device ? .device : web || noBrowser ? .browser : nil }

  /// Logs in through the one login pipeline (``Workspace/plan(_:route:givenToken:)``,
  /// ``Workspace/login(_:remedies:events:warnings:)``), printing each event's lines on stderr; Ctrl-C stops the
  /// wait. What the plan decided (host, flow, paste-back) is read from it, never decided here.
  func run(in environment: Environment) throws -> ExitStatus {
    if withToken { return try runWithToken(in: environment) }
    var workspace = try Workspace(environment)
    var options = LoginOptions(
      host: host, flow: requestedFlow, scopes: scopes, expectedLogin: expectedLogin, timeout: timeout,
      port: port ?? 0, opensBrowser: !noBrowser, acceptsPastedRedirect: noBrowser)
    let stop = environment.interruptDescriptor()
    // The host and the flow, decided once: the set-up registers the app for them, the plan takes them.
    let route = try workspace.route(options)
    if addScopes == nil, Self.needsSetup(workspace, host: route.host) {
      try runSetup(workspace, host: route.host, flow: route.flow)
      workspace = try Workspace(environment, quiet: true)
    }
    if let addScopes {
      // The union, granted ones first, each once; the same account must log in again.
      let account = try workspace.account(on: route.host, user: expectedLogin, in: workspace.store.load())
      options.scopes = account.scopes + addScopes.filter { !account.scopes.contains($0) }
      options.expectedLogin = account.login
    }
    let stoppable = workspace.stopping(on: stop)
    let plan = try stoppable.plan(options, route: route)
    let style = TerminalStyle(environment.stderr, variables: environment.variables)
    let waiting = WaitingLine(output: environment.stderr, clock: environment.clock, style: style)
    // No countdown while a redirect address may be pasted: redrawing would hide what is typed.
    let pasting = plan.pasteInput != nil
    do {
      let newLogin = try stoppable.login(plan, remedies: .ghlogin) { event in
        switch event {
        case .loggedIn:
          waiting.stop(erase: true)
          for line in event.lines { environment.stderr.write(style.success(line) + "\n") }
        case .waiting(let flow, let seconds, _):
          event.lines.forEach(waiting.announce)
          if flow == .browser { waiting.announce(Self.browserErrorHint) }
          if !(flow == .browser && pasting) { waiting.start(until: environment.clock.monotonic() + Double(seconds)) }
        default:
          event.lines(emphasizing: { style.bold($0) }).forEach(waiting.announce)
        }
      } warnings: { warning in
        Workspace.printWarning(warning, on: environment)
      }
      waiting.stop(erase: true)
      // The rules are not asked who logs in (R112), but they may choose another account here.
      if let note = workspace.ruleMismatchNote(newLogin: newLogin.token.login, on: plan.host) {
        environment.stderr.write(note)
      }
    } catch {
      waiting.stop(erase: (error as? any ReportableError)?.exitStatus != .interrupted)
      throw error
    }
    if let hint = GitSetupHint.line(for: plan.host, workspace: workspace) { environment.stderr.write(hint) }
    return .success
  }
}
