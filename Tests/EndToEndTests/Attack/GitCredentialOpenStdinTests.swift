import Foundation
import Testing

/// R91: `git-credential get` answers once the request's empty line has arrived,
/// while the caller still holds standard input open (as `git credential-store` does); before,
/// it waited for end of file.
@Suite struct GitCredentialOpenStdinTests {
  static let token = "gho_openStdin0123456789abcdefghijklmnop"

  @Test(arguments: [
    ["protocol=https\nhost=github.test\n\n"],
    ["protocol=https\n", "host=github.test\n", "\n"],
    ["protocol=https\nhost=github.test\n\nmore=after the end\n"],
  ])
  func getAnswersWithStdinStillOpen(_ pieces: [String]) async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let env = scenario.environment()
    let answer = try await offload {
      let child = try startGHLogin(["git-credential", "get"], env: env)
      // Each piece is read on its own: the child has read it and waits for more before the next.
      for piece in pieces.dropLast() {
        child.writeStdin(piece)
        guard child.waitUntilBlockedReadingStdin(timeout: 10) else {
          throw HarnessError("ghlogin did not read \(piece.debugDescription) and wait for more: \(child.commandLine)")
        }
      }
      child.writeStdin(pieces.last ?? "")
      let started = Date()
      // stdin stays open: the answer must come without an EOF.
      let line = try child.waitForLine(.stdout, timeout: 10) { $0.hasPrefix("password=") }
      let elapsed = Date().timeIntervalSince(started)
      let result = try child.finish(timeout: 10)
      child.closeStdin()
      return (line, elapsed, result)
    }
    #expect(answer.0 == "password=\(Self.token)")
    #expect(answer.1 < 5)
    #expect(answer.2.status == 0)
    #expect(answer.2.stdout == "username=octocat\npassword=\(Self.token)\n")
  }

  /// A request that is not finished yet (no empty line) is still waited for; EOF ends it too.
  /// ghlogin has read the whole unfinished request and is blocked reading more, having printed
  /// nothing: an answer before the empty line (or an exit) fails the wait.
  @Test func unfinishedRequestWaitsForTheEmptyLineOrEOF() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let env = scenario.environment()
    let result = try await offload {
      let child = try startGHLogin(["git-credential", "get"], env: env)
      child.writeStdin("protocol=https\nhost=github.test\n")
      let waiting = child.waitUntilBlockedReadingStdin(timeout: 10)
      let early = (exited: child.hasExited, stdout: child.text(.stdout))
      child.closeStdin()
      return (waiting, early, try child.finish(timeout: 10))
    }
    #expect(result.0, "ghlogin read the unfinished request and waits for more")
    #expect(result.1.exited == false)
    #expect(result.1.stdout == "", "no answer before the empty line or EOF")
    #expect(result.2.status == 0)
    #expect(result.2.stdout == "username=octocat\npassword=\(Self.token)\n")
  }
}
