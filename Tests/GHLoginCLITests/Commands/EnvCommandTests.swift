import Testing

import GHLoginTestSupport

@testable import GHLoginCLI

/// `ghlogin env` in-process against a real credentials file.
@Suite struct EnvCommandTests {
  static let token = "gho_16C7e42F292c6912E7710c838347Ae178B4a"

  let fixture: StoreFixture
  var variables: [String: String] { ["HOME": fixture.home] }

  init() throws { fixture = try StoreFixture() }

  func seed(host: String = "github.com", _ credential: Credential = sampleCredential(token: token)) throws {
    try fixture.store().update { $0 = sampleCredentials(host: host, credential) }
  }

  @Test func printsExportLinesForSh() throws {
    try seed()
    let run = runCommand(["env"], variables: variables)
    #expect(run.status == .success)
    #expect(run.stdout == "export GH_TOKEN='\(Self.token)'\nexport GITHUB_TOKEN='\(Self.token)'\n")
    #expect(run.stderr.isEmpty)
  }

  @Test func addsGHHostForAnotherHost() throws {
    try seed(host: "ghe.example.com")
    let run = runCommand(["env", "--shell", "fish"], variables: variables)
    #expect(run.status == .success)
    #expect(
      run.stdout
        == "set -gx GH_TOKEN '\(Self.token)'\nset -gx GITHUB_TOKEN '\(Self.token)'\nset -gx GH_HOST 'ghe.example.com'\n"
    )
  }

  @Test func writesPowerShell() throws {
    try seed()
    let run = runCommand(["env", "--shell", "powershell"], variables: variables)
    #expect(run.stdout == "$env:GH_TOKEN = '\(Self.token)'\n$env:GITHUB_TOKEN = '\(Self.token)'\n")
  }

  @Test func quotesEveryCharacterATokenMayHold() throws {
    let token = "~gho_a-b.c_d~e+f/gh9=="
    try seed(sampleCredential(token: token))
    #expect(
      runCommand(["env"], variables: variables).stdout
        == "export GH_TOKEN='~gho_a-b.c_d~e+f/gh9=='\nexport GITHUB_TOKEN='~gho_a-b.c_d~e+f/gh9=='\n")
  }

  @Test func refusesATerminalUnlessForced() throws {
    try seed()
    let refused = runCommand(["env"], variables: variables, stdoutIsTerminal: true)
    #expect(refused.status == .usage)
    #expect(refused.stdout.isEmpty)
    #expect(
      refused.stderr
        == "ghlogin: env: not printing the token to a terminal; use it as eval \"$(ghlogin env)\", or add --force\n")
    let forced = runCommand(["env", "--force"], variables: variables, stdoutIsTerminal: true)
    #expect(forced.status == .success)
    #expect(forced.stdout.contains(Self.token))
  }

  @Test func exits4WhenNotLoggedIn() {
    let run = runCommand(["env"], variables: variables)
    #expect(run.status == .notLoggedIn)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == "ghlogin: not logged in to github.com; run 'ghlogin auth'\n")
  }

  @Test func exits4ForAnExpiredToken() throws {
    var credential = sampleCredential(token: Self.token)
    credential.expiresAt = 1_600_000_000
    try seed(credential)
    let run = runCommand(["env"], variables: variables)
    #expect(run.status == .notLoggedIn)
    #expect(run.stdout.isEmpty)
    #expect(!run.stderr.contains(Self.token))
  }

  @Test func refusesAnUnknownShell() {
    let run = runCommand(["env", "--shell", "csh"], variables: variables)
    #expect(run.status == .usage)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix("ghlogin env: --shell must be one of sh, fish, powershell, not 'csh'\n"))
  }
}
