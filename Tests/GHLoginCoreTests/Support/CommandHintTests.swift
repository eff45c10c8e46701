import Testing

import GHLoginTestSupport

@testable import GHLoginCLI
@testable import GHLoginCore

/// A hint is a command that runs as printed.
@Suite struct CommandHintTests {
  @Test func authNamesTheHostOffGitHubDotComAndTheUser() {
    #expect(CommandHint.auth(host: "github.com") == "ghlogin auth")
    #expect(CommandHint.auth(host: "ghe.example.com:8443") == "ghlogin auth --host ghe.example.com:8443")
    #expect(CommandHint.auth(host: "github.com", user: "hubot") == "ghlogin auth --user hubot")
    #expect(CommandHint.auth(host: "ghe.test", user: "a b") == "ghlogin auth --host ghe.test --user 'a b'")
  }

  @Test func wordsAreQuotedOnlyWhenAShellWouldSplitOrExpandThem() {
    #expect(
      CommandHint.line(["mv", "/home/me/.config/ghlogin/credentials.json", "x.broken"])
        == "mv /home/me/.config/ghlogin/credentials.json x.broken")
    #expect(CommandHint.line(["mv", "/home/my files/c.json"]) == "mv '/home/my files/c.json'")
    #expect(CommandHint.word("it's$HOME") == "'it'\\''s$HOME'")
    #expect(CommandHint.word("") == "''")
  }
}
