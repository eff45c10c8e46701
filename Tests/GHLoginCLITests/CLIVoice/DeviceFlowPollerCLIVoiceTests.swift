import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// DeviceFlowPollerTests' messages in the command line's words (`cliMessage`): the remedies as
/// `ghlogin` commands. When the poller stops with these errors is DeviceFlowPollerTests'.
@Suite struct DeviceFlowPollerCLIVoiceTests {
  /// R36: an expired code says to run the device flow again.
  @Test func anExpiredCodeSaysToRunItAgain() {
    #expect(
      DeviceFlowError(.expired, host: .gitHubDotCom).cliMessage == "the code expired; run 'ghlogin auth --device' again"
    )
  }

  /// R36: `access_denied` reports the cancellation and the command that retries.
  @Test func accessDenied() {
    #expect(
      DeviceFlowError(.denied, host: .gitHubDotCom).cliMessage
        == "the login to github.com was denied (access_denied); nothing was stored. Run 'ghlogin auth --device' again to retry"
    )
  }
}
