import GHLoginKit
import GHLoginKitTesting
import GHLoginTestSupport
import Synchronization
import Testing

/// Issue 31 §1: `GitHubLogin.storeToken`, the library's entry for a token its user pastes,
/// through the public API only with GHLoginKitTesting's fakes, as a tool's test would. It runs
/// the same pipeline as `ghlogin auth --with-token`: checked with `GET /user`, stored, and the
/// one scope rule every login's credential is built with.
@Suite struct GitHubLoginStoreTokenTests {
  let directory: TemporaryDirectory
  init() throws { directory = try TemporaryDirectory() }

  /// The user's configuration (no OAuth app: a given token needs none).
  func github(_ transport: ScriptedTransport) throws -> GitHubLogin {
    try GitHubLogin(
      environment: GitHubLoginEnvironment(
        variables: ["HOME": directory.at("home")], transport: transport, clock: InstantClock()))
  }

  /// No login is stored: `freshToken` says "not logged in".
  func expectNothingStored(_ github: GitHubLogin, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
      _ = try github.freshToken()
      Issue.record("a login was stored", sourceLocation: sourceLocation)
    } catch let error as GitHubLoginError {
      #expect(error.kind == .notLoggedIn, sourceLocation: sourceLocation)
    } catch {
      Issue.record(error, sourceLocation: sourceLocation)
    }
  }

  /// The events a call reported, in order.
  final class Events: Sendable {
    let seen = Mutex<[LoginEvent]>([])
    var all: [LoginEvent] { seen.withLock { $0 } }
    func record(_ event: LoginEvent) { seen.withLock { $0.append(event) } }
  }

  @Test func aTokenGitHubAcceptsIsStoredWithTheScopesItReports() async throws {
    let transport = ScriptedTransport([.user(login: "octocat", id: 7, scopes: "repo, gist")])
    let github = try github(transport)
    let events = Events()

    let stored = try await github.storeToken("ghp_pasted", host: "github.com") { events.record($0) }

    #expect(stored.value == "ghp_pasted")
    #expect(stored.login == "octocat")
    #expect(stored.userID == 7)
    #expect(stored.scopes == ["repo", "gist"])
    #expect(stored.expiresAt == nil)
    #expect(transport.requests.map { "\($0.method) \($0.url)" } == ["GET https://api.github.com/user"])
    #expect(transport.requests.first?.header("Authorization") == "Bearer ghp_pasted")
    #expect(events.all == [.loggedIn(host: "github.com", login: "octocat")])
    #expect(try github.freshToken()?.value == "ghp_pasted", "it was stored")
  }

  /// The one scope rule: GitHub's `X-OAuth-Scopes`, else what the token response granted. A given
  /// token had no token response, so without the header (fine-grained and GitHub App tokens) it
  /// records none, rather than scopes nobody granted.
  @Test func withoutTheScopesHeaderAGivenTokenRecordsNone() async throws {
    let github = try github(ScriptedTransport([.user(login: "octocat", id: 7)]))
    let stored = try await github.storeToken("github_pat_fine")
    #expect(stored.scopes == [])
    #expect(try github.freshToken()?.scopes == [])
  }

  /// The same rule for a flow: the token response's scopes when `/user` sends no header.
  @Test func withoutTheScopesHeaderAFlowRecordsTheGrantedOnes() async throws {
    let transport = ScriptedTransport([.accessToken("gho_flow", scope: "repo,gist"), .user(login: "octocat", id: 7)])
    let github = try GitHubLogin(
      configuration: GitHubLoginConfiguration(clientID: "Iv1.testing", scopes: ["repo"]),
      environment: GitHubLoginEnvironment(
        variables: ["HOME": directory.at("home")], transport: transport, clock: InstantClock(),
        browser: ScriptedBrowser.approving(code: "code-1")))
    let outcome = try await github.login(LoginOptions(flow: .browser)) { _ in }
    #expect(outcome.token.scopes == ["repo", "gist"])
  }

  @Test func aRejectedTokenIsNotStored() async throws {
    let transport = ScriptedTransport([.json("{\"message\":\"Bad credentials\"}", status: 401)])
    let github = try github(transport)
    do {
      _ = try await github.storeToken("ghp_revoked")
      Issue.record("a rejected token was stored")
    } catch let error as GitHubLoginError {
      #expect(error.kind == .tokenRejected)
      #expect(
        error.message == "github.com rejected the token (HTTP 401: revoked, expired or mistyped); nothing was stored")
      #expect(!error.message.contains("ghp_revoked"))
    }
    #expect(transport.remaining == 0)
    expectNothingStored(github)
  }

  @Test(arguments: ["ghp_a=b", "ghp_\u{7}bell", "ghp_é", ""])
  func whatIsNotATokenIsRefusedWithoutAsking(_ token: String) async throws {
    let transport = ScriptedTransport()
    let github = try github(transport)
    do {
      _ = try await github.storeToken(token)
      Issue.record("stored \(token)")
    } catch let error as GitHubLoginError {
      #expect(error.kind == .configuration)
      #expect(
        error.message
          == "that is not a token: it has characters tokens never have (control characters, non-ASCII or '='); "
          + "nothing was stored")
    }
    #expect(transport.requests.isEmpty, "GitHub is not asked")
    expectNothingStored(github)
  }

  @Test func anotherAccountThanExpectedIsNotStored() async throws {
    let github = try github(ScriptedTransport([.user(login: "hubot", id: 8)]))
    do {
      _ = try await github.storeToken("ghp_hubot", expectedLogin: "octocat")
      Issue.record("another account's token was stored")
    } catch let error as GitHubLoginError {
      #expect(error.kind == .wrongAccount)
    }
    expectNothingStored(github)
  }

  /// The stored token again changes nothing and asks GitHub nothing; a new token of the same
  /// account replaces it.
  @Test func theSameTokenAgainChangesNothingAndANewOneReplacesIt() async throws {
    let transport = ScriptedTransport([.user(login: "octocat", id: 7)])
    let github = try github(transport)
    _ = try await github.storeToken("ghp_first")
    let events = Events()
    let again = try await github.storeToken("ghp_first") { events.record($0) }
    #expect(again.value == "ghp_first")
    #expect(transport.requests.count == 1, "not asked again")
    #expect(
      events.all == [.notice("Already logged in to github.com as octocat with this token; nothing was changed")])

    transport.enqueue(.user(login: "octocat", id: 7))
    let replaced = try await github.storeToken("ghp_second")
    #expect(replaced.value == "ghp_second")
    #expect(try github.freshToken()?.value == "ghp_second")
  }
}
