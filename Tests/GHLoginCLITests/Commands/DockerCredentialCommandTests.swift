import Testing

import GHLoginTestSupport
@testable import GHLoginCLI

/// `docker-credential-ghlogin` and `ghlogin goauth` in-process against a real credentials file
/// (R104, R105).
@Suite struct DockerCredentialCommandTests {
  static let token = "gho_16C7e42F292c6912E7710c838347Ae178B4a"
  static let notFound = "credentials not found in native keychain\n"

  let fixture: StoreFixture
  var variables: [String: String] { ["HOME": fixture.home] }

  init() throws { fixture = try StoreFixture() }

  func seed(host: String = "github.com", scopes: [String] = ["repo", "read:packages"]) throws {
    var credential = sampleCredential(token: Self.token)
    credential.scopes = scopes
    try fixture.store().update { $0 = sampleCredentials(host: host, credential) }
  }

  /// Runs the helper as docker does (argv[0] `docker-credential-ghlogin`), or as
  /// `ghlogin docker-credential ACTION` when `viaLink` is false.
  func helper(
    _ action: String, _ input: String, viaLink: Bool = true, stdinIsTerminal: Bool = false,
    browser: RecordingBrowser = RecordingBrowser(), extra: [String: String] = [:]
  ) -> CommandRun {
    let out = BufferOutput()
    let err = BufferOutput()
    var environment = Environment(
      arguments: viaLink ? [action] : ["docker-credential", action],
      variables: EnvironmentVariables(variables.merging(extra) { $1 }),
      stdout: out, stderr: err, stdin: BufferInput(input, isTerminal: stdinIsTerminal), clock: ManualClock(),
      browser: browser, transport: { _ in NoNetwork() }, executablePath: "/usr/local/bin/ghlogin")
    if viaLink { environment.programName = "docker-credential-ghlogin" }
    let status = GHLogin.main(environment: environment)
    return CommandRun(status: status, stdout: out.text, stderr: err.text)
  }

  @Test(arguments: [true, false])
  func getAnswersForGhcr(viaLink: Bool) throws {
    try seed()
    let run = helper("get", "ghcr.io\n", viaLink: viaLink)
    #expect(run.status == .success)
    #expect(run.stdout == #"{"ServerURL":"ghcr.io","Username":"octocat","Secret":"\#(Self.token)"}"# + "\n")
    #expect(run.stderr == "")
  }

  @Test func getKeepsTheServerURLAsGiven() throws {
    try seed()
    let run = helper("get", "  https://GHCR.io/v2/\n")
    #expect(run.stdout == #"{"ServerURL":"https://GHCR.io/v2/","Username":"octocat","Secret":"\#(Self.token)"}"# + "\n")
  }

  /// Each "Never" case: exactly the not-found text, exit 1, no token anywhere, the store unchanged.
  @Test(arguments: [
    "ghcr.io.evil.test", "evilghcr.io", "ghcr.io@x", "https://ghcr.io:444", "docker.io", "", "ghcr.io\u{0}",
    "http://ghcr.io", "ghcr.io\u{2028}", "GHCR.İO",
  ])
  func neverAnswersForAnotherRegistry(input: String) throws {
    try seed()
    let before = readFile(fixture.file)
    let run = helper("get", input)
    #expect(run.status == .failure)
    #expect(run.stdout == Self.notFound)
    #expect(!run.stderr.contains(Self.token))
    #expect(run.stderr.hasPrefix("ghlogin: docker-credential-ghlogin: "))
    #expect(readFile(fixture.file) == before)
  }

  @Test func unmappedRegistrySaysHowToMapIt() throws {
    try seed()
    let run = helper("get", "evilghcr.io")
    #expect(run.stdout == Self.notFound)
    #expect(run.stderr.contains("evilghcr.io is not a registry ghlogin answers for"))
    #expect(run.stderr.contains("ghlogin config set [--host HOST] container_registries evilghcr.io"))
  }

