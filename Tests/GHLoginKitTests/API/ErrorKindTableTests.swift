import Foundation
import Testing

@testable import GHLoginCLI
@testable import GHLoginCore
@testable import GHLoginKit

/// Each error type declares its ``ErrorKind`` (``ReportableError/errorKind``)
/// and ``GitHubLoginError/kind`` is that kind, never a guess from the exit status (a device-flow
/// denial, a login that could not be stored and a keyring failure used to come out as `.network`).
///
/// The rule: every error type in Sources has at least one row in ``rows`` (one representative
/// value and the kind a tool sees); ``everyErrorTypeInSourcesHasARow`` fails when a type that
/// conforms to `ReportableError` (or one of its refinements) is added without one.
@Suite struct ErrorKindTableTests {
  struct Row: CustomTestStringConvertible, Sendable {
    var error: any ReportableError & Sendable
    var kind: GitHubLoginError.Kind
    var testDescription: String { "\(type(of: error)) → \(kind)" }
    init(_ error: any ReportableError & Sendable, _ kind: GitHubLoginError.Kind) {
      self.error = error
      self.kind = kind
    }
  }

  static let host = GitHubHost.gitHubDotCom
  static let url = GitHubHost.gitHubDotCom.defaultEndpoints.token

  static let rows: [Row] = [
    Row(KeyringError.locked, .keyring),
    Row(KeyringError.unavailable(reason: "no D-Bus session"), .keyring),
    Row(KeyringError.noLibrary(reason: "libsecret-1.so.0: cannot open shared object file"), .keyring),
    Row(ConfigError.noHome, .configuration),
    Row(StoreError.corrupt(path: "/c.json", detail: "not JSON"), .store),
    Row(UsageError("choose a host"), .configuration),
    Row(UnknownAccount(host: "github.com", user: "octo", entry: HostEntry()), .notLoggedIn),
    Row(EnvCommand.TerminalRefused(), .configuration),
    Row(SetupDockerError("unreadable"), .system),
    Row(RefusedEdit("another program's helper"), .configuration),
    Row(AuthCommand.WithTokenError(kind: .rejected(host: "github.com")), .tokenRejected),
    Row(AuthCommand.WithTokenError(kind: .empty), .configuration),
    Row(InterruptedInput(), .cancelled),
    Row(
      ForcedRefreshFailed(host: host, reason: "offline", status: .failure, errorKind: .network, validFor: 60),
      .network),
    Row(NoRefreshToken(host: host, login: "octocat"), .tokenRejected),
    Row(AuthCommand.SetupError.noAnswer, .configuration),
    Row(
      UnstoredLogin(
        storeFailure: StoreError.lockTimeout(path: "/c.json.lock", seconds: 10), host: host, revocation: .revoked),
      .store),
    Row(UnstoredLogin(storeFailure: KeyringError.locked, host: host, revocation: .revoked), .keyring),
    Row(UnexpectedStoreFailure(underlying: CancellationError()), .store),
    Row(NotLoggedIn(host: "github.com"), .notLoggedIn),
    Row(SeveralHosts(hosts: ["a.example", "b.example"]), .configuration),
    Row(
      ClientIDRefused(
        host: host, code: "invalid_client", flow: .browser, clientID: "Iv1.x",
        source: ConfigSource(layer: .user, location: "/config.json"), isDefaultHost: true),
      .configuration),
    Row(MissingClientID(host: "github.com", configFile: "/config.json"), .configuration),
    Row(CredentialInputError.tooLarge, .configuration),
    Row(CredentialResponse.UnsafeValue(key: "password"), .store),
    Row(GitConfig.Failure(message: "git was not found"), .system),
    Row(CryptoError(call: "RAND_bytes"), .system),
    Row(BrowserLauncher.LaunchError(message: "BROWSER is empty"), .system),
    Row(GitHubAPIError(.tokenRejected, host: host, path: "/user"), .tokenRejected),
    Row(GitHubAPIError(.ssoRequired(url: nil), host: host, path: "/user"), .denied),
    Row(GitHubAPIError(.httpStatus(502), host: host, path: "/user"), .network),
    Row(RevocationError(.clientRejected(401), host: host), .configuration),
    Row(RevocationError(.httpStatus(500), host: host), .network),
    Row(InsecureEndpointError(url: WebURL(scheme: .http, host: "example.com")), .configuration),
    Row(GitHubHost.ValidationError(input: "a b", reason: "whitespace"), .configuration),
    Row(DeviceFlowError(.denied, host: host), .denied),
    Row(DeviceFlowError(.expired, host: host), .timedOut),
    Row(DeviceFlowError(.disabled, host: host), .configuration),
    Row(DeviceFlowError(.unavailable(reason: "HTTP 404"), host: host), .network),
    Row(TokenError(.oauth(OAuthErrorBody(code: "bad_refresh_token")), host: host, endpoint: url), .tokenRejected),
    Row(TokenError(.oauth(OAuthErrorBody(code: "access_denied")), host: host, endpoint: url), .denied),
    Row(
      TokenError(.oauth(OAuthErrorBody(code: "incorrect_client_credentials")), host: host, endpoint: url),
      .configuration),
    Row(TokenError(.httpStatus(503), host: host, endpoint: url), .network),
    Row(RefreshError(.sessionExpired, host: host), .tokenRejected),
    Row(RefreshError(.notSaved(reason: "disk full"), host: host), .store),
    Row(
      RefreshError(.otherApp(login: "octocat", issuer: "Iv1.appA", configured: "Iv1.appB"), host: host), .notLoggedIn),
    Row(RefreshError(.failed(reason: "the keyring is locked", status: .failure, kind: .keyring), host: host), .keyring),
    Row(
      EndpointRequestError(
        step: "token exchange", key: "token_url", url: url, underlying: .resolve(host: "github.com", reason: "no DNS")),
      .network),
    Row(LoginError(.authorizationError(AuthorizationErrorResponse(error: "access_denied")), host: host), .denied),
    Row(
      LoginError(.authorizationError(AuthorizationErrorResponse(error: "invalid_scope")), host: host), .configuration),
    Row(LoginError(.timedOut(seconds: 300), host: host), .timedOut),
    Row(LoginError(.interrupted, host: host), .cancelled),
    Row(LoginError(.userMismatch(expected: "a", actual: "b"), host: host), .wrongAccount),
    Row(HTTPError.connect(host: "github.com", port: 443, reason: "refused"), .network),
    Row(HTTPError.caFile(path: "/ca.pem", reason: "missing"), .configuration),
    Row(HTTPError.listen(port: 0, reason: "no ports", inUse: false), .system),
    Row(HTTPError.interrupted, .cancelled),
  ]

