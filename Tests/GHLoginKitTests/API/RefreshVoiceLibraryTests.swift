import GHLoginKit
import GHLoginKitTesting
import GHLoginTestSupport
import Testing

/// Issue 31: a refresh failure keeps the error it quotes, and the library renders that error in
/// its own voice: settings by their `GitHubLoginConfiguration` names, no `ghlogin` command, no
/// option. Driven through the public API, as a tool would.
@Suite struct RefreshVoiceLibraryTests {
  let directory: TemporaryDirectory
  init() throws { directory = try TemporaryDirectory() }

  func github(_ transport: ScriptedTransport, _ clock: InstantClock, keyring: ToolKeyring? = nil) throws
    -> GitHubLogin
  {
    var configuration = GitHubLoginConfiguration(clientID: "Iv1.voice")
    if keyring != nil { configuration.tokenStore = .keyring }
    let environment = GitHubLoginEnvironment(
      variables: ["HOME": directory.at("home")], transport: transport, clock: clock, keyring: keyring)
    return try GitHubLogin(configuration: configuration, environment: environment)
  }

  static let login: [GitHubLoginResponse] = [
    .deviceCode(interval: 5), .accessToken("ghu_1", refreshToken: "ghr_1", expiresIn: 28_800), .user(),
  ]

  /// What the library shows must hold none of the command line's words.
  func expectLibraryVoice(_ text: String) {
    #expect(VoiceCheck.commandLineWords(inLibraryMessage: text) == [], "\(text)")
    #expect(!text.contains("ghlogin"), "\(text)")
    #expect(VoiceCheck.options(in: text).isEmpty, "\(text)")
  }

  /// The server refuses the app's credentials on a due refresh: the warning (token still valid)
  /// and the error (token expired) name the settings as the tool's configuration does.
  @Test func aRefusedAppIsNamedByItsProperties() async throws {
    let transport = ScriptedTransport(Self.login)
    transport.enqueue(.oauthError("incorrect_client_credentials"), .oauthError("incorrect_client_credentials"))
    let clock = InstantClock()
    let github = try github(transport, clock)
    _ = try await github.login(LoginOptions(flow: .device, opensBrowser: false)) { _ in }

    clock.advance(by: 28_800 - 240)
    let warning = try #require(try await github.token().refreshWarning)
    #expect(
      warning
        == "could not refresh the token for github.com: github.com rejected the clientID and/or clientSecret; "
        + "check clientID and clientSecret in the GitHubLoginConfiguration (see the README); using the current "
        + "token, which expires in 4m")
    expectLibraryVoice(warning)

    clock.advance(by: 300)
    let error = try await #require(throws: GitHubLoginError.self) { try await github.token() }
    #expect(error.kind == .configuration)
    #expect(
      error.message
        == "the token for github.com has expired and could not be refreshed: github.com rejected the clientID "
        + "and/or clientSecret; check clientID and clientSecret in the GitHubLoginConfiguration (see the "
        + "README). The stored login was left as it was; try again later")
    expectLibraryVoice(error.message)
  }

  /// The keyring cannot store the refreshed pair: the error says the keyring's way out in words,
  /// naming no `ghlogin migrate` command and no config key.
  @Test func aRefreshTheKeyringCannotSaveSaysTheWayOutInWords() async throws {
    let keyring = ToolKeyring()
    let transport = ScriptedTransport(Self.login)
    transport.enqueue(.accessToken("ghu_2", refreshToken: "ghr_2", expiresIn: 28_800))
    let clock = InstantClock()
    let github = try github(transport, clock, keyring: keyring)
    _ = try await github.login(LoginOptions(flow: .device, opensBrowser: false)) { _ in }
    keyring.failWrites()

    clock.advance(by: 28_800 + 60)
    let error = try await #require(throws: GitHubLoginError.self) { try await github.token() }
    #expect(error.kind == .store)
    #expect(
      error.message.hasPrefix(
        "the token for github.com was refreshed, but the new one could not be saved: the keyring (Secret "
          + "Service) could not "), "\(error.message)")
    #expect(
      error.message.contains(
        "the keyring is read-only. Try again. To keep tokens out of the keyring instead, store them in the "
          + "credentials file. The credentials file was left unchanged"), "\(error.message)")
    #expect(
      error.message.hasSuffix(
        "The refresh token it replaced is spent, so the stored login no longer works; once that is fixed log in "
          + "again"), "\(error.message)")
    expectLibraryVoice(error.message)
    #expect(!error.message.contains("ghu_") && !error.message.contains("ghr_"))
  }
}

/// A keyring in memory, as a tool's test would write one, whose writes can be made to fail.
final class ToolKeyring: GitHubLoginKeyring {
  struct ReadOnly: Error, CustomStringConvertible { var description: String { "the keyring is read-only" } }
  private let state = TestLock<(items: [GitHubLoginKeyringItem: String], failing: Bool)>(([:], false))

  func failWrites() { state.withLock { $0.failing = true } }
  func checkUsable() throws {}
  func read(_ item: GitHubLoginKeyringItem) throws -> String? { state.withLock { $0.items[item] } }
  func write(_ secret: String, to item: GitHubLoginKeyringItem) throws {
    if state.withLock({ $0.failing }) { throw ReadOnly() }
    state.withLock { $0.items[item] = secret }
  }
  func delete(_ item: GitHubLoginKeyringItem, holding secret: String) throws {
    state.withLock { if $0.items[item] == secret { $0.items[item] = nil } }
  }
}
