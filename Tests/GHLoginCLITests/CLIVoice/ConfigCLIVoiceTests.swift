import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// ConfigTests' messages that the command line words its own way (`cliMessage`: the program
/// named as `ghlogin`). Which file is refused, and why, is ConfigTests'.
@Suite struct ConfigCLIVoiceTests {
  @Test func aLargeFileIsNotAGHLoginConfigFile() {
    #expect(
      ConfigError.tooLarge(file: "/c/config.json").cliMessage
        == "/c/config.json is larger than 1 MiB; it is not a ghlogin config file")
  }
}
