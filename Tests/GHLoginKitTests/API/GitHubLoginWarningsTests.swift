import GHLoginTestSupport
import Testing

@testable import GHLoginKit

/// `GitHubLogin()` prints nothing; what the command line says on stderr
/// about the configuration comes back in ``GitHubLogin/warnings`` (the commands still print it:
/// `CredentialsHomeTests`, `ConfigLeniencyTests`).
@Suite struct GitHubLoginWarningsTests {
  /// A credentials.json an earlier version left beside a custom `GHLOGIN_CONFIG`: the library
  /// writes nothing to stderr or stdout, returns the notice with the exact `mv`, reads nothing
  /// from that file and creates nothing.
  @Test func movedCredentialsNoticeIsAValueNotOutput() async throws {
    let (directory, former, written) = try FormerCredentials.make()
    let stdout = BufferOutput()
    let stderr = BufferOutput()
    let environment = Environment(
      arguments: [],
      variables: ["HOME": directory.at("home"), "GHLOGIN_CONFIG": directory.at("team/ghlogin.json")],
      stdout: stdout, stderr: stderr, stdin: BufferInput(""), clock: ManualClock(), browser: RecordingBrowser(),
      transport: { _ in NoNetwork() })
    let github = try GitHubLogin(environment: environment)
    let current = directory.at("home") + "/.config/ghlogin/credentials.json"
    #expect(stderr.text.isEmpty)
    #expect(stdout.text.isEmpty)
    #expect(
      github.warnings == [
        "\(former) is not used: credentials now live in your own directory, not beside "
          + "GHLOGIN_CONFIG (a config may be shared, a token must not be). The library reads and writes \(current), "
          + "where there is none yet. To keep your logins, move the file:\n"
          + "  mkdir -p -m 700 \(directory.at("home"))/.config/ghlogin && mv \(former) \(current)"
      ])
    await #expect(throws: GitHubLoginError.self) { try await github.token() }
    #expect(stderr.text.isEmpty, "token() prints nothing either")
    #expect(readFile(former) == written, "left as it was")
    #expect((try? FileSystem.linkStatus(current)) == nil, "nothing created at the new place")
  }

  /// No such file: no warnings.
  @Test func noWarningsForAPlainSetup() throws {
    let directory = try TemporaryDirectory()
    try makeDirectory(directory.at("home"), mode: 0o700)
    let stderr = BufferOutput()
    let environment = Environment(
      arguments: [], variables: ["HOME": directory.at("home")], stdout: BufferOutput(), stderr: stderr,
      stdin: BufferInput(""), clock: ManualClock(), browser: RecordingBrowser(), transport: { _ in NoNetwork() })
    #expect(try GitHubLogin(environment: environment).warnings == [])
    #expect(stderr.text.isEmpty)
  }
}
