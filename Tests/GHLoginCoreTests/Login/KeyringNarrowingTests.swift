import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// Issue 34 §1: whether a keyring login's narrowed tokens can be kept depends on the keyring:
/// the Secret Service keeps them; a keyring that does not (a library caller's own) leaves `run`
/// refused before any request, with the way out.
@Suite struct KeyringNarrowingTests {
  let fixture: LifecycleFixture

  init() throws { fixture = try LifecycleFixture() }

  func workspace(secrets: any SecretStore) throws -> Workspace {
    var environment = Environment(
      arguments: [], variables: EnvironmentVariables(fixture.variables), stdout: BufferOutput(),
      stderr: BufferOutput(), stdin: BufferInput(), clock: fixture.clock, browser: RecordingBrowser(),
      transport: { _ in NoNetwork() })
    environment.secrets = secrets
    return try Workspace(collectingWarnings: environment)
  }

  func seedKeyringLogin(_ secrets: any SecretStore) throws {
    var account = sampleCredential(token: "ghu_keyringParent000000000000000000000001")
    account.clientID = "Iv1.client"
    account.storage = .keyring
    try CredentialStore(paths: fixture.store.paths, secrets: secrets).update { $0 = sampleCredentials(account) }
  }

  @Test func aKeyringThatKeepsNoNarrowedTokensRefusesARunBeforeAnyRequest() throws {
    let keyring = MemorySecretStore()
    try seedKeyringLogin(keyring)
    let workspace = try workspace(secrets: keyring)
    let before = fixture.fileBytes
    let writes = keyring.calls.filter { $0.hasPrefix("write") }.count
    let narrowing = try Narrowing(repositories: ["acme/api"], permissions: [])
    #expect(throws: RunRefused(.keyringLogin(login: "octocat"), host: .gitHubDotCom)) {
      try workspace.startRun(AccountSelection(), narrowing, id: "run-1")
    }
    let refusal = RunRefused(.keyringLogin(login: "octocat"), host: .gitHubDotCom)
    #expect(refusal.exitStatus == .usage)
    #expect(
      refusal.message
        == "the login octocat on github.com keeps its tokens in a keyring that cannot hold a run's token; move the "
        + "login to the credentials file or the Secret Service first")
    #expect(fixture.fileBytes == before)
    #expect(keyring.calls.filter { $0.hasPrefix("write") }.count == writes)
  }

  @Test func whereNarrowedTokensCanBeKept() throws {
    var file = sampleCredential()
    file.storage = .file
    var keyringLogin = sampleCredential()
    keyringLogin.storage = .keyring
    let plain = try workspace(secrets: MemorySecretStore())
    #expect(plain.canKeepNarrowed(file))
    #expect(!plain.canKeepNarrowed(keyringLogin))
    let secretService = try workspace(secrets: NarrowedMemoryKeyring())
    #expect(secretService.canKeepNarrowed(keyringLogin))
    #expect(SecretServiceStore().keepsNarrowedTokens)
  }
}
