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
    Row(ConfigError.noHome, .configuration),
    Row(StoreError.corrupt(path: "/c.json", detail: "not JSON"), .store),
    Row(UsageError("choose a host"), .configuration),
    Row(UnknownAccount(host: "github.com", user: "octo", entry: HostEntry()), .notLoggedIn),
    Row(EnvCommand.TerminalRefused(), .configuration),
    Row(SetupDockerError("unreadable"), .system),
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
        storeMessage: "disk full", storeStatus: .failure, storeKind: .store, host: host, revocation: .revoked),
      .store),
    Row(
      UnstoredLogin(
        storeMessage: "the keyring is locked", storeStatus: .failure, storeKind: .keyring, host: host,
        revocation: .revoked),
      .keyring),
    Row(NotLoggedIn(host: "github.com"), .notLoggedIn),
    Row(MissingClientID(host: "github.com", configFile: "/config.json"), .configuration),
    Row(CredentialInputError.tooLarge, .configuration),
    Row(CredentialResponse.UnsafeValue(key: "password"), .store),
    Row(GitConfig.Failure(message: "git was not found"), .system),
    Row(CryptoError(call: "RAND_bytes"), .system),
    Row(SystemBrowser.LaunchError(message: "BROWSER is empty"), .system),
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
    #expect(wrapped.kind == GitHubLoginError.Kind(row.error.errorKind))
    #expect(wrapped.exitStatus == row.error.exitStatus)
    #expect(wrapped.message == row.error.message)
  }

  /// Errors that are not the kit's: cancellation is `.cancelled`, anything else `.system`.
  @Test func errorsOfOthers() {
    struct Other: Error {}
    #expect(GitHubLoginError(CancellationError()).kind == .cancelled)
    #expect(GitHubLoginError(Other()).kind == .system)
  }

  /// The internal kinds map one to one onto the public ones.
  @Test func internalKindsMapOneToOne() {
    let mapped = ErrorKind.allCases.map(GitHubLoginError.Kind.init)
    #expect(Set(mapped).count == ErrorKind.allCases.count)
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
