import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// ConfigEditorTests' messages in the command line's words (`cliMessage`): the program named as
/// `ghlogin`. When the editor times out is ConfigEditorTests'.
@Suite struct ConfigEditorCLIVoiceTests {
  /// R99: the config's lock held too long names the other `ghlogin` and says nothing was written.
  @Test func aLockTimeoutNamesTheOtherGHLogin() {
    let lockFile = "/home/u/.config/ghlogin/config.json.lock"
    #expect(
      StoreError.configLockTimeout(path: lockFile, seconds: 2).cliMessage
        == "timed out after 2 seconds waiting for the lock on \(lockFile); another ghlogin is still changing the "
        + "config, and nothing was written. Try again when it has finished")
  }
}
