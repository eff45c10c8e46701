import Foundation
import GHLoginTestSupport
import Testing

@testable import GHLoginCore

/// Each error type declares its ``ErrorKind`` (``ReportableError/errorKind``), the kind a tool
/// sees as `GitHubLoginError.kind` (GHLoginKitTests' `GitHubLoginErrorTests`), never a guess from
/// the exit status (a device-flow denial, a login that could not be stored and a keyring failure
/// used to come out as `.network`).
///
/// The rule: every error type in Core has at least one row in ``rows`` (one representative
/// value and its kind; GHLoginCLI's are in GHLoginCLITests' `CLIErrorKindTests`);
/// ``everyErrorTypeInCoreHasARow`` fails when a type that conforms to `ReportableError` (or one
/// of its refinements) is added without one.
@Suite struct ErrorKindTableTests {
  struct Row: CustomTestStringConvertible, Sendable {
    var error: any ReportableError & Sendable
    var kind: ErrorKind
    var testDescription: String { "\(type(of: error)) → \(kind)" }
    init(_ error: any ReportableError & Sendable, _ kind: ErrorKind) {
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
    Row(RefusedEdit("another program's helper"), .configuration),
    Row(GivenTokenError.rejected(host: "github.com"), .tokenRejected),
    Row(
      ForcedRefreshFailed(
        RefreshWarning(
          failure: RefreshError(.failed(HTTPError.resolve(host: "github.com", reason: "no DNS")), host: host),
          validFor: 60)),
      .network),
    Row(NoRefreshToken(host: host, login: "octocat"), .tokenRejected),
    Row(
      UnstoredLogin(
        storeFailure: StoreError.lockTimeout(path: "/c.json.lock", seconds: 10), host: host, revocation: .revoked),
      .store),
    Row(UnstoredLogin(storeFailure: KeyringError.locked, host: host, revocation: .revoked), .keyring),
    Row(UnexpectedError(CancellationError(), kind: .store), .store),
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
    Row(RefreshError(.notSaved(StoreError.lockTimeout(path: "/c.json.lock", seconds: 10)), host: host), .store),
    Row(
      RefreshError(.otherApp(login: "octocat", issuer: "Iv1.appA", configured: "Iv1.appB"), host: host), .notLoggedIn),
    Row(RefreshError(.failed(KeyringError.locked), host: host), .keyring),
    Row(UnexpectedError(HTTPError.interrupted, kind: .network), .network),
    Row(
      ConfigSettingInFile(
        TokenError(.oauth(OAuthErrorBody(code: "incorrect_client_credentials")), host: host, endpoint: url),
        configFile: "/c.json"),
      .configuration),
    Row(
      EndpointRequestError(
        step: "token exchange", setting: .tokenURL, url: url, underlying: .resolve(host: "github.com", reason: "no DNS")
      ),
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
    Row(NarrowingError.noRepository, .configuration),
    Row(NarrowingRefused(.noClientSecret(clientID: "app"), host: host, login: "octocat"), .configuration),
    Row(NarrowingNotVerified(host: host, problem: "wider", revocationFailure: nil, expiresAt: nil), .network),
    Row(RunRefused(.notRunning(id: "0123456789abcdef"), host: nil), .notLoggedIn),
    Row(ScopedTokenError(.notAppUserToken(404), host: host), .configuration),
    Row(ScopedTokenError(.forbidden(403), host: host), .denied),
    Row(ScopedTokenError(.rateLimited(status: 429, wait: 60), host: host), .network),
    Row(AppKeyError(.missing, source: .file("/k.pem")), .configuration),
    Row(AppKeyError(.tooOpen(mode: 0o644), source: .file("/k.pem")), .store),
    Row(AppKeyError(.signing("no libcrypto"), source: .keyring(app: "Iv1.app")), .system),
    Row(InstallationTokenError(.jwtRejected(nil), host: host), .configuration),
    Row(InstallationTokenError(.noInstallation("acme"), host: host), .denied),
    Row(InstallationTokenError(.rateLimited(status: 403, wait: 30), host: host), .network),
    Row(AgentProtocolError.tooLarge, .configuration),
    Row(AgentProtocolError.duplicateKey(line: 3), .configuration),
  ]

  /// The kind each error declares; its message is Core's own, in words (``Remedies/words``).
  @Test(arguments: rows) func eachErrorDeclaresItsKind(_ row: Row) {
    #expect(row.error.errorKind == row.kind)
    #expect(row.error.message(.words) == row.error.message)
  }

  /// The types that conform to `ReportableError` (directly or through `EndpointAnswerError`,
  /// `ConfigSettingError` or `HostScopedError`) in `Sources/MODULE`, by name.
  static func errorTypes(in module: String) throws -> Set<String> {
    let protocols = ["ReportableError", "EndpointAnswerError", "ConfigSettingError", "HostScopedError"]
    var names: Set<String> = []
    let root = repositoryRoot + "/Sources/" + module
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

  @Test func everyErrorTypeInCoreHasARow() throws {
    let found = try Self.errorTypes(in: "GHLoginCore")
    // A generic error's rows count for its type (`HostError<RefreshFailure>` for `HostError`).
    let covered = Set(Self.rows.map { String("\(type(of: $0.error))".prefix { $0 != "<" }) })
    #expect(found.count >= 25, "the scan of Sources/GHLoginCore found too few error types: \(found.sorted())")
    #expect(found.subtracting(covered).isEmpty, "error types without a row: \(found.subtracting(covered).sorted())")
    #expect(
      covered.subtracting(found).isEmpty, "rows for types the scan did not find: \(covered.subtracting(found).sorted())"
    )
  }
}

/// A library caller's messages (`GitHubLoginError` uses ``ReportableError/message(_:)`` with the
/// tool's remedies) name no `ghlogin` command (its users may not have ghlogin): the
/// errors that say how to fix a failure say it in words, or with the login command the tool
/// names (``GitHubLogin/loginCommand``), while the command line's messages are unchanged.
@Suite struct RemediesTests {
  /// Core's own voice (``Remedies/words``) names no `ghlogin` command for any error whose
  /// command-line message does (GHLoginCLITests' `RemedyVoiceCLITests` has the command line's
  /// words, GHLoginKitTests' `RemedyVoiceLibraryTests` a tool's).
  @Test(arguments: 0..<RemedyCases.namingCommands.count) func coreOwnVoiceNamesNoCommand(_ index: Int) {
    let error = RemedyCases.namingCommands[index]
    #expect(!RemedyCases.namesAGHLoginCommand(error.message), "Core's own voice names no command: \(error.message)")
    #expect(!error.message.isEmpty)
  }

  /// Issue 29 §1: at most five hosts, sorted, then how many more.
  @Test func severalHostsNameAtMostFive() {
    let hosts = (0..<1001).map { "h\($0).example" }
    let several = SeveralHosts(hosts: hosts.reversed())
    #expect(several.list == "h0.example, h1.example, h10.example, h100.example, h1000.example and 996 more")
    #expect(several.message.utf8.count < 300)
    #expect(SeveralHosts(hosts: ["b", "a"]).list == "a, b")
  }
}
