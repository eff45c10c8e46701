import Synchronization
import Testing

import GHLoginTestSupport
@testable import GHLoginCLI

#if canImport(Glibc)
  import Glibc
#endif

/// `ghlogin auth` in-process: which flow runs, what is printed, what is stored.
@Suite(.verifiesFakes) struct AuthCommandTests {
  let fixture: StoreFixture
  let transport = FakeTransport()
  let clock = ManualClock()

  init() throws { fixture = try StoreFixture() }

  /// HOME, a client ID and a secret (which the device flow must not send), and `extra`.
  func variables(_ extra: [String: String] = [:]) -> [String: String] {
    var variables = ["HOME": fixture.home, "GHLOGIN_CLIENT_ID": "Iv1.device", "GHLOGIN_CLIENT_SECRET": "s3cr3t"]
    variables.merge(extra) { _, new in new }
    return variables
  }

  func stubDevice(polls: [PollScript.Answer] = [.pending, .token]) {
    transport.on("POST", DeviceStub.codeURL, respond: DeviceStub.codeAnswer())
    PollScript(clock: clock, polls).install(on: transport)
  }

  @Test(arguments: [["--device", "--web"], ["--device", "--port", "8080"]])
  func contradictoryFlags(_ arguments: [String]) {
    let run = runCommand(["auth"] + arguments, variables: variables())
    #expect(run.status == .usage)
    #expect(transport.requests.isEmpty)
  }

