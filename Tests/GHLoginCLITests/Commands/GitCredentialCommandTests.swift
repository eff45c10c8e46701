import Glibc
import Testing

import GHLoginTestSupport
@testable import GHLoginCLI

/// `ghlogin git-credential` in-process against a real credentials file: R52–R55, R57–R60.
@Suite struct GitCredentialCommandTests {
  static let token = "gho_16C7e42F292c6912E7710c838347Ae178B4a"
  static let secondToken = "gho_SECONDaccountTOKEN000000000000000042"
  static let host = "github.test"

  let fixture: StoreFixture
  var variables: [String: String] { ["HOME": fixture.home] }

  init() throws { fixture = try StoreFixture() }

  func seed(_ credential: Credential = sampleCredential(token: token)) throws {
    try fixture.store().update { $0 = sampleCredentials(host: Self.host, credential) }
  }

  /// Runs `ghlogin git-credential OPERATION` with `input` as raw standard input.
  func helper(
    _ operation: String, _ input: [UInt8], variables extra: [String: String] = [:],
    browser: RecordingBrowser = RecordingBrowser(), stdinIsTerminal: Bool = false
  ) -> CommandRun {
    let out = BufferOutput()
    let err = BufferOutput()
    let environment = Environment(
      arguments: ["git-credential", operation], variables: EnvironmentVariables(variables.merging(extra) { $1 }),
      stdout: out,
      stderr: err, stdin: BufferInput(input, isTerminal: stdinIsTerminal), clock: ManualClock(),
      browser: browser, transport: { _ in NoNetwork() }, executablePath: "/usr/local/bin/ghlogin")
    let status = GHLogin.main(environment: environment)
    return CommandRun(status: status, stdout: out.text, stderr: err.text)
  }

  func helper(_ operation: String, _ input: String, variables extra: [String: String] = [:]) -> CommandRun {
    helper(operation, Array(input.utf8), variables: extra)
  }

  static let answer = "username=octocat\npassword=\(token)\n"

  // MARK: - get

  @Test func t52GetAnswersUsernameAndPasswordAndNothingElse() throws {
    try seed()
    let run = helper("get", "protocol=https\nhost=github.test\n\n")
    #expect(run.status == .success)
    #expect(run.stdout == Self.answer)
    #expect(run.stderr.isEmpty)
  }

  @Test func t52GetAddsTheExpiryOfAnExpiringTokenAndNeverTheRefreshToken() throws {
    var credential = sampleCredential(token: Self.token)
    credential.expiresAt = 1_700_028_800.75
    credential.refreshToken = "ghr_REFRESHtoken0000000000000000000000000000"
    try seed(credential)
    let run = helper("get", "protocol=https\nhost=github.test\n\n")
    #expect(run.stdout == Self.answer + "password_expiry_utc=1700028800\n")
    #expect(!run.stdout.contains("ghr_"))
    #expect(!run.stdout.contains("oauth_refresh_token"))
  }

  @Test(arguments: [
    "github.test.evil.test", "evil.test", "evil.test.github.test", "github.test:443", "github.test:8443",
  ])
  func t53GetAnswersNothingForAnotherHost(_ host: String) throws {
    try seed()
    let run = helper("get", "protocol=https\nhost=\(host)\n\n")
    #expect(run.status == .success)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.isEmpty)
  }

  @Test func t53GetMatchesTheHostIgnoringASCIICase() throws {
    try seed()
    #expect(helper("get", "protocol=https\nhost=GitHub.TEST\n\n").stdout == Self.answer)
  }

  @Test(arguments: [
    "host=evil.test/github.test\n", "host=github.test/evil\n", "host=octocat@github.test\n",
    "host=github.test@evil.test\n",
  ])
  func getRefusesAHostWithAPathOrUserInfo(_ line: String) throws {
    try seed()
    let run = helper("get", "protocol=https\n" + line + "\n")
    #expect(run.status == .usage)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix("ghlogin: git-credential: refusing the request: the host on line 2"))
  }

  @Test(arguments: [
    "protocol=http\nhost=github.test\n\n", "host=github.test\n\n", "protocol=https\nhost=\n\n", "protocol=https\n\n",
    "protocol=HTTPS\nhost=github.test\n\n", "protocol=https \nhost=github.test\n\n", "protocol=ssh\nhost=github.test\n",
    "",
  ])
  func t54GetAnswersNothingWithoutHTTPSAndAHost(_ input: String) throws {
    try seed()
    let run = helper("get", input)
    #expect(run.status == .success)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.isEmpty)
  }

