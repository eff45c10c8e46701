import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// ConfigPathsTests' note as the command line prints it (`cliLine`). When the note is due is
/// ConfigPathsTests'.
@Suite struct ConfigPathsCLIVoiceTests {
  /// R86: the note for a credentials.json left beside a custom config names both paths and the
  /// exact commands (quoted for sh).
  @Test func movedCredentialsNotice() {
    let notice = ConfigNotice.movedCredentials(
      former: "/work/team repo/credentials.json", credentialsFile: "/home/u/.config/ghlogin/credentials.json",
      directory: "/home/u/.config/ghlogin")
    #expect(
      notice.cliLine
        == "ghlogin: note: /work/team repo/credentials.json is not used: credentials now live in your own directory, "
        + "not beside GHLOGIN_CONFIG (a config may be shared, a token must not be). ghlogin reads and writes "
        + "/home/u/.config/ghlogin/credentials.json, where there is none yet. To keep your logins, move the file:\n"
        + "  mkdir -p -m 700 /home/u/.config/ghlogin && mv '/work/team repo/credentials.json' "
        + "/home/u/.config/ghlogin/credentials.json\n")
  }
}
