import GHLoginTestSupport
import Testing

@testable import GHLoginKit

/// ``GitHubLoginError/kind`` is the kind the error declares (``ReportableError/errorKind``; each
/// error type's kind is GHLoginCoreTests' `ErrorKindTableTests`), never a guess from the exit
/// status, and the message is the error's with the tool's remedies.
@Suite struct GitHubLoginErrorTests {
  /// Errors of several kinds whose exit statuses do not tell the kind apart.
  static let errors: [any ReportableError & Sendable] = [
    KeyringError.locked, ConfigError.noHome, StoreError.corrupt(path: "/c.json", detail: "not JSON"),
    HTTPError.connect(host: "github.com", port: 443, reason: "refused"), HTTPError.interrupted,
    HTTPError.caFile(path: "/ca.pem", reason: "missing"), HTTPError.listen(port: 0, reason: "no ports", inUse: false),
    NotLoggedIn(host: "github.com"),
  ]

  /// The kind a tool sees is the one the error declares, and the exit status is unchanged.
  @Test(arguments: 0..<errors.count) func publicKindIsTheDeclaredKind(_ index: Int) {
    let error = Self.errors[index]
    let wrapped = GitHubLoginError(error)
    #expect(wrapped.kind == error.errorKind)
    #expect(wrapped.exitStatus == error.exitStatus)
    #expect(wrapped.message == error.message(.tool(loginCommand: nil)))
    #expect(
      GitHubLoginError(error, remedies: .tool(loginCommand: "mytool login")).message
        == error.message(.tool(loginCommand: "mytool login")))
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
}
