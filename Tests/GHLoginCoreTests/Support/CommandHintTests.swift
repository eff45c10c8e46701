import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// A hint is a command that runs as printed.
@Suite struct CommandHintTests {
  @Test func wordsAreQuotedOnlyWhenAShellWouldSplitOrExpandThem() {
    #expect(
      CommandHint.line(["mv", "/home/me/.config/ghlogin/credentials.json", "x.broken"])
        == "mv /home/me/.config/ghlogin/credentials.json x.broken")
    #expect(CommandHint.line(["mv", "/home/my files/c.json"]) == "mv '/home/my files/c.json'")
    #expect(CommandHint.word("it's$HOME") == "'it'\\''s$HOME'")
    #expect(CommandHint.word("") == "''")
  }
}
