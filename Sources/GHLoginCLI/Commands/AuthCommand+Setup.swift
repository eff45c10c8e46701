import GHLoginCore

/// `ghlogin auth` with no client ID on a terminal: the guided set-up of an OAuth app. It
/// shows the values to enter on GitHub's registration page (and opens the page when a browser
/// can be opened), asks for the client ID and the client secret (hidden; empty for a
/// public client), writes them to the user's config (``ConfigEditor/saveApp(clientID:clientSecret:host:to:)``:
/// the top level for the default host, `hosts.HOST` otherwise) and returns, so the login goes
/// on. Ctrl-C at a prompt writes nothing (exit 130). Without a terminal on stdin and stderr it
/// does nothing and the login fails with ``MissingClientID`` as before.
extension AuthCommand {
  /// The longest client ID or secret read.
  static let maximumAppInput = 1024

  /// Whether the set-up runs: no client ID for `host`, and a terminal to ask on.
  static func needsSetup(_ workspace: Workspace, host: GitHubHost) -> Bool {
    let environment = workspace.environment
    guard environment.stdin.isTerminal, environment.stderr.isTerminal, environment.stdin.descriptor != nil else {
      return false
    }
    return (try? workspace.app(for: host)) == nil
  }

  /// The registration page for `host`: `/settings/applications/new` where its web pages are.
  static func registrationPage(_ workspace: Workspace, host: GitHubHost) -> WebURL {
    let authorize = workspace.endpoints(for: host).authorize
    return WebURL(scheme: authorize.scheme, host: authorize.host, port: authorize.explicitPort, pathAndQuery: "/")
      .appending(path: "settings/applications/new")
  }

  /// The guided set-up; `flow` is the flow the login will use (the device flow needs its box).
  func runSetup(_ workspace: Workspace, host: GitHubHost, flow: LoginFlow) throws {
    let environment = workspace.environment
    let err = environment.stderr
    let page = Self.registrationPage(workspace, host: host)
    var opened = false
    if BrowserLauncher.canOpen(environment: environment.variables) {
      opened = (try? environment.browser.open(page, environment: environment.variables)) != nil
    }
    let home = WebURL(scheme: page.scheme, host: page.host, port: page.explicitPort, pathAndQuery: "/")
    let device =
      flow == .device
      ? "tick it (this login uses the device flow: no browser here)" : "not needed (tick it for logins over SSH)"
    err.write(
      """
      No OAuth app is configured for \(host) yet. Register one (once; it takes a minute):
        1. Open \(page)\(opened ? " (opened in your browser)" : "")
        2. Enter:
             Application name            ghlogin
             Homepage URL                \(home)
             Authorization callback URL  http://127.0.0.1/callback
             Enable Device Flow          \(device)
        3. Click "Register application" and copy the Client ID. For the browser flow, also click
           "Generate a new client secret" and copy it.

      """)
    guard let clientID = try ask("Client ID: ", visible: true, optional: false, environment: environment) else {
      throw SetupError.noAnswer
    }
    let secret = try ask(
      "Client secret (not shown; press Enter for none, a public client): ", visible: false, optional: true,
      environment: environment)
    let file = workspace.paths.configFile
    let block = host.name == workspace.config.defaultHost ? nil : host.name
    try ConfigEditor.saveApp(clientID: clientID, clientSecret: secret, host: block, to: file)
    let keys = secret == nil ? "client_id" : "client_id and client_secret"
    let place = block.map { "the hosts.\($0) block of " } ?? ""
    err.write("Saved \(keys) to \(place)\(file). Logging in...\n")
  }

  /// One answer, checked (``ConfigEditor/appCredentialProblem(_:)``), asked again after a
  /// wrong one (three tries). Empty means none where `optional`.
  private func ask(_ prompt: String, visible: Bool, optional: Bool, environment: Environment) throws -> String? {
    guard let fd = environment.stdin.descriptor else { throw SetupError.noAnswer }
    for _ in 0..<3 {
      let bytes: [UInt8]
      do {
        bytes = try TerminalSecret.readLine(
          fd: fd, stopFD: environment.interruptDescriptor(), limit: Self.maximumAppInput, visible: visible
        ) { environment.stderr.write(prompt) }
      } catch {
        switch error {
        case .interrupted:
          throw InterruptedInput()  // GHLogin puts its message on a line of its own
        case .endOfInput:
          environment.stderr.write("\n")
          throw SetupError.noAnswer
        case .tooLong:
          environment.stderr.write("That is longer than \(Self.maximumAppInput) bytes; it is not one.\n")
          continue
        case .cannotHideInput(let systemError):
          throw SetupError.cannotHideInput(systemError.description)
        }
      }
      var text = String(decoding: bytes, as: UTF8.self)
      if text.hasSuffix("\r") { text.removeLast() }
      if optional && text.isEmpty { return nil }
      guard let problem = ConfigEditor.appCredentialProblem(text) else { return text }
      environment.stderr.write("That is not usable: \(problem). Paste it again.\n")
    }
    throw SetupError.unusable
  }

  /// Why the set-up stopped without writing anything (exit 2).
  enum SetupError: ReportableError, Equatable {
    case noAnswer
    case unusable
    case cannotHideInput(String)

    var message: String {
      switch self {
      case .noAnswer: "no answer was given; nothing was written"
      case .unusable: "no usable value after three tries; nothing was written"
      case .cannotHideInput(let reason):
        "cannot turn off the echo of this terminal (\(reason)), so the secret is not read from it; nothing was "
          + "written. Run: ghlogin config set client_secret -"
      }
    }

    var exitStatus: ExitStatus { .usage }
    var errorKind: ErrorKind { .configuration }
  }
}
