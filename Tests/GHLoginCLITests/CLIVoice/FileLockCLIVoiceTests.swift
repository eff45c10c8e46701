import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// FileLockTests' message in the command line's words (`cliMessage`: the other program named as
/// `ghlogin`). When the lock times out is FileLockTests'.
@Suite struct FileLockCLIVoiceTests {
  @Test func aHeldLockNamesTheOtherGHLogin() {
    let lockFile = "/home/u/.config/ghlogin/credentials.json.lock"
    #expect(
      StoreError.lockTimeout(path: lockFile, seconds: 1).cliMessage
        == "timed out after 1 seconds waiting for the lock on \(lockFile); another ghlogin is still using the "
        + "credentials. Try again when it has finished")
  }
}
