import GHLoginTestSupport
import Testing

@testable import GHLoginKit

/// R98 for the library (GHLoginCoreTests' `LoopbackLiteralTests` has the URL check, the config
/// and the connection): the spellings of ``LoopbackSpelling/table`` in a
/// `GitHubLoginConfiguration`.
@Suite(.verifiesFakes) struct LoopbackLiteralLibraryTests {
  typealias Case = LoopbackSpelling.Case
  static let cases = LoopbackSpelling.cases

  /// The library's configuration: every endpoint on the spelling (so they share one host, the label).
  @Test(arguments: cases)
  func libraryConfiguration(_ spelling: Case) throws {
    let base = "http://\(spelling.host):8080"
    let app = GitHubLoginConfiguration(
      clientID: "Iv1.x", authorizeURL: base + "/login/oauth/authorize", tokenURL: base + "/login/oauth/access_token",
      deviceCodeURL: base + "/login/device/code", apiURL: base + "/api/v3")
    let fixture = try StoreFixture()
    let environment = Environment(
      arguments: [], variables: ["HOME": fixture.home], stdout: BufferOutput(), stderr: BufferOutput(),
      stdin: BufferInput(""), clock: ManualClock(), browser: RecordingBrowser(), transport: { _ in FakeTransport() })
    let result = Result { try GitHubLogin(environment: environment, configuration: app) }
    let source = GitHubLoginConfiguration.sourceName
    switch spelling.outcome {
    case .loopback:
      #expect(try result.get().host == "\(spelling.host):8080")
    case .insecure:
      #expect(
        (result.error as? GitHubLoginError)?.message
          == ConfigError.insecureURL(file: source, key: "authorize_url").message(.tool(loginCommand: nil)))
      #expect((result.error as? GitHubLoginError)?.kind == .configuration)
    case .invalid(let reason):
      #expect(
        (result.error as? GitHubLoginError)?.message
          == ConfigError.invalidURL(file: source, key: "authorize_url", reason: reason).message(
            .tool(loginCommand: nil)))
    }
  }
}
