import GHLoginTestSupport
import Testing

@testable import GHLoginKit

/// Issue 31 §2: the library renders Core's remedies in words, or with the tool's login command
/// (``Remedies/tool(loginCommand:)``), never as `ghlogin` commands.
@Suite struct RemedyVoiceLibraryTests {
  @Test(arguments: 0..<RemedyCases.namingCommands.count) func aToolsUsersMeetNoGHLoginCommand(_ index: Int) {
    let error = RemedyCases.namingCommands[index]
    for remedies in [Remedies.tool(loginCommand: nil), .tool(loginCommand: "mytool login")] {
      let text = error.message(remedies)
      #expect(!RemedyCases.namesAGHLoginCommand(text), "\(remedies): \(text)")
      #expect(!text.contains("GHLOGIN_CLIENT_"), "\(remedies): \(text)")
      #expect(!text.isEmpty)
    }
  }

  /// Issue 29 §2: a tool's users get a refused client ID's fix without ghlogin's commands.
  @Test func aRefusedClientIDInATool() {
    #expect(
      RemedyCases.refused(nil, flow: .device).message(.tool(loginCommand: "mytool login"))
        == RemedyCases.refusedHead
        + "check the client ID this tool is configured with; for the device flow, tick \"Enable Device "
        + "Flow\" on the app's page (https://ghe.example.com/settings/developers), or log in with the browser")
  }

  /// The exact words, for the errors a tool meets most.
  @Test func theCommonOnesWordForWord() {
    let neutral = Remedies.tool(loginCommand: nil)
    let named = Remedies.tool(loginCommand: "mytool login")
    let notLoggedIn = NotLoggedIn(host: "ghe.example.com", user: "hubot")
    #expect(notLoggedIn.message(neutral) == "not logged in to ghe.example.com as hubot; log in first")
    #expect(notLoggedIn.message(named) == "not logged in to ghe.example.com as hubot; run 'mytool login'")
    let rejected = GitHubAPIError(.tokenRejected, host: RemedyCases.enterprise, path: "/user")
    #expect(
      rejected.message(neutral) == "the token for ghe.example.com was rejected (revoked or expired); log in again")
    #expect(
      rejected.message(named) == "the token for ghe.example.com was rejected (revoked or expired); run 'mytool login'")
    let expired = RefreshError(.sessionExpired, host: RemedyCases.host)
    #expect(expired.message(neutral) == "the session for github.com expired; log in again")
    let denied = DeviceFlowError(.denied, host: RemedyCases.host)
    #expect(
      denied.message(neutral)
        == "the login to github.com was denied (access_denied); nothing was stored. Log in again to retry")
    #expect(
      denied.message(named)
        == "the login to github.com was denied (access_denied); nothing was stored. Run 'mytool login' again to retry")
    #expect(
      StoreError.corrupt(path: "/c.json", detail: "not JSON").message(neutral)
        == "/c.json is not a valid credentials file (not JSON); it was left untouched. Move it aside and log in "
        + "again: mv /c.json /c.json.broken")
  }
}
