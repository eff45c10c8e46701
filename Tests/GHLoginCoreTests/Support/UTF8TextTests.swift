import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// `UTF8Text.validated` must accept and refuse exactly what `String(validating:as:)` does.
@Suite struct UTF8TextTests {
  @Test(
    arguments: [
      [], Array("protocol=https\nhost=github.com\n\n".utf8), Array("é€😀".utf8), [0x00], [0x7F],
      [0xC3], [0x80], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
      [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFF], [0xEF, 0xBF, 0xBD], [0x61, 0xE2, 0x82], [0xE2, 0x82, 0x61],
    ] as [[UInt8]])
  func knownBytes(bytes: [UInt8]) {
    #expect(UTF8Text.validated(bytes) == String(validating: bytes, as: UTF8.self))
  }

  @Test func randomBytes() {
    var generator = SystemRandomNumberGenerator()
    // Bytes drawn mostly from the lead and continuation ranges, so many sequences are nearly valid.
    let pool: [UInt8] = [
      0x41, 0x0A, 0x3D, 0x80, 0x9F, 0xA0, 0xBF, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
    ]
    var valid = 0
    for _ in 0..<20_000 {
      let bytes = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pool.randomElement(using: &generator)! }
      let expected = String(validating: bytes, as: UTF8.self)
      #expect(UTF8Text.validated(bytes) == expected, "\(bytes)")
      if expected != nil { valid += 1 }
    }
    #expect(valid > 100)  // the draw reaches both answers
  }
}
