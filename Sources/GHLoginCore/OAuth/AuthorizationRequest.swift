/// The secrets of one browser login attempt: `state` and the PKCE verifier (R15–R18).
///
/// Make a fresh value for every attempt and never reuse one. The `description`
/// hides both secrets, so the value can be logged or shown in a test failure.
struct AuthorizationRequest: Sendable, Equatable, CustomStringConvertible {
  /// The number of CSPRNG bytes behind `state` and the verifier (256 bits each).
  static let entropyBytes = 32
  /// The only PKCE method GitHub accepts.
  static let challengeMethod = "S256"

  /// The anti-CSRF value sent in the authorize URL and checked on the callback.
  package let state: String
  /// The PKCE code verifier, sent only in the token request body.
  package let verifier: String
  /// `BASE64URL(SHA256(ASCII(verifier)))`, sent in the authorize URL.
  package let challenge: String

  /// A new request with 32 random bytes each for `state` and the verifier.
  ///
  /// Both come from `RAND_bytes` (``Crypto/randomBytes(_:)``) and are
  /// base64url-encoded without padding: 43 characters of `[A-Za-z0-9_-]`.
  package init() throws(CryptoError) {
    let state = Crypto.base64URL(try Crypto.randomBytes(Self.entropyBytes))
    let verifier = Crypto.base64URL(try Crypto.randomBytes(Self.entropyBytes))
    self.init(state: state, verifier: verifier)
  }

  /// A request with given values; for tests and the RFC 7636 test vector.
  package init(state: String, verifier: String) {
    self.state = state
    self.verifier = verifier
    self.challenge = Self.challenge(for: verifier)
  }

  /// The S256 code challenge for `verifier` (RFC 7636 §4.2).
  package static func challenge(for verifier: String) -> String {
    Crypto.base64URL(Crypto.sha256(Array(verifier.utf8)))
  }

  package var description: String { "AuthorizationRequest(state: <redacted>, verifier: <redacted>)" }
}