  /// The kind a tool sees is the one the error declares, and the exit status is unchanged.
  @Test(arguments: rows) func publicKindIsTheDeclaredKind(_ row: Row) {
    let wrapped = GitHubLoginError(row.error)
    #expect(wrapped.kind == row.kind)
    #expect(wrapped.kind == row.error.errorKind)
    #expect(wrapped.exitStatus == row.error.exitStatus)
    #expect(wrapped.message == row.error.message(.tool(loginCommand: nil)))
  }

  /// Errors that are not the kit's: cancellation is `.cancelled`, anything else `.system`.
  @Test func errorsOfOthers() {
    struct Other: Error {}
    #expect(GitHubLoginError(CancellationError()).kind == .cancelled)
    #expect(GitHubLoginError(Other()).kind == .system)
  }

  /// Core's kind and the library's are one type, and its kinds are distinct by name.
  @Test func oneKindTypeWithDistinctKinds() {
    #expect(GitHubLoginError.Kind.self == ErrorKind.self)
    #expect(Set(GitHubLoginError.Kind.allCases.map(\.name)).count == GitHubLoginError.Kind.allCases.count)
    #expect(GitHubLoginError.Kind.allCases.map(\.description).first == "notLoggedIn")
  }

  /// The types that conform to `ReportableError` (directly or through `EndpointAnswerError` or
  /// `ConfigSettingError`) in Sources, by name.
  static func errorTypesInSources() throws -> Set<String> {
    let protocols = ["ReportableError", "EndpointAnswerError", "ConfigSettingError"]
    var names: Set<String> = []
    let root = repositoryRoot + "/Sources"
    let enumerator = try #require(FileManager.default.enumerator(atPath: root))
    while let relative = enumerator.nextObject() as? String {
      guard relative.hasSuffix(".swift") else { continue }
      for line in try String(contentsOfFile: root + "/" + relative, encoding: .utf8).split(separator: "\n") {
        let words = line.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
        guard let keyword = words.firstIndex(where: { $0 == "struct" || $0 == "enum" || $0 == "class" }),
          keyword + 1 < words.count,
          let colon = line.firstIndex(of: ":"), let brace = line.firstIndex(of: "{"), colon < brace
        else { continue }
        let inheritance = line[colon..<brace]
        let conforms = protocols.contains { name in
          inheritance.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).contains { $0 == name }
        }
        if conforms { names.insert(String(words[keyword + 1])) }
      }
    }
    return names
  }

  @Test func everyErrorTypeInSourcesHasARow() throws {
    let found = try Self.errorTypesInSources()
    let covered = Set(Self.rows.map { "\(type(of: $0.error))" })
    #expect(found.count >= 28, "the scan of Sources found too few error types: \(found.sorted())")
    #expect(found.subtracting(covered).isEmpty, "error types without a row: \(found.subtracting(covered).sorted())")
    #expect(
      covered.subtracting(found).isEmpty, "rows for types the scan did not find: \(covered.subtracting(found).sorted())"
    )
  }
}

