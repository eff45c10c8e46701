import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// What the helper writes (R55, R56, R61) and how hosts are matched (R54).
@Suite struct CredentialResponseTests {
  @Test func writesUsernameAndPasswordOnly() throws {
    let bytes = try CredentialResponse(username: "octocat", password: "gho_token").encoded()
    #expect(String(decoding: bytes, as: UTF8.self) == "username=octocat\npassword=gho_token\n")
  }

  @Test func addsTheExpiryForAnExpiringToken() throws {
    let bytes = try CredentialResponse(username: "octocat", password: "ghu_token", passwordExpiryUTC: 1_700_028_800)
      .encoded()
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == "username=octocat\npassword=ghu_token\npassword_expiry_utc=1700028800\n")
  }

  @Test(arguments: [0, 7, 10, 1_700_028_800, -1, -10, Int64.max, Int64.min])
  func writesTheExpiryAsStringWould(_ value: Int64) {
    var output: [UInt8] = Array("x".utf8)
    CredentialResponse.appendDecimal(value, to: &output)
    #expect(String(decoding: output, as: UTF8.self) == "x" + String(value))
  }

  @Test(arguments: ["a\nquit=1", "a\rb", "a\0b", ""])
  func refusesAValueThatCouldBreakALine(_ bad: String) {
    #expect(throws: CredentialResponse.UnsafeValue(key: "password")) {
      try CredentialResponse(username: "octocat", password: bad).encoded()
    }
    #expect(throws: CredentialResponse.UnsafeValue(key: "username")) {
      try CredentialResponse(username: bad, password: "gho_x").encoded()
    }
  }

  @Test func theRefusalNamesTheKeyNotTheValue() {
    let error = CredentialResponse.UnsafeValue(key: "password")
    #expect(error.message.contains("password"))
    #expect(error.exitStatus == .failure)
  }

  @Test(arguments: [
    ("github.test", "github.test"),
    ("GitHub.TEST", "github.test"),
    ("github.test:8443", "github.test:8443"),
  ])
  func matchesAfterASCIILowercasing(_ requested: String, _ expected: String) {
    let stored = ["evil.test", "github.test", "github.test:8443"]
    #expect(CredentialHostMatch.storedHost(for: requested, among: stored) == expected)
  }

  @Test(arguments: [
    "github.test.evil.test", "evil.test.github.test", "github.test:443", "github.test:8444", "github.tes",
    "github.test.", "", "evil.test/github.test", "ｇithub.test",
    "gİthub.test",  // U+0130 lowercases to "i̇" in Unicode; ASCII lowercasing leaves it
    "githuB.test\u{301}",
  ])
  func neverMatchesAnotherHost(_ requested: String) {
    #expect(CredentialHostMatch.storedHost(for: requested, among: ["github.test", "github.test:8443"]) == nil)
  }

  @Test func comparesBytesNotCanonicalEquivalence() {
    // "é" precomposed and decomposed are equal as Swift Strings, not as bytes.
    let precomposed = "caf\u{E9}.test"
    let decomposed = "cafe\u{301}.test"
    #expect(precomposed == decomposed)
    #expect(CredentialHostMatch.storedHost(for: decomposed, among: [precomposed]) == nil)
  }

  @Test func constantTimeEqualComparesEveryByte() {
    #expect(CredentialHostMatch.constantTimeEqual("gho_abc", "gho_abc"))
    #expect(!CredentialHostMatch.constantTimeEqual("gho_abc", "gho_abd"))
    #expect(!CredentialHostMatch.constantTimeEqual("gho_abc", "gho_ab"))
    #expect(!CredentialHostMatch.constantTimeEqual("caf\u{E9}", "cafe\u{301}"))
  }
}
