import Testing

import GHLoginTestSupport

@testable import GHLoginCore

@Suite struct CryptoTests {
  @Test func randomBytesHaveTheRequestedLengthAndDiffer() throws {
    let a = try Crypto.randomBytes(32)
    let b = try Crypto.randomBytes(32)
    #expect(a.count == 32)
    #expect(b.count == 32)
    #expect(a != b)
    #expect(try Crypto.randomBytes(0) == [])
  }

  @Test func sha256OfKnownInputs() {
    // FIPS 180-2 examples.
    #expect(hex(Crypto.sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(hex(Crypto.sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
  }

  @Test(arguments: [
    ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
    ("foobar", "Zm9vYmFy"),
  ])
  func base64MatchesRFC4648Vectors(input: String, expected: String) {
    #expect(Crypto.base64(Array(input.utf8)) == expected)
  }

  @Test(arguments: [
    ([UInt8](), ""), ([0xFB], "-w"), ([0xFB, 0xFF], "-_8"), ([0xFB, 0xFF, 0xBF], "-_-_"), ([0x66, 0x6F], "Zm8"),
  ])
  func base64URLUsesTheURLAlphabetWithoutPadding(input: [UInt8], expected: String) {
    #expect(Crypto.base64URL(input) == expected)
  }

  @Test func base64UsesPlusAndSlash() {
    #expect(Crypto.base64([0xFB, 0xFF, 0xBF]) == "+/+/")
    #expect(Crypto.base64(Array("user:pw".utf8)) == "dXNlcjpwdw==")
  }

  @Test func constantTimeEquals() {
    #expect(Crypto.constantTimeEquals([1, 2, 3], [1, 2, 3]))
    #expect(Crypto.constantTimeEquals([], []))
    #expect(!Crypto.constantTimeEquals([1, 2, 3], [1, 2, 4]))
    #expect(!Crypto.constantTimeEquals([1, 2, 3], [1, 2]))
    #expect(!Crypto.constantTimeEquals([], [0]))
  }

  @Test func cryptoErrorMessageNamesTheCallAndExitsOne() {
    let error = CryptoError(call: "RAND_bytes")
    #expect(error.message.contains("RAND_bytes"))
    #expect(error.exitStatus == .failure)
  }

  private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
  }
}
