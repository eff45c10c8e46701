import Testing
import GHLoginTestSupport

@testable import GHLoginCore

@Suite struct FormEncodingTests {
  @Test func encodesEverythingOutsideTheUnreservedSet() {
    let encoded = FormEncoding.encode([("redirect_uri", "http://127.0.0.1:80/callback"), ("scope", "repo gist")])
    #expect(encoded == "redirect_uri=http%3A%2F%2F127.0.0.1%3A80%2Fcallback&scope=repo%20gist")
    #expect(FormEncoding.percentEncode("a&b=c+d~é") == "a%26b%3Dc%2Bd~%C3%A9")
  }

  @Test func decodesOnceWithPlusAsSpace() throws {
    let decoded = try FormEncoding.decode("a=%2541&b=x+y&c")
    #expect(decoded.map(\.name) == ["a", "b", "c"])
    #expect(decoded.map(\.value) == ["%41", "x y", ""])
  }

  @Test(arguments: ["a=%", "a=%4", "a=%zz", "a=%C3%28"])
  func refusesInvalidEncoding(_ input: String) {
    #expect(throws: FormEncoding.DecodeError.self) { try FormEncoding.decode(Substring(input)) }
  }
}
