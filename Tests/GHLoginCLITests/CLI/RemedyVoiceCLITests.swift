import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// Issue 31 §2: the command line renders Core's remedies as `ghlogin …` lines (``Remedies/ghlogin``).
@Suite struct RemedyVoiceCLITests {
  @Test(arguments: 0..<RemedyCases.namingCommands.count) func theCommandLineNamesItsCommand(_ index: Int) {
    let error = RemedyCases.namingCommands[index]
    #expect(
      RemedyCases.namesAGHLoginCommand(error.cliMessage),
      "the command line's message names its command: \(error.cliMessage)")
  }

  /// Issue 29 §2: a refused client ID names `client_id`, its layer and the fix, for each layer.
  @Test func aRefusedClientIDNamesItsLayerAndTheFix() {
    let head = RemedyCases.refusedHead
    let set = "'ghlogin config set --host ghe.example.com client_id ID'"
    #expect(
      RemedyCases.refused(.system).cliMessage
        == head + "client_id Iv1.x from /etc/xdg/ghlogin/config.json; set your app's client ID: \(set)")
    #expect(
      RemedyCases.refused(.builtIn, location: "this build").cliMessage == head
        + "client_id Iv1.x of the app built into ghlogin; use your own app: \(set)")
    #expect(
      RemedyCases.refused(.environment, location: "GHLOGIN_CLIENT_ID").cliMessage
        == head + "client_id Iv1.x from GHLOGIN_CLIENT_ID; set GHLOGIN_CLIENT_ID to your app's client ID (or unset "
        + "it and run \(set))")
    #expect(
      RemedyCases.refused(.user, location: "/home/u/.config/ghlogin/config.json", flow: .device).cliMessage
        == head + "client_id Iv1.x from /home/u/.config/ghlogin/config.json; set your app's client ID: \(set); "
        + "for the device flow, tick \"Enable Device Flow\" on the app's page "
        + "(https://ghe.example.com/settings/developers), or log in with the browser: "
        + "'ghlogin auth --host ghe.example.com --web'")
    #expect(RemedyCases.refused(.user).exitStatus == .usage)
  }

  /// The exact words, for the errors met most.
  @Test func theCommonOnesWordForWord() {
    #expect(
      NotLoggedIn(host: "ghe.example.com", user: "hubot").cliMessage
        == "not logged in to ghe.example.com as hubot; run 'ghlogin auth --host ghe.example.com --user hubot'")
    #expect(
      GitHubAPIError(.tokenRejected, host: RemedyCases.enterprise, path: "/user").cliMessage
        == "the token for ghe.example.com was rejected (revoked or expired); run 'ghlogin auth --host ghe.example.com'")
    #expect(
      RefreshError(.sessionExpired, host: RemedyCases.host).cliMessage
        == "the session for github.com expired; run 'ghlogin auth'")
  }
}
