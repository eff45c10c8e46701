import Foundation
import Testing

/// R83: C1 controls (U+0080–U+009F) and bidi overrides from `/user`, sent as raw
/// UTF-8 as GitHub does (the fake's `user.raw_utf8`), came out of `whoami --json` raw. Now they
/// are `\u` escapes: the same JSON value, nothing a terminal acts on.
@Suite struct WhoamiControlsEndToEndTests {
  @Test func c1AndBidiControlsAreEscaped() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: "gho_whoamiControls0123456789abcdefghijk")
    let name = "A\u{9b}31mB\u{85}C\u{202e}D\u{2066}E\u{7f}F"
    try scenario.fake.script(["user": ["raw_utf8": true, "override": ["name": name, "bio": "caf\u{e9} \u{1F600}"]]])

    let json = try await scenario.run(["whoami", "--json"])
    #expect(json.status == 0, "\(json)")
    for raw in ["\u{9b}", "\u{85}", "\u{202e}", "\u{2066}", "\u{7f}"] {
      #expect(!json.stdout.contains(raw), "raw \(raw.unicodeScalars.first!.value) in \(json.stdout)")
    }
    #expect(json.stdout.contains(#""name":"A\u009b31mB\u0085C\u202eD\u2066E\u007fF""#), "\(json.stdout)")
    #expect(json.stdout.contains("caf\u{e9} \u{1F600}"), "other non-ASCII stays as it is")
    let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect(parsed?["name"] as? String == name)
    // The fake really sent them raw (otherwise this test proves nothing).
    let sent = try #require(try scenario.fake.requests(path: "/user").last?["response_body"] as? String)
    #expect(sent.contains("\u{202e}") && sent.contains("\u{9b}"), "\(sent)")
  }
}