/// A library caller's messages name no `ghlogin` command (its users may not have ghlogin): the
/// errors that say how to fix a failure say it in words, or with the login command the tool
/// names (``GitHubLogin/loginCommand``), while the command line's messages are unchanged.
@Suite struct RemediesTests {
  static let host = GitHubHost.gitHubDotCom
  static let enterprise: GitHubHost = {
    guard let host = try? GitHubHost(validating: "ghe.example.com") else { preconditionFailure("a valid host") }
    return host
  }()
  static let url = GitHubHost.gitHubDotCom.defaultEndpoints.token

  /// Every error whose command-line message names a `ghlogin` command, in each of its forms that does.
  static let namingCommands: [any ReportableError & Sendable] =
    [
      NotLoggedIn(host: "github.com"),
      NotLoggedIn(host: "ghe.example.com", user: "hubot"),
      MissingClientID(host: "ghe.example.com", configFile: "/config.json"),
      GitHubAPIError(.tokenRejected, host: enterprise, path: "/user"),
      RefreshError(.sessionExpired, host: host),
      RefreshError(.noClientID(configFile: "/config.json"), host: host),
      RefreshError(.otherApp(login: "octocat", issuer: "Iv1.appA", configured: "Iv1.appB"), host: host),
      RefreshError(.accountGone(login: "octocat"), host: host),
      RefreshError(.notSaved(reason: "disk full"), host: host),
      DeviceFlowError(.unavailable(reason: "HTTP 404"), host: host),
      DeviceFlowError(.disabled, host: host),
      DeviceFlowError(.expired, host: host),
      DeviceFlowError(.denied, host: host),
      DeviceFlowError(.clockDrift(slowDowns: 5), host: host),
      KeyringError.locked,
      KeyringError.unavailable(reason: "no D-Bus session"),
      KeyringError.noLibrary(reason: "libsecret-1.so.0: cannot open shared object file"),
      KeyringError.failed(operation: "store the token", reason: "D-Bus error"),
      KeyringError.itemMissing(host: "github.com", login: "octocat", kind: .accessToken),
      KeyringError.invalidItem(host: "github.com", login: "octocat", kind: .refreshToken),
      StoreError.corrupt(path: "/c.json", detail: "not JSON"),
      ConfigError.namedFileMissing(file: "/nowhere/config.json"),
      UnstoredLogin(storeFailure: KeyringError.locked, host: host, revocation: .revoked),
      LoginError(.authorizationError(AuthorizationErrorResponse(error: "access_denied")), host: host),
      LoginError(.authorizationError(AuthorizationErrorResponse(error: "server_error")), host: host),
      LoginError(.userMismatch(expected: "a", actual: "b"), host: host),
      SeveralHosts(hosts: ["a.example", "b.example"]),
    ]
    + [ConfigLayer.builtIn, .system, .user, .environment].map { layer in
      ClientIDRefused(
        host: enterprise, code: "unauthorized_client", flow: .device, clientID: "Iv1.x",
        source: ConfigSource(layer: layer, location: layer == .environment ? "GHLOGIN_CLIENT_ID" : "/config.json"),
        isDefaultHost: false)
    }
    + [
      "bad_verification_code", "redirect_uri_mismatch", "unverified_user_email", "bad_refresh_token",
      "access_denied", "expired_token", "incorrect_device_code",
    ].map { TokenError(.oauth(OAuthErrorBody(code: $0)), host: host, endpoint: url) }

  static func namesAGHLoginCommand(_ text: String) -> Bool {
    text.contains("'ghlogin ") || text.contains("&& ghlogin") || text.contains("  ghlogin config")
  }