  @Test(arguments: [
    "protocol=https\nhost=evil.test\rhost=github.test\n\n",  // R52
    "protocol=https\nhost=github.test\u{2028}host=x\n\n",  // R52
    "protocol=https\nhost=github.test\u{85}\n\n",  // R52
    "protocol=https\nhost=github.test\0\n\n",  // R52
    "protocol=https\r\nhost=github.test\r\n\r\n",  // R52
    "protocol=https\nhost=github.test\nusername=octocat\rpassword=x\n\n",
    "protocol=https\nhost=github.test\nbogus\n\n",
  ])
  func t55to57HostileInputIsRefusedWithNoCredential(_ input: String) throws {
    try seed()
    let run = helper("get", input)
    #expect(run.status == .usage)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix("ghlogin: git-credential: refusing the request: "))
    #expect(!run.stderr.contains(Self.token))
  }

  @Test func getRefusesInvalidUTF8() throws {
    try seed()
    let run = helper("get", Array("protocol=https\nhost=github.test\nusername=".utf8) + [0xC3, 0x28, 0x0A, 0x0A])
    #expect(run.status == .usage)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr
        == "ghlogin: git-credential: refusing the request: the input is not valid UTF-8; no credential was given\n")
  }

  @Test func t58ALongLineAndAHugeInputAreRefused() throws {
    try seed()
    let long = helper("get", "protocol=https\nhost=github.test\npath=" + String(repeating: "a", count: 70_000) + "\n\n")
    #expect(long.status == .usage)
    #expect(long.stdout.isEmpty)
    #expect(long.stderr.contains("line 3 is longer than 65535 bytes"))
    let huge = helper(
      "get", Array("protocol=https\nhost=github.test\n".utf8) + [UInt8](repeating: 0x0A, count: 1 << 20))
    #expect(huge.status == .usage)
    #expect(huge.stdout.isEmpty)
    #expect(huge.stderr.contains("larger than 1048576 bytes"))
  }

  @Test func getRefusesMoreThanAThousandLines() throws {
    try seed()
    let run = helper("get", "protocol=https\nhost=github.test\n" + String(repeating: "x=y\n", count: 999) + "\n")
    #expect(run.status == .usage)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.contains("more than 1000 lines"))
  }

  @Test func t59CapabilitiesInTheInputChangeNothingInTheAnswer() throws {
    try seed()
    let run = helper("get", "capability[]=authtype\ncapability[]=state\nprotocol=https\nhost=github.test\n\n")
    #expect(run.stdout == Self.answer)
    #expect(!run.stdout.contains("capability"))
    #expect(!run.stdout.contains("authtype"))
    #expect(!run.stdout.contains("credential="))
  }

  @Test func getHonoursTheUsernameGitSends() throws {
    var credentials = sampleCredentials(host: Self.host, sampleCredential(token: Self.token))
    var second = sampleCredential("hubot", token: Self.secondToken)
    second.userID = 2
    credentials.save(second, on: Self.host)
    credentials.hosts[Self.host]?.activeLogin = "octocat"
    try fixture.store().update { $0 = credentials }

    #expect(helper("get", "protocol=https\nhost=github.test\n\n").stdout == Self.answer)
    let chosen = helper("get", "protocol=https\nhost=github.test\nusername=HUBOT\n\n")
    #expect(chosen.stdout == "username=hubot\npassword=\(Self.secondToken)\n")
    let unknown = helper("get", "protocol=https\nhost=github.test\nusername=nobody\n\n")
    #expect(unknown.status == .success)
    #expect(unknown.stdout.isEmpty)
    #expect(unknown.stderr.isEmpty)
  }

  @Test func getGivesNoExpiredToken() throws {
    var credential = sampleCredential(token: Self.token)
    credential.expiresAt = 1_699_999_999  // the manual clock says 1_700_000_000; no refresh token
    try seed(credential)
    let run = helper("get", "protocol=https\nhost=github.test\n\n")
    #expect(run.status == .success)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == "ghlogin: the session for github.test expired; run 'ghlogin auth --host github.test'\n")

    credential.expiresAt = nil
    credential.isExpired = true
    try seed(credential)
    let marked = helper("get", "protocol=https\nhost=github.test\n\n")
    #expect(marked.stdout.isEmpty)
    #expect(marked.stderr == "ghlogin: the session for github.test expired; run 'ghlogin auth --host github.test'\n")
  }

  @Test func t63GetNeverStartsALogin() throws {
    for stdinIsTerminal in [false, true] {
      let browser = RecordingBrowser()
      let run = helper(
        "get", Array("protocol=https\nhost=github.com\n\n".utf8), variables: ["GIT_TERMINAL_PROMPT": "0"],
        browser: browser, stdinIsTerminal: stdinIsTerminal)
      #expect(run.status == .success)
      #expect(run.stdout.isEmpty)
      #expect(run.stderr.isEmpty)
      #expect(browser.opened.isEmpty)
    }
    // Nothing was created either.
    #expect(linkStatus(fixture.configDirectory) == nil)
  }

  @Test func t64WWWAuthenticateNeverChoosesTheHost() throws {
    try seed()
    let run = helper("get", "protocol=https\nhost=evil.test\nwwwauth[]=Basic realm=\"GitHub\"\npath=github.test\n\n")
    #expect(run.status == .success)
    #expect(run.stdout.isEmpty)
  }

  // MARK: - store, erase, others

  @Test func t60StoreChangesNothing() throws {
    try seed()
    let before = try #require(linkStatus(fixture.file))
    let bytes = readFile(fixture.file)
    let run = helper("store", "protocol=https\nhost=github.test\nusername=octocat\npassword=hunter2\n\n")
    #expect(run.status == .success)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.isEmpty)
    let after = try #require(linkStatus(fixture.file))
    #expect(readFile(fixture.file) == bytes)
    #expect(after.st_ino == before.st_ino)
    #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
  }

  @Test(arguments: [
    "protocol=https\nhost=github.test\nusername=octocat\npassword=hunter2\n\n",
    "protocol=https\nhost=github.test\nusername=octocat\npassword=\(token)x\n\n",
    "protocol=https\nhost=github.test\nusername=octocat\npassword=\n\n",
    "protocol=https\nhost=github.test\nusername=octocat\n\n",
    "protocol=http\nhost=github.test\nusername=octocat\npassword=\(token)\n\n",
    "protocol=https\nhost=evil.test\nusername=octocat\npassword=\(token)\n\n",
    "protocol=https\nhost=github.test\nusername=hubot\npassword=\(token)\n\n",
    "protocol=https\nhost=github.test\rpassword=\(token)\n\n",
  ])
  func t61EraseWithoutAnExactMatchChangesNothing(_ input: String) throws {
    try seed()
    let before = try #require(linkStatus(fixture.file))
    let bytes = readFile(fixture.file)
    let run = helper("erase", input)
    #expect(run.stdout.isEmpty)
    #expect(readFile(fixture.file) == bytes)
    #expect(linkStatus(fixture.file)?.st_ino == before.st_ino)
  }

  // t61's erase of the stored token, checked at the API first (R102): GitCredentialEraseTests.

  @Test func t62UnknownOperationsAreIgnoredAndCapabilityAnswersVersion0() throws {
    try seed()
    for operation in ["frobnicate", "store", "GET", ""] {
      let run = helper(operation, "protocol=https\nhost=github.test\n\n")
      #expect(run.status == .success)
      #expect(run.stdout.isEmpty)
      #expect(run.stderr.isEmpty)
    }
    let capability = helper("capability", "")
    #expect(capability.status == .success)
    #expect(capability.stdout == "version 0\n")
  }

  /// Listed only under "Run by other programs" (issue 29 §2), never among the commands a person types.
  @Test func theHelperIsListedOnlyAsRunByOtherPrograms() {
    let root = runCommand(["--help"])
    let parts = root.stdout.split(separator: "Run by other programs", maxSplits: 1)
    #expect(parts.count == 2)
    #expect(!parts[0].contains("git-credential"))
    #expect(parts.last?.contains("  git-credential  ") == true)
    let own = runCommand(["git-credential", "--help"])
    #expect(own.status == .success)
    #expect(own.stdout.hasPrefix("Usage: ghlogin git-credential operation\n"))
    let missing = runCommand(["git-credential"])
    #expect(missing.status == .usage)
    #expect(missing.stdout.isEmpty)
  }
}