  /// Plain `auth` with no display: the device flow, announced; the login is stored as a device login.
  @Test func plainAuthWithoutDisplayUsesTheDeviceFlow() throws {
    stubDevice()
    transport.on("GET", DeviceStub.userURL, respond: DeviceStub.user)
    let browser = RecordingBrowser()
    let run = runCommand(["auth"], variables: variables(), clock: clock, transport: transport, browser: browser)
    #expect(run.status == .success)
    #expect(
      run.stderr == """
        No display found: using the device flow (pass --web for the browser flow).
        First copy your one-time code: WDJB-MJHT
        https://github.com/login/device
        Open that page on any device, enter the code, and approve the login to github.com.
        Waiting up to 15 minutes for the approval (Ctrl-C to cancel)...
        Logged in to github.com as octocat
        To let git use this login: ghlogin setup-git

        """)
    #expect(run.stdout.isEmpty)
    #expect(browser.opened.isEmpty)
    let stored = try fixture.store().load().hosts["github.com"]?.accounts.first
    #expect(stored?.token == "gho_device")
    #expect(stored?.viaDeviceFlow == true)
    #expect(!transport.requests.contains { String(decoding: $0.body, as: UTF8.self).contains("s3cr3t") })
  }

  /// `--device` with a display opens the verification page; `--no-browser` does not.
  @Test(arguments: [false, true])
  func deviceOpensTheBrowserUnlessTold(_ noBrowser: Bool) throws {
    stubDevice(polls: [.token])
    transport.on("GET", DeviceStub.userURL, respond: DeviceStub.user)
    let browser = RecordingBrowser()
    let run = runCommand(
      ["auth", "--device"] + (noBrowser ? ["--no-browser"] : []), variables: variables(["DISPLAY": ":0"]),
      clock: clock, transport: transport, browser: browser)
    #expect(run.status == .success)
    #expect(browser.opened.map(\.description) == (noBrowser ? [] : ["https://github.com/login/device"]))
    #expect(run.stderr.contains("Opened your browser.") == !noBrowser)
  }

  /// A failed device login stores nothing and leaves an existing file as it was.
  @Test(arguments: [
    ("expired_token", 1, "ghlogin: the code expired; run 'ghlogin auth --device' again\n"),
    (
      "access_denied", 1,
      "ghlogin: the login to github.com was denied (access_denied); nothing was stored. Run 'ghlogin auth --device' again to retry\n"
    ),
    // Issue 29 §2: the app is refused during a login: exit 2, client_id, its layer and the fix.
    (
      "device_flow_disabled", 2,
      "ghlogin: github.com refused the login's app (error 'device_flow_disabled'): client_id Iv1.device from "
        + "GHLOGIN_CLIENT_ID; set GHLOGIN_CLIENT_ID to your app's client ID (or unset it and run "
        + "'ghlogin config set client_id ID'); for the device flow, tick \"Enable Device Flow\" on the app's page "
        + "(https://github.com/settings/developers), or log in with the browser: 'ghlogin auth --web'\n"
    ),
  ])
  func failureLeavesTheStoreAlone(_ code: String, _ status: Int32, _ message: String) throws {
    try fixture.store().update { $0 = sampleCredentials(sampleCredential(token: "gho_before")) }
    let before = readFile(fixture.file)
    stubDevice(polls: [.pending, .respond(DeviceStub.oauthError(code))])
    let run = runCommand(["auth", "--device"], variables: variables(), clock: clock, transport: transport)
    #expect(run.status.rawValue == status)
    #expect(run.stderr.hasSuffix(message))
    #expect(readFile(fixture.file) == before)
  }

  /// `--timeout` caps the device flow's wait.
  @Test func timeoutCapsTheDeviceWait() {
    stubDevice(polls: Array(repeating: .pending, count: 10))
    let start = clock.monotonic()
    let run = runCommand(
      ["auth", "--device", "--timeout", "20"], variables: variables(), clock: clock, transport: transport)
    #expect(run.status == .failure)
    #expect(run.stderr.contains("Waiting up to 20 seconds for the approval"))
    #expect(abs(clock.monotonic() - start - 20) < 1e-6)
  }

  /// Paste-back through the command: `--no-browser` with a terminal on stdin reads a pasted address.
  @Test func pasteBackThroughTheCommand() throws {
    let paste = try TestPipe()
    transport.on(
      "POST", DeviceStub.tokenURL, respond: .json(#"{"access_token":"gho_pasted","token_type":"bearer"}"#))
    transport.on("GET", DeviceStub.userURL, respond: DeviceStub.user)
    let transport = transport
    let stderr = PastingOutput { url in
      let (port, state) = redirectPortAndState(of: url)
      paste.type("http://127.0.0.1:\(port)/callback?code=pasted&state=\(state)")
    }
    let environment = Environment(
      arguments: ["auth", "--no-browser", "--timeout", "3"], variables: EnvironmentVariables(variables()),
      stdout: BufferOutput(),
      stderr: stderr, stdin: TerminalPipe(fd: paste.read), clock: SystemClock(), browser: RecordingBrowser(),
      transport: { _ in transport })
    let status = GHLogin.main(environment: environment)
    #expect(status == .success, "\(stderr.text)")
    #expect(stderr.text.contains("\n" + PasteBack.prompt + "\n"))
    #expect(try fixture.store().load().hosts["github.com"]?.accounts.first?.token == "gho_pasted")
    #expect(try fixture.store().load().hosts["github.com"]?.accounts.first?.viaDeviceFlow == false)
  }

  /// No prompt when stdin is not a terminal (a script), even with `--no-browser`; the browser
  /// flow still works.
  @Test func noPasteBackWithoutATerminal() throws {
    transport.on(
      "POST", DeviceStub.tokenURL, respond: .json(#"{"access_token":"gho_browser","token_type":"bearer"}"#))
    transport.on("GET", DeviceStub.userURL, respond: DeviceStub.user)
    let transport = transport
    let stderr = PastingOutput { url in
      let (port, state) = redirectPortAndState(of: url)
      _ = Background {
        TestNetwork.exchange(
          port: port, "GET /callback?code=c&state=\(state) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
      }
    }
    let environment = Environment(
      arguments: ["auth", "--no-browser"], variables: EnvironmentVariables(variables()), stdout: BufferOutput(),
      stderr: stderr,
      stdin: BufferInput("", isTerminal: false), clock: SystemClock(), browser: RecordingBrowser(),
      transport: { _ in transport })
    #expect(GHLogin.main(environment: environment) == .success)
    #expect(!stderr.text.contains(PasteBack.prompt))
    #expect(try fixture.store().load().hosts["github.com"]?.accounts.first?.token == "gho_browser")
  }
}

/// A terminal stand-in: a pipe's read end that says it is a terminal.
struct TerminalPipe: ByteInput {
  let fd: Int32
  func readAll(limit: Int) -> [UInt8]? { [] }
  func readLine() -> String? { nil }
  var isTerminal: Bool { true }
  var descriptor: Int32? { fd }
}

/// Collects stderr and, when the authorize URL appears on a line, calls `paste` with it once.
final class PastingOutput: TextOutput {
  private let storage = TestLock("")
  private let paste: @Sendable (WebURL) -> Void
  init(paste: @escaping @Sendable (WebURL) -> Void) { self.paste = paste }
  var isTerminal: Bool { false }
  var text: String { storage.withLock { $0 } }

  func write(_ text: String) {
    storage.withLock { $0 += text }
    let line = text.hasSuffix("\n") ? String(text.dropLast()) : text
    if line.hasPrefix("https://github.com/login/oauth/authorize?"), let url = try? WebURL(parsing: line) { paste(url) }
  }
}

/// The device flow is chosen by itself only where its endpoint is known,
/// and the guided set-up's checks of what is typed.
@Suite(.verifiesFakes) struct FirstRunFlowTests {
  @Test func withoutAKnownDeviceEndpointHeadlessUsesTheBrowserAndSaysWhy() {
    let ssh = ["SSH_CONNECTION": "10.0.0.1 5 10.0.0.2 22", "DISPLAY": ":0"]
    #expect(FlowChoice.automatic(variables: EnvironmentVariables(ssh), deviceEndpoint: true, host: "h").0 == .device)
    let (flow, note) = FlowChoice.automatic(
      variables: EnvironmentVariables(ssh), deviceEndpoint: false, host: "127.0.0.1:8080")
    #expect(flow == .browser)
    #expect(
      note?.text(.ghlogin)
        == "Logged in over SSH, but no device_code_url is configured for 127.0.0.1:8080: using the browser flow "
        + "(set device_code_url, or pass --device, for the device flow).")
    #expect(
      FlowChoice.automatic(variables: [:], deviceEndpoint: false, host: "h").1?.text(.ghlogin).hasPrefix(
        "No display found, but")
        == true)
    #expect(FlowChoice.automatic(variables: ["DISPLAY": ":0"], deviceEndpoint: false, host: "h") == (.browser, nil))
  }

  @Test func aDeviceEndpointIsKnownWhenConfiguredOrDerivedForTheHost() throws {
    func known(_ settings: HostSettings, host: String = "github.com") throws -> Bool {
      let config = Config(file: "f", topLevel: settings)
      let workspace = Workspace(
        Environment(
          arguments: [], variables: [:], stdout: BufferOutput(), stderr: BufferOutput(), stdin: BufferInput(),
          clock: ManualClock(), browser: RecordingBrowser(), transport: { _ in NoNetwork() }),
        paths: ConfigPaths(configFile: "f", credentialsFile: "c", home: nil), config: config)
      return workspace.deviceEndpointIsKnown(for: try GitHubHost(validating: host))
    }
    let loopback = try WebURL(parsing: "http://127.0.0.1:9/login/oauth/access_token")
    #expect(try known(HostSettings()))
    #expect(try known(HostSettings(), host: "ghe.example.com"))
    #expect(try known(HostSettings(), host: "acme.ghe.com"))
    #expect(try !known(HostSettings(tokenURL: loopback)))
    #expect(try known(HostSettings(tokenURL: loopback, deviceCodeURL: loopback)))
  }

  @Test func aDerivedEndpointTakesTheSchemeOfTheConfiguredOnesOnTheHost() throws {
    let host = try GitHubHost(validating: "127.0.0.1:9")
    let token = try WebURL(parsing: "http://127.0.0.1:9/login/oauth/access_token")
    let endpoints = Endpoints(host: host, token: token)
    #expect(endpoints.deviceCode.description == "http://127.0.0.1:9/login/device/code")
    #expect(endpoints.authorize.description == "http://127.0.0.1:9/login/oauth/authorize")
    #expect(endpoints.api.description == "http://127.0.0.1:9/api/v3")
    let elsewhere = Endpoints(host: .gitHubDotCom, token: token)
    #expect(elsewhere.deviceCode.description == "https://github.com/login/device/code", "never http:// to github.com")
  }

  @Test(arguments: [
    ("", "it is empty"), ("two words", "it contains a space"), ("tab\there", "it contains a space"),
    ("Ov23li\u{7F}", "it contains characters that are not printable ASCII"),
    ("Ov23liÉ", "it contains characters that are not printable ASCII"),
  ])
  func typedAppValuesAreChecked(_ text: String, _ problem: String) {
    #expect(ConfigEditor.appCredentialProblem(text) == problem)
  }

  @Test func aPlausibleValuePasses() {
    #expect(ConfigEditor.appCredentialProblem("Ov23liABCdef.0123") == nil)
  }
}
