import Foundation
import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// GHLoginCLI's half of GHLoginCoreTests' `ErrorKindTableTests`: each of its error types declares
/// its ``ErrorKind``, and every one of them has a row here.
@Suite struct CLIErrorKindTests {
  struct Row: CustomTestStringConvertible, Sendable {
    var error: any ReportableError & Sendable
    var kind: ErrorKind
    var testDescription: String { "\(type(of: error)) → \(kind)" }
    init(_ error: any ReportableError & Sendable, _ kind: ErrorKind) {
      self.error = error
      self.kind = kind
    }
  }

  static let rows: [Row] = [
    Row(UnknownAccount(host: "github.com", user: "octo", entry: HostEntry()), .notLoggedIn),
    Row(EnvCommand.TerminalRefused(), .configuration),
    Row(RunCommand.CommandNotFound(name: "tool"), .configuration),
    Row(SetupDockerError("unreadable"), .system),
    Row(AuthCommand.WithTokenError(kind: .empty), .configuration),
    Row(InterruptedInput(), .cancelled),
    Row(AppKeyNotInKeyring(app: "Iv1.app"), .configuration),
    Row(AgentClientRoute.LoginIsElsewhere(command: "auth"), .configuration),
    Row(AgentClientRoute.Refused(message: "no login", exitStatus: .notLoggedIn), .notLoggedIn),
    Row(AgentClientRoute.Refused(message: "outside the policy", exitStatus: .usage), .configuration),
    Row(AgentClient.Unreachable(socket: "/run/user/0/ghlogin/agent.sock", reason: "refused"), .network),
    Row(AgentCommand.AgentFailure(message: "did not start"), .system),
    Row(ContainerArgsCommand.MainSocketRefused(), .configuration),
    Row(AuthCommand.SetupError.noAnswer, .configuration),
    Row(SSHCommand.NoAgent(socket: "/run/user/0/ghlogin/agent.sock"), .configuration),
    Row(SSHCommand.CannotRun(message: "ssh: 'ssh' was not found on PATH; no forward was made"), .configuration),
  ]

  @Test(arguments: rows) func eachErrorDeclaresItsKind(_ row: Row) {
    #expect(row.error.errorKind == row.kind)
  }

  /// The same scan as Core's `ErrorKindTableTests.errorTypes(in:)`, over Sources/GHLoginCLI.
  @Test func everyErrorTypeOfTheCommandLineHasARow() throws {
    let protocols = ["ReportableError", "EndpointAnswerError", "ConfigSettingError"]
    var found: Set<String> = []
    let root = repositoryRoot + "/Sources/GHLoginCLI"
    let enumerator = try #require(FileManager.default.enumerator(atPath: root))
    while let relative = enumerator.nextObject() as? String {
      guard relative.hasSuffix(".swift") else { continue }
      for line in try String(contentsOfFile: root + "/" + relative, encoding: .utf8).split(separator: "\n") {
        let words = line.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
        guard let keyword = words.firstIndex(where: { $0 == "struct" || $0 == "enum" || $0 == "class" }),
          keyword + 1 < words.count,
          let colon = line.firstIndex(of: ":"), let brace = line.firstIndex(of: "{"), colon < brace
        else { continue }
        let inheritance = line[colon..<brace].split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
        if protocols.contains(where: { inheritance.contains(Substring($0)) }) {
          found.insert(String(words[keyword + 1]))
        }
      }
    }
    let covered = Set(Self.rows.map { "\(type(of: $0.error))" })
    #expect(found.count >= 6, "the scan of Sources/GHLoginCLI found too few error types: \(found.sorted())")
    #expect(found.subtracting(covered).isEmpty, "error types without a row: \(found.subtracting(covered).sorted())")
    #expect(
      covered.subtracting(found).isEmpty, "rows for types the scan did not find: \(covered.subtracting(found).sorted())"
    )
  }
}
