/// Opens a URL in the user's browser.
package protocol BrowserOpener: Sendable {
  /// Launches the browser on `url` without a shell; throws when it cannot.
  func open(_ url: WebURL, environment: EnvironmentVariables) throws
  /// Whether a browser can be shown at all with these variables (the system's needs a display);
  /// a library caller's own browser always can.
  func canOpen(environment: EnvironmentVariables) -> Bool
}

extension BrowserOpener {
  /// The system's rule: a display (`DISPLAY`, `WAYLAND_DISPLAY`), or `BROWSER` set.
  package func canOpen(environment: EnvironmentVariables) -> Bool { BrowserLauncher.canOpen(environment: environment) }
}

/// Everything a command may touch outside its own memory.
///
/// Commands get one of these and nothing else: tests build one with buffers,
/// a manual clock and a fake transport, and run commands in-process.
package struct Environment: Sendable {
  /// The arguments after the program name.
  package var arguments: [String]
  /// The last path component of the name the program was run as (argv[0]): `ghlogin`, or
  /// `docker-credential-ghlogin` through the link `scripts/install.sh` makes (the command line dispatches on it).
  package var programName: String = ProductNames.defaultProgramName
  /// The environment variables.
  package var variables: EnvironmentVariables
  package var stdout: any TextOutput
  package var stderr: any TextOutput
  package var stdin: any ByteInput
  package var clock: any TimeSource
  package var browser: any BrowserOpener
  /// Where the tokens of accounts kept in the keyring go: the platform's keyring (the Secret
  /// Service, contacted only for such accounts); the library's callers may give their own.
  package var secrets: any SecretStore = SecretStores.platform
  /// How HTTP requests leave the process, given an extra CA bundle to trust (config `ca_file`).
  package var transport: @Sendable (_ caFile: String?) -> any HTTPTransport
  /// The absolute path of the running executable (for `setup-git`), worked out when asked.
  package var executablePath: String {
    get { resolveExecutablePath() }
    set { resolveExecutablePath = { newValue } }
  }
  /// Works out ``executablePath``. For the process it is a `readlink`, a `getcwd` and a `PATH`
  /// search, which only `setup-git` needs: not done at start-up (bench/RESULTS.md, issue 8).
  var resolveExecutablePath: @Sendable () -> String
  /// Installs Ctrl-C handling and returns a descriptor that becomes readable on SIGINT or
  /// SIGTERM; nil in tests, which stop a login with its timeout instead.
  package var interruptDescriptor: @Sendable () -> Int32?
  /// That descriptor once something installed Ctrl-C handling (``interruptDescriptor`` was
  /// called), else nil. Every request of every command watches it (``Workspace/transport(for:)``):
  /// once SIGINT no longer kills the process, no request may outlast it.
  package var installedInterruptDescriptor: @Sendable () -> Int32?

  package init(
    arguments: [String], variables: EnvironmentVariables, stdout: any TextOutput, stderr: any TextOutput,
    stdin: any ByteInput, clock: any TimeSource, browser: any BrowserOpener,
    transport: @escaping @Sendable (_ caFile: String?) -> any HTTPTransport,
    executablePath: String = ProductNames.defaultProgramName,
    interruptDescriptor: @escaping @Sendable () -> Int32? = { nil },
    installedInterruptDescriptor: (@Sendable () -> Int32?)? = nil
  ) {
    self.arguments = arguments
    self.variables = variables
    self.stdout = stdout
    self.stderr = stderr
    self.stdin = stdin
    self.clock = clock
    self.browser = browser
    self.transport = transport
    self.resolveExecutablePath = { executablePath }
    self.interruptDescriptor = interruptDescriptor
    // By default the same descriptor: a test's is "installed" from the start.
    self.installedInterruptDescriptor = installedInterruptDescriptor ?? interruptDescriptor
  }
}
