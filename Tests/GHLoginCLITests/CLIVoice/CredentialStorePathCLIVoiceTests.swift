import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// CredentialStorePathTests' messages in the command line's words (`cliMessage`: the program
/// named as `ghlogin`). Which paths the store refuses is CredentialStorePathTests'.
@Suite struct CredentialStorePathCLIVoiceTests {
  /// R63, R65: a credentials file that is a symbolic link.
  @Test func aSymbolicLinkIsRefusedNamingGHLogin() {
    let file = "/home/u/.config/ghlogin/credentials.json"
    #expect(
      StoreError.symbolicLink(path: file).cliMessage
        == "refusing to use \(file): it is a symbolic link; ghlogin never reads or writes credentials through a link")
  }
}
