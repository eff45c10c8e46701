import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// R83: C1 and bidi controls in JSON for a terminal are `\u` escapes.
@Suite struct TerminalSafeJSONTests {
  @Test func rawControlsBecomeEscapes() throws {
    let raw = Array(#"{"name":"a\#u{9b}b\#u{202e}c\#u{200f}d\#u{2069}e\#u{80}f\#u{9f}","x":"\u00e9 \#u{e9}"}"#.utf8)
    let escaped = TerminalSafeJSON.escape(raw)
    #expect(escaped == #"{"name":"a\u009bb\u202ec\u200fd\u2069e\u0080f\u009f","x":"\u00e9 é"}"#)
    #expect(try JSON.parse(escaped) == (try JSON.parse(raw)))
  }

  @Test func writerEscapesThemToo() throws {
    let value: JSONValue = ["login": .string("x\u{9b}y\u{202d}z\u{7f}\u{1b}")]
    let text = JSON.serialize(value)
    #expect(text == #"{"login":"x\u009by\u202dz\u007f\u001b"}"#)
    #expect(try JSON.parse(text) == value)
  }
}
