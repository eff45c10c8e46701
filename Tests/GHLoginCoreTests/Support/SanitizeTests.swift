import Testing

import GHLoginTestSupport

@testable import GHLoginCore

@Suite struct SanitizeTests {
  @Test(arguments: [
    ("octocat", "octocat"),
    ("oct\u{1B}[31mocat", "oct[31mocat"),  // R83: ESC stripped
    ("a\u{9B}31mb", "a31mb"),  // C1 CSI
    ("line1\r\nline2\tx", "line1line2x"),
    ("nul\u{0}del\u{7F}", "nuldel"),
    ("a\u{2028}b\u{2029}c\u{85}d", "abcd"),
    ("\u{202E}evil\u{2066}x\u{200F}", "evilx"),
    ("Zoë 🐙", "Zoë 🐙"),
  ])
  func terminalStripsControls(input: String, expected: String) {
    #expect(Sanitize.terminal(input) == expected)
  }

  @Test func terminalCutsLongText() {
    #expect(Sanitize.terminal(String(repeating: "a", count: 10), maxCharacters: 4) == "aaaa…")
    #expect(Sanitize.terminal("abcd", maxCharacters: 4) == "abcd")
  }

  @Test func htmlEscapesMarkupAndStripsControls() {
    #expect(
      Sanitize.html("<script>alert('x')</script> & \"q\"\u{1B}")
        == "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;")
  }
}