  @Test func notLoggedInSaysWhichLoginToMake() {
    let run = helper("get", "ghcr.io")
    #expect(run.status == .failure)
    #expect(run.stdout == Self.notFound)
    #expect(
      run.stderr
        == "ghlogin: docker-credential-ghlogin: ghcr.io needs a github.com login with read:packages, and there is none\n"
        + "ghlogin: run 'ghlogin auth --scopes repo,read:org,gist,read:packages'\n")
  }

  @Test func aBadConfigIsNotFoundWithItsReason() throws {
    try seed()
    try writeFile(fixture.configDirectory + "/config.json", "{not json")
    let run = helper("get", "ghcr.io")
    #expect(run.status == .failure)
    #expect(run.stdout == Self.notFound)
    #expect(run.stderr.contains("config.json"))
    #expect(run.stderr.contains("ghlogin: run 'ghlogin status'"))
  }

  @Test func aTerminalOnStdinIsNeverWaitedOn() throws {
    try seed()
    let browser = RecordingBrowser()
    let run = helper("get", "ghcr.io", stdinIsTerminal: true, browser: browser)
    #expect(run.stdout == Self.notFound)
    #expect(run.status == .failure)
    #expect(browser.opened.isEmpty)
  }

  @Test func storeOfWhatGetAnswersWritesNothing() throws {
    try seed()
    let before = readFile(fixture.file)
    let run = helper("store", #"{"ServerURL":"ghcr.io","Username":"octocat","Secret":"\#(Self.token)"}"#)
    #expect(run.status == .success)
    #expect(run.stdout == "")
    #expect(readFile(fixture.file) == before)
  }

  @Test(arguments: [
    #"{"ServerURL":"ghcr.io","Username":"octocat","Secret":"ghp_FOREIGNsecret"}"#,
    #"{"ServerURL":"ghcr.io","Username":"<token>","Secret":"ghp_FOREIGNsecret"}"#,
    #"{"ServerURL":"registry.example","Username":"octocat","Secret":"ghp_FOREIGNsecret"}"#,
    "not json ghp_FOREIGNsecret",
  ])
  func storeOfAForeignSecretIsRefusedQuotingNothing(input: String) throws {
    try seed()
    let before = readFile(fixture.file)
    let run = helper("store", input)
    #expect(run.status == .failure)
    #expect(!run.stdout.contains("FOREIGN") && !run.stderr.contains("FOREIGN"))
    #expect(!run.stdout.contains(Self.token) && !run.stderr.contains(Self.token))
    #expect(run.stderr.contains("refusing to store a registry credential; nothing was written"))
    #expect(readFile(fixture.file) == before)
  }

  @Test func eraseChangesNothing() throws {
    try seed()
    let before = readFile(fixture.file)
    let run = helper("erase", "ghcr.io\n")
    #expect(run.status == .success)
    #expect(run.stdout == "")
    #expect(run.stderr.contains("Run 'ghlogin logout' to remove it."))
    #expect(readFile(fixture.file) == before)
  }

  @Test func listNamesLoginsNeverTokens() throws {
    try seed()
    let run = helper("list", "")
    #expect(run.status == .success)
    #expect(run.stdout == #"{"ghcr.io":"octocat","docker.pkg.github.com":"octocat"}"# + "\n")
  }

  @Test func listWithoutALoginIsEmpty() {
    let run = helper("list", "")
    #expect(run.status == .success)
    #expect(run.stdout == "{}\n")
  }

  @Test func versionAndUnknownActions() {
    #expect(helper("version", "").stdout == "docker-credential-ghlogin (ghlogin) \(Release.version)\n")
    let unknown = helper("frobnicate", "")
    #expect(unknown.status == .failure)
    #expect(!unknown.stdout.contains("frobnicate"))
  }

  /// Listed only under "Run by other programs" (issue 29 §2), never among the commands a person types.
  @Test func listedOnlyAsRunByOtherPrograms() {
    let help = runCommand(["--help"]).stdout
    let parts = help.split(separator: "Run by other programs", maxSplits: 1)
    #expect(parts.count == 2)
    #expect(!parts[0].contains("docker-credential"))
    #expect(!parts[0].contains("goauth"))
    #expect(parts[0].contains("setup-docker"))
    #expect(parts.last?.contains("  docker-credential  ") == true)
    #expect(parts.last?.contains("  goauth  ") == true)
    let page = ManPage.render(commands: GHLogin.commands.map { $0.configuration })
    #expect(page.contains("ghlogin docker\\-credential action"))
    #expect(page.contains("ghlogin goauth"))
    #expect(page.contains("ghlogin setup\\-docker"))
  }

  // MARK: goauth

  func goauth(_ arguments: [String], stdin: String = "", extra: [String: String] = [:]) -> CommandRun {
    runCommand(["goauth"] + arguments, variables: variables.merging(extra) { $1 }, stdin: stdin)
  }

  @Test func goauthFirstCallDisclosesNothing() throws {
    try seed(host: "ghe.example.com")
    let run = goauth([])
    #expect(run.status == .success)
    #expect(run.stdout == "")
    #expect(run.stderr == "")
  }

  @Test func goauthAnswersForALoggedInHost() throws {
    try seed(host: "ghe.example.com")
    let run = goauth(["https://ghe.example.com/mod/@v/list"], stdin: "HTTP/1.1 401 Unauthorized\n\n")
    let basic = Crypto.base64(Array("octocat:\(Self.token)".utf8))
    #expect(run.stdout == "https://ghe.example.com/\n\nAuthorization: Basic \(basic)\n\n")
    #expect(run.status == .success)
  }

  @Test(arguments: [
    "http://ghe.example.com/x", "https://ghe.example.com.evil.test/x", "https://evilghe.example.com/x",
    "https://ghe.example.com@evil.test/x", "https://ghe.example.com:444/x", "https://github.com/x",
  ])
  func goauthAnswersNothingForAURLThatDidNotAsk(url: String) throws {
    try seed(host: "ghe.example.com")
    let run = goauth([url])
    #expect(run.status == .success)
    #expect(run.stdout == "")
    #expect(!run.stderr.contains(Self.token))
  }
}
