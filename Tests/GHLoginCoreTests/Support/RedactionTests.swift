import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// R88: `status` shows a known GitHub prefix, `****` and at most the last four
/// characters; nothing of a short token; nothing before an `_` or `.` of a token from elsewhere.
@Suite struct RedactionTests {
  @Test(arguments: [
    ("gho_16C7e42F292c6912E7710c838347Ae178B4a", "gho_****8B4a"),
    ("ghu_SECONDaccountTOKEN000000000000000042", "ghu_****0042"),
    ("ghp_ABCdef0123456789xyzw", "ghp_****xyzw"),
    ("ghs_1234567890abcdefWXYZ", "ghs_****WXYZ"),
    ("ghr_REFRESHtoken000000000000000000000009", "ghr_****0009"),
    ("github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "github_pat_****mnop"),
  ])
  func githubTokensKeepTheirPublicPrefix(_ token: String, _ shown: String) {
    #expect(Redaction.redact(token) == shown)
  }

  /// The attack: a base64url token with an `_` near the end was shown whole ("prefix up to `_`").
  @Test func base64URLTokenShowsOnlyTheLastFour() {
    let token = "Zx9Kq2LmN8pR4sT6vW1yB3dF5hJ7kM0nQ_Xz"
    #expect(Redaction.redact(token) == "****Q_Xz")
  }

  /// A JWT showed its header, its payload and most of its signature.
  @Test func jwtShowsOnlyTheLastFour() {
    let jwt =
      "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJvY3RvY2F0IiwiZXhwIjoxNzAwMDAwMDAwfQ"
      + ".c2lnbmF0dXJlX3BhcnRfd2l0aF91bmRlcnNjb3Jlcw_Ab9z"
    let shown = Redaction.redact(jwt)
    #expect(shown == "****Ab9z")
    #expect(!shown.contains("eyJ"))
  }

  /// An unknown prefix that looks like GitHub's is not trusted.
  @Test func unknownPrefixIsNotShown() {
    #expect(Redaction.redact("ghx_0123456789abcdefWXYZ") == "****WXYZ")
    #expect(Redaction.redact("secret_0123456789abcdefWXYZ") == "****WXYZ")
  }

  /// Shorter than 16 characters: nothing of it, not even a prefix.
  @Test(arguments: ["", "a", "gho_", "gho_abcdefgh", "ghp_0123456789a", "github_pat_1234", "ABCDEFGHIJKLMNO"])
  func shortTokensShowNothing(_ token: String) {
    #expect(token.count < 16)
    #expect(Redaction.redact(token) == "****")
  }

  @Test func sixteenCharactersShowTheLastFour() {
    #expect(Redaction.redact("ABCDEFGHIJKLMNOP") == "****MNOP")
    #expect(Redaction.redact("gho_ABCDEFGHIJKL") == "gho_****IJKL")
  }
}
