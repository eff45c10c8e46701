import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// The command line's `ghlogin auth` hint (`CommandHint.auth`, GHLoginCLI's); the quoting of
/// any hint is CommandHintTests'.
@Suite struct CommandHintCLIVoiceTests {
  @Test func authNamesTheHostOffGitHubDotComAndTheUser() {
    #expect(CommandHint.auth(host: "github.com") == "ghlogin auth")
    #expect(CommandHint.auth(host: "ghe.example.com:8443") == "ghlogin auth --host ghe.example.com:8443")
    #expect(CommandHint.auth(host: "github.com", user: "hubot") == "ghlogin auth --user hubot")
    #expect(CommandHint.auth(host: "ghe.test", user: "a b") == "ghlogin auth --host ghe.test --user 'a b'")
  }
}
