import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// CredentialStoreReadTests' messages in the command line's words (`cliMessage`: the program
/// named as `ghlogin`, the login as `ghlogin auth`). Which files the store refuses, untouched,
/// is CredentialStoreReadTests'.
@Suite struct CredentialStoreReadCLIVoiceTests {
  static let file = "/home/u/.config/ghlogin/credentials.json"

  /// R65, R67: a file over the cap.
  @Test func aHugeFileWasNotWrittenByGHLogin() {
    #expect(
      StoreError.tooLarge(path: Self.file).cliMessage
        == "refusing to read \(Self.file): it is larger than 1 MiB, so ghlogin did not write it; it was left untouched")
  }

  /// R65, R67: a corrupt file is moved aside, then the login runs again.
  @Test(arguments: [
    "invalid JSON at line 1, column 76", #"unknown key "hosts.github.com.accounts[0].client_id""#,
  ])
  func aCorruptFileSaysToMoveItAsideAndLogIn(detail: String) {
    #expect(
      StoreError.corrupt(path: Self.file, detail: detail).cliMessage
        == "\(Self.file) is not a valid credentials file (\(detail)); it was left untouched. Move it aside and log in "
        + "again: mv \(Self.file) \(Self.file).broken && ghlogin auth")
  }

  /// A file of a version this ghlogin does not know.
  @Test func aNewerVersionSaysToUpgradeGHLogin() {
    #expect(
      StoreError.newerVersion(path: Self.file, version: 4).cliMessage
        == "\(Self.file) was written by a newer ghlogin (version 4); it was left untouched. Upgrade ghlogin to use it")
  }
}
