import GHLoginTestSupport
import Synchronization
import Testing

@testable import GHLoginCLI

/// Issue 31: a refresh failure keeps the error it quotes, so the command line shows that
/// error's remedy as a `ghlogin` command. Here the server issues a new pair but the keyring
/// cannot store it: the message quotes the keyring's failure with its way out,
/// `ghlogin migrate --to file`, as the keyring's own error does.
@Suite(.verifiesFakes) struct RefreshVoiceCLITests {
  typealias Fixture = LifecycleFixture
  let fixture: LifecycleFixture
  let keyring = WriteFailingKeyring()

  init() throws { fixture = try LifecycleFixture() }

  /// The login of octocat, its tokens in the keyring, expiring in `expiresIn` seconds.
  func seedKeyringLogin(expiresIn: Double) throws {
    var account = Fixture.expiring(expiresIn: expiresIn)
    account.storage = .keyring
    try CredentialStore(paths: fixture.store.paths, secrets: keyring).update { $0 = sampleCredentials(account) }
    keyring.failWrites()
  }

  func run(_ arguments: [String], stdin: String = "", transport: FakeTransport) -> CommandRun {
    let out = BufferOutput()
    let err = BufferOutput()
    var environment = Environment(
      arguments: arguments,
      variables: EnvironmentVariables(fixture.variables(["XDG_CONFIG_DIRS": unitTestConfigDirs])),
      stdout: out, stderr: err, stdin: BufferInput(stdin), clock: fixture.clock, browser: RecordingBrowser(),
      transport: { _ in transport }, executablePath: "/usr/local/bin/ghlogin")
    environment.secrets = keyring
    let status = GHLogin.main(environment: environment)
    return CommandRun(status: status, stdout: out.text, stderr: err.text)
  }

  static let keyringWay =
    #"To keep tokens out of the keyring instead, set "store": "file" in the config and run "#
    + "'ghlogin migrate --to file' once the keyring can be read"

  /// `token` (the token has expired) and `refresh` (forced, the token still valid): the new pair
  /// is not saved, exit 1, nothing on stdout, and the message names the keyring's remedy as the
  /// exact `ghlogin` command.
  @Test(arguments: [("token", -30.0), ("refresh", 3600.0)])
  func aRefreshTheKeyringCannotSaveNamesTheMigrateCommand(_ command: String, expiresIn: Double) throws {
    try seedKeyringLogin(expiresIn: expiresIn)
    let transport = FakeTransport()
    transport.on("POST", Fixture.tokenURL, respond: Fixture.renewal())
    let run = run([command], transport: transport)
    #expect(run.status == .failure)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr
        == "ghlogin: the token for github.com was refreshed, but the new one could not be saved: the keyring "
        + "(Secret Service) could not store the token of octocat on github.com: the keyring is read-only. "
        + "Try again. \(Self.keyringWay). The credentials file was left unchanged. The refresh token it "
        + "replaced is spent, so the stored login no longer works; once that is fixed run 'ghlogin auth'\n",
      "\(run.stderr)")
    #expect(!run.stderr.contains("ghu_") && !run.stderr.contains("ghr_"))
    #expect(transport.requests.count == 1)
    #expect(keyring.secrets.sorted() == ["ghr_old", "ghu_old"], "the keyring still holds the old pair")
  }

  /// The helpers say the same: git's and the container tools' `get` give no credentials, and
  /// stderr has the keyring's remedy as the exact `ghlogin` command.
  @Test(arguments: [
    (["git-credential", "get"], "protocol=https\nhost=github.com\n\n", ""),
    (["docker-credential", "get"], "ghcr.io\n", DockerCredentialAnswer.notFound),
  ])
  func theHelpersNameTheMigrateCommandToo(_ arguments: [String], stdin: String, stdout: String) throws {
    try seedKeyringLogin(expiresIn: -30)
    let transport = FakeTransport()
    transport.on("POST", Fixture.tokenURL, respond: Fixture.renewal())
    let run = run(arguments, stdin: stdin, transport: transport)
    #expect(run.stdout == stdout)
    #expect(run.stderr.contains(Self.keyringWay), "\(run.stderr)")
    #expect(!run.stderr.contains("ghu_") && !run.stderr.contains("ghr_"))
  }

  /// No client ID to refresh with: the command line names the config key and the environment
  /// variable that set it.
  @Test func noClientIDNamesTheKeyAndTheVariable() {
    #expect(
      RefreshError(.noClientID(configFile: "/config.json"), host: .gitHubDotCom).cliMessage
        == "the token for github.com has expired and cannot be refreshed: no client_id is configured for "
        + "github.com. Put the client ID of the app you logged in with in /config.json (or set GHLOGIN_CLIENT_ID), "
        + "or run 'ghlogin auth'")
  }
}

/// A keyring in memory whose writes can be made to fail, as a read-only keyring does.
final class WriteFailingKeyring: SecretStore, @unchecked Sendable {
  private let state = TestLock<(items: [SecretItem: String], failing: Bool)>(([:], false))

  func failWrites() { state.withLock { $0.failing = true } }
  var secrets: [String] { state.withLock { Array($0.items.values) } }

  func checkUsable() throws(KeyringError) {}

  func read(_ item: SecretItem) throws(KeyringError) -> String? { state.withLock { $0.items[item] } }

  func write(_ secret: String, to item: SecretItem) throws(KeyringError) {
    let failing = state.withLock { $0.failing }
    if failing {
      throw .failed(
        operation:
          "store the \(item.kind == .accessToken ? "token" : "refresh token") of \(item.login) on \(item.host)",
        reason: "the keyring is read-only")
    }
    state.withLock { $0.items[item] = secret }
  }

  func delete(_ item: SecretItem, holding secret: String) throws(KeyringError) {
    state.withLock { if $0.items[item] == secret { $0.items[item] = nil } }
  }
}
