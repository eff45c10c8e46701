import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `logout` ends the login's forwards (issue 34 §1, issue 35 §2; R117): it revokes the tokens
/// minted through them with the login's own, and the agent, which still holds the forward's
/// current token in memory, never hands it out again: the next request through the forward is
/// refused, and the forward ends (its socket removed, `agent list` empty).
@Suite struct AgentForwardLogoutEndToEndTests {
  @Test func logoutEndsTheLoginsForwards() throws {
    let suite = AgentForwardEndToEndTests()
    let (fake, sandbox) = try suite.loggedIn()
    let agent = try suite.startAgent(sandbox)
    defer { agent.send(signal: SIGKILL) }
    let path = try suite.forward(sandbox, ["--repo", "acme/api"])
    let client = suite.clientEnvironment(sandbox, socket: path)
    let first = try runGHLogin(["token"], env: client)
    #expect(first.status == 0, "\(first.stderr)")
    let minted = first.stdout.trimmingCharacters(in: .newlines)
    #expect(try runGHLogin(["token"], env: client).stdout == first.stdout, "reused while the login is there")

    let logout = try runGHLogin(["logout"], env: sandbox.environment())
    #expect(logout.status == 0, "\(logout.stderr)")
    #expect(try fake.tokenRecord(minted)?["revoked"] as? Bool == true, "logout revoked the forward's token")
    #expect(try fake.tokenRecord(AgentForwardEndToEndTests.parent)?["revoked"] as? Bool == true)

    let after = try runGHLogin(["token"], env: client)
    #expect(after.status == 4, "\(after.stderr)")
    #expect(after.stdout == "", "the revoked token is not handed out again")
    #expect(after.stderr.contains("has ended: "), "\(after.stderr)")
    #expect(!FileManager.default.fileExists(atPath: path), "the forward's socket is removed")
    let list = try runGHLogin(["agent", "list"], env: suite.agentEnvironment(sandbox))
    #expect(list.stdout == "no forwards\n", "\(list.stdout)")
    #expect(try fake.counter("scoped_tokens") == 1, "nothing minted after the logout")
  }
}
