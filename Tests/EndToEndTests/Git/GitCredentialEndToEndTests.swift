import Foundation
import Testing

/// The built ghlogin as git's credential helper, driven by the real `git credential fill`
/// after the real `ghlogin setup-git`.
@Suite struct GitCredentialEndToEndTests {
  static let token = "gho_E2Ecredential0000000000000000000000042"

  let sandbox: GitSandbox

  init() throws {
    sandbox = try GitSandbox()
    try sandbox.seed([.init(host: "github.test", login: "octocat", token: Self.token)])
  }

  func fill(_ host: String) throws -> (status: Int32, stdout: String, stderr: String) {
    try sandbox.git(["credential", "fill"], stdin: "protocol=https\nhost=\(host)\n\n")
  }

  @Test func setupGitWritesTheAbsolutePathOfTheBinaryOnce() throws {
    let binary = try HarnessPaths.ghloginBinary()
    for _ in 0..<2 {
      let setup = try sandbox.ghlogin(["setup-git", "--host", "github.test"])
      #expect(setup.status == 0, "\(setup.stderr)")
      #expect(setup.stdout.isEmpty)
    }
    let values = try sandbox.git(["config", "--global", "--get-all", "credential.https://github.test.helper"])
    let absolute = URL(fileURLWithPath: binary).standardizedFileURL.path
    #expect(values.stdout == "\n!'\(absolute)' git-credential\n")
  }

  @Test func gitCredentialFillGetsOurLoginAndTokenForTheHostOnly() throws {
    #expect(try sandbox.ghlogin(["setup-git", "--host", "github.test"]).status == 0)
    let ours = try fill("github.test")
    #expect(ours.status == 0, "\(ours.stderr)")
    #expect(ours.stdout == "protocol=https\nhost=github.test\nusername=octocat\npassword=\(Self.token)\n")

    for other in ["evil.test", "github.test.evil.test", "evil.test:443"] {
      let theirs = try fill(other)
      #expect(theirs.status != 0)
      #expect(theirs.stdout.isEmpty)
      #expect(!theirs.stderr.contains(Self.token))
      #expect(theirs.stderr.contains("terminal prompts disabled"))
    }
  }

  /// Configured for every host (`credential.helper`), git asks ghlogin about other hosts too:
  /// the helper itself must answer nothing for them, and hand over its token for its own.
  @Test func asAGlobalHelperItStillAnswersOnlyItsHost() throws {
    let binary = try HarnessPaths.ghloginBinary()
    _ = try sandbox.git(["config", "--global", "credential.helper", "!'\(binary)' git-credential"])
    #expect(try fill("github.test").stdout.contains("password=\(Self.token)\n"))
    for other in ["evil.test", "github.test.evil.test", "GITHUB.TEST.evil.test", "github.test:8443"] {
      let theirs = try fill(other)
      #expect(theirs.stdout.isEmpty)
      #expect(!theirs.stderr.contains(Self.token))
    }
    // A URL with a path: git sends the host alone, and path only with useHttpPath.
    let url = try sandbox.git(["credential", "fill"], stdin: "url=https://evil.test/github.test\n\n")
    #expect(url.stdout.isEmpty)
  }

  @Test func aPathWithSpacesAndQuotesWorksThroughGitsShell() throws {
    let directory = sandbox.home + "/my tools/it's here"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let copy = directory + "/ghlogin"
    try FileManager.default.copyItem(atPath: try HarnessPaths.ghloginBinary(), toPath: copy)
    let setup = try ChildProcess(
      executable: copy, arguments: ["setup-git", "--host", "github.test"], environment: sandbox.environment(), stdin: ""
    ).finish(timeout: 30)
    #expect(setup.status == 0, "\(setup.stderr)")
    let values = try sandbox.git(["config", "--global", "--get-all", "credential.https://github.test.helper"])
    #expect(values.stdout == "\n!'\(sandbox.home)/my tools/it'\\''s here/ghlogin' git-credential\n")
    #expect(try fill("github.test").stdout.contains("password=\(Self.token)\n"))
  }

  @Test func unsetLeavesGitWithoutTheHelper() throws {
    #expect(try sandbox.ghlogin(["setup-git", "--host", "github.test"]).status == 0)
    #expect(try sandbox.ghlogin(["setup-git", "--host", "github.test", "--unset"]).status == 0)
    let values = try sandbox.git(["config", "--global", "--get-all", "credential.https://github.test.helper"])
    #expect(values.status == 1)
    #expect(try fill("github.test").stdout.isEmpty)
  }

  @Test func theBinaryRefusesHostileInputOnItsStandardInput() throws {
    for input in [
      "protocol=https\nhost=evil.test\rhost=github.test\n\n", "protocol=https\r\nhost=github.test\r\n\r\n",
      "protocol=https\nhost=github.test\u{2028}\n\n", "protocol=https\nhost=evil.test/github.test\n\n",
    ] {
      let run = try sandbox.ghlogin(["git-credential", "get"], stdin: input)
      #expect(run.status == 2)
      #expect(run.stdout.isEmpty)
      #expect(run.stderr.hasPrefix("ghlogin: git-credential: refusing the request: "))
    }
    let good = try sandbox.ghlogin(["git-credential", "get"], stdin: "protocol=https\nhost=github.test\n\n")
    #expect(good.stdout == "username=octocat\npassword=\(Self.token)\n")
  }
}
