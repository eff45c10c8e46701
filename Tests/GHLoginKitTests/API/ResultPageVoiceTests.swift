import GHLoginKit
import GHLoginKitTesting
import GHLoginTestSupport
import Testing

/// Issue 31: the page a tool's user sees in the browser after a login names no `ghlogin` (the
/// user may not have it): its title names no program.
@Suite struct ResultPageVoiceTests {
  let directory: TemporaryDirectory
  init() throws { directory = try TemporaryDirectory() }

  func github(_ transport: ScriptedTransport, _ browser: ScriptedBrowser) throws -> GitHubLogin {
    let environment = GitHubLoginEnvironment(
      variables: ["HOME": directory.at("home")], transport: transport, clock: InstantClock(), browser: browser)
    return try GitHubLogin(configuration: GitHubLoginConfiguration(clientID: "Iv1.page"), environment: environment)
  }

  @Test func theLoggedInPageNamesNoProgram() async throws {
    let browser = ScriptedBrowser.approving(code: "code-1")
    let github = try github(ScriptedTransport([.accessToken("gho_page"), .user(login: "octocat")]), browser)
    _ = try await github.login(LoginOptions(flow: .browser)) { _ in }
    let page = try #require(browser.pagesShown().first)
    #expect(page.body.contains("<title>Logged in</title>"), "\(page.body)")
    #expect(!page.body.contains("ghlogin"), "\(page.body)")
  }

  @Test func theFailedPageNamesNoProgram() async throws {
    let browser = ScriptedBrowser.denying()
    let github = try github(ScriptedTransport(), browser)
    await #expect(throws: GitHubLoginError.self) { _ = try await github.login(LoginOptions(flow: .browser)) { _ in } }
    let page = try #require(browser.pagesShown().first)
    #expect(page.body.contains("<title>Login failed</title>"), "\(page.body)")
    #expect(!page.body.contains("ghlogin"), "\(page.body)")
  }
}
