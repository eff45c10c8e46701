import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// DeviceFlowCodeTests' messages in the command line's words (`cliMessage`): the remedies as
/// `ghlogin` commands. The answers and exit statuses are DeviceFlowCodeTests'.
@Suite struct DeviceFlowCodeCLIVoiceTests {
  static let endpoint = GitHubHost.gitHubDotCom.defaultEndpoints.deviceCode

  func parse(_ response: HTTPResponse) throws -> DeviceAuthorization {
    try DeviceAuthorization.parse(response, host: .gitHubDotCom, endpoint: Self.endpoint)
  }

  @Test func unavailableMessage() {
    let error = DeviceFlowError(
      .unavailable(reason: "https://github.com/login/device/code answered HTTP 404"), host: .gitHubDotCom)
    #expect(
      error.cliMessage
        == "the device flow is not available on github.com (https://github.com/login/device/code answered HTTP 404); "
        + "log in with the browser instead ('ghlogin auth --web'), or check device_code_url in the config")
  }

  /// R37: `device_flow_disabled`, HTTP 400 or 200, names the "Enable Device Flow" setting.
  @Test(arguments: [200, 400])
  func deviceFlowDisabled(_ status: Int) throws {
    let error = try #require(throws: DeviceFlowError.self) {
      try parse(DeviceStub.oauthError("device_flow_disabled", status: status))
    }
    #expect(
      error.cliMessage
        == "the OAuth app does not allow the device flow on github.com: tick \"Enable Device Flow\" in the app's "
        + "settings (https://github.com/settings/developers), or log in with the browser ('ghlogin auth --web')")
  }
}
