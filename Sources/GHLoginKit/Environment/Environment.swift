/// Opens a URL in the user's browser.
protocol BrowserOpener: Sendable {
  /// Launches the browser on `url` without a shell; throws when it cannot.
  func open(_ url: WebURL, environment: [String: String]) throws
}

/// Everything a command may touch outside its own memory.
///
/// Commands get one of these and nothing else: tests build one with buffers,
/// a manual clock and a fake transport, and run commands in-process.
public struct Environment: Sendable {
  /// The arguments after the program name.
  var arguments: [String]
  /// The last path component of the name the program was run as (argv[0]): `ghlogin`, or
  /// `docker-credential-ghlogin` through the link `scripts/install.sh` makes (``GHLogin/main(environment:)``).
  var programName: String = "ghlogin"
  /// The environment variables.
  var variables: [String: String]
  var stdout: any TextOutput
  var stderr: any TextOutput
  var stdin: any ByteInput
  var clock: any TimeSource
  var browser: any BrowserOpener
  /// How HTTP requests leave the process, given an extra CA bundle to trust (config `ca_file`).
  var transport: @Sendable (_ caFile: String?) -> any HTTPTransport
  /// The absolute path of the running executable (for `setup-git`), worked out when asked.
  var executablePath: String {
    get { resolveExecutablePath() }
    set { resolveExecutablePath = { newValue } }
  }
  /// Works out ``executablePath``. For the process it is a `readlink`, a `getcwd` and a `PATH`
  /// search, which only `setup-git` needs: not done at start-up (it cost `token` 15 % of its time).
  var resolveExecutablePath: @Sendable () -> String
  /// Installs Ctrl-C handling and returns a descriptor that becomes readable on SIGINT or
  /// SIGTERM; nil in tests, which stop a login with its timeout instead.
  var interruptDescriptor: @Sendable () -> Int32?
  /// That descriptor once something installed Ctrl-C handling (``interruptDescriptor`` was
  /// called), else nil. Every request of every command watches it (``Workspace/transport(for:)``):
  /// once SIGINT no longer kills the process, no request may outlast it.
  var installedInterruptDescriptor: @Sendable () -> Int32?

  init(
    arguments: [String], variables: [String: String], stdout: any TextOutput, stderr: any TextOutput,
    stdin: any ByteInput, clock: any TimeSource, browser: any BrowserOpener,
    transport: @escaping @Sendable (_ caFile: String?) -> any HTTPTransport,
    executablePath: String = "ghlogin", interruptDescriptor: @escaping @Sendable () -> Int32? = { nil },
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