  @Test(arguments: 0..<namingCommands.count) func libraryMessagesNameNoGHLoginCommand(_ index: Int) {
    let error = Self.namingCommands[index]
    #expect(
      Self.namesAGHLoginCommand(error.cliMessage), "the command line's message names its command: \(error.cliMessage)")
    #expect(!Self.namesAGHLoginCommand(error.message), "Core's own voice names no command: \(error.message)")
    for remedies in [Remedies.tool(loginCommand: nil), .tool(loginCommand: "mytool login")] {
      let text = GitHubLoginError(error, remedies: remedies).message
      #expect(!Self.namesAGHLoginCommand(text), "\(remedies): \(text)")
      #expect(!text.isEmpty)
    }
  }

  /// Issue 29 §2: a refused client ID names `client_id`, its layer and the fix, for each layer;
  /// a tool's users get the same without ghlogin's commands.
  @Test func aRefusedClientIDNamesItsLayerAndTheFix() {
    func refused(_ layer: ConfigLayer?, location: String = "/etc/xdg/ghlogin/config.json", flow: LoginFlow = .browser)
      -> ClientIDRefused
    {
      ClientIDRefused(
        host: Self.enterprise, code: "invalid_client", description: "Client authentication failed.", flow: flow,
        clientID: "Iv1.x", source: layer.map { ConfigSource(layer: $0, location: location) }, isDefaultHost: false)
    }
    let head = "ghe.example.com refused the login's app (error 'invalid_client': Client authentication failed.): "
    let set = "'ghlogin config set --host ghe.example.com client_id ID'"
    #expect(
      refused(.system).cliMessage
        == head + "client_id Iv1.x from /etc/xdg/ghlogin/config.json; set your app's client ID: \(set)")
    #expect(
      refused(.builtIn, location: "this build").cliMessage == head
        + "client_id Iv1.x of the app built into ghlogin; use your own app: \(set)")
    #expect(
      refused(.environment, location: "GHLOGIN_CLIENT_ID").cliMessage
        == head + "client_id Iv1.x from GHLOGIN_CLIENT_ID; set GHLOGIN_CLIENT_ID to your app's client ID (or unset "
        + "it and run \(set))")
    #expect(
      refused(.user, location: "/home/u/.config/ghlogin/config.json", flow: .device).cliMessage
        == head + "client_id Iv1.x from /home/u/.config/ghlogin/config.json; set your app's client ID: \(set); "
        + "for the device flow, tick \"Enable Device Flow\" on the app's page "
        + "(https://ghe.example.com/settings/developers), or log in with the browser: "
        + "'ghlogin auth --host ghe.example.com --web'")
    #expect(
      refused(nil, flow: .device).message(.tool(loginCommand: "mytool login"))
        == head + "check the client ID this tool is configured with; for the device flow, tick \"Enable Device "
        + "Flow\" on the app's page (https://ghe.example.com/settings/developers), or log in with the browser")
    #expect(refused(.user).exitStatus == .usage)
  }

  /// Issue 29 §1: at most five hosts, sorted, then how many more.
  @Test func severalHostsNameAtMostFive() {
    let hosts = (0..<1001).map { "h\($0).example" }
    let several = SeveralHosts(hosts: hosts.reversed())
    #expect(several.list == "h0.example, h1.example, h10.example, h100.example, h1000.example and 996 more")
    #expect(several.cliMessage.utf8.count < 300)
    #expect(SeveralHosts(hosts: ["b", "a"]).list == "a, b")
  }

  /// The exact words, for the errors a tool meets most.
  @Test func theCommonOnesWordForWord() {
    let neutral = Remedies.tool(loginCommand: nil)
    let named = Remedies.tool(loginCommand: "mytool login")
    let notLoggedIn = NotLoggedIn(host: "ghe.example.com", user: "hubot")
    #expect(
      notLoggedIn.cliMessage
        == "not logged in to ghe.example.com as hubot; run 'ghlogin auth --host ghe.example.com --user hubot'")
    #expect(notLoggedIn.message(neutral) == "not logged in to ghe.example.com as hubot; log in first")
    #expect(notLoggedIn.message(named) == "not logged in to ghe.example.com as hubot; run 'mytool login'")
    let rejected = GitHubAPIError(.tokenRejected, host: Self.enterprise, path: "/user")
    #expect(
      rejected.cliMessage
        == "the token for ghe.example.com was rejected (revoked or expired); run 'ghlogin auth --host ghe.example.com'")
    #expect(
      rejected.message(neutral) == "the token for ghe.example.com was rejected (revoked or expired); log in again")
    #expect(
      rejected.message(named) == "the token for ghe.example.com was rejected (revoked or expired); run 'mytool login'")
    let expired = RefreshError(.sessionExpired, host: Self.host)
    #expect(expired.cliMessage == "the session for github.com expired; run 'ghlogin auth'")
    #expect(expired.message(neutral) == "the session for github.com expired; log in again")
    let denied = DeviceFlowError(.denied, host: Self.host)
    #expect(
      denied.message(neutral)
        == "the login to github.com was denied (access_denied); nothing was stored. Log in again to retry")
    #expect(
      denied.message(named)
        == "the login to github.com was denied (access_denied); nothing was stored. Run 'mytool login' again to retry")
    #expect(
      StoreError.corrupt(path: "/c.json", detail: "not JSON").message(neutral)
        == "/c.json is not a valid credentials file (not JSON); it was left untouched. Move it aside and log in again: mv /c.json /c.json.broken"
    )
  }
}
