import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// ConfigSettingsTests' warnings as the command line prints them (`cliLine`, `cliLines`):
/// `ghlogin: warning:` and the `ghlogin config set` command. When they are due is ConfigSettingsTests'.
@Suite struct ConfigSettingsCLIVoiceTests {
  /// A host block that relied on the top-level app is told the command that sets its own.
  @Test func aHostBlockThatReliedOnTheTopLevelAppIsWarned() {
    let notices: [ConfigNotice] = [
      .movedApp(file: "/c.json", defaultHost: "github.com", host: "ghe.example.com", clientID: "top-id")
    ]
    #expect(
      notices.cliLines
        == "ghlogin: warning: /c.json: the top-level client_id is the app of github.com only (an OAuth app exists "
        + "on one GitHub host), so ghe.example.com no longer uses it; if the app is ghe.example.com's too, run "
        + "'ghlogin config set --host ghe.example.com client_id top-id'\n")
  }

  /// R108: a lone GHLOGIN_CLIENT_SECRET is ignored, and the warning says so.
  @Test func aLoneClientSecretIsWarned() {
    #expect(
      ConfigNotice.loneClientSecret.cliLine
        == "ghlogin: warning: GHLOGIN_CLIENT_SECRET is ignored without GHLOGIN_CLIENT_ID (a secret is only sent "
        + "with the client ID of its own layer); set both variables\n")
  }
}
