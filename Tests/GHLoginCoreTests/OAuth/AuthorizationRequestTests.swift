import Testing

import GHLoginTestSupport

@testable import GHLoginCore

@Suite struct AuthorizationRequestTests {
  /// RFC 7636 Appendix B.
  @Test func challengeMatchesRFC7636AppendixB() {
    #expect(
      AuthorizationRequest.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    let request = AuthorizationRequest(state: "s", verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    #expect(request.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
  }

  /// R16, R17: 43 characters of the unreserved set, fresh every time.
  @Test func freshValuesHaveTheRightShape() throws {
    let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    let a = try AuthorizationRequest()
    let b = try AuthorizationRequest()
    for value in [a.state, a.verifier, a.challenge, b.state, b.verifier] {
      #expect(value.count == 43)
      #expect(value.allSatisfy(allowed.contains))
    }
    #expect(a.state != b.state)
    #expect(a.verifier != b.verifier)
    #expect(a.challenge != b.challenge)
    #expect(a.state != a.verifier)
    #expect(a.challenge == AuthorizationRequest.challenge(for: a.verifier))
  }

  @Test func descriptionHidesSecrets() throws {
    let request = try AuthorizationRequest()
    #expect(!String(describing: request).contains(request.state))
    #expect(!String(describing: request).contains(request.verifier))
  }
}
