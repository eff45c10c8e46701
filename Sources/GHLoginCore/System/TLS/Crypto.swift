import COpenSSL

/// The random number generator failed, or OpenSSL could not be loaded; nothing secret was produced.
struct CryptoError: ReportableError, Equatable {
  /// The OpenSSL function that failed, for example `"RAND_bytes"`, or `"dlopen"`.
  package var call: String
  /// Why OpenSSL could not be loaded (``TLSLibrary/LoadError``'s text); nil for a failed call.
  var loadFailure: String? = nil

  package var message: String {
    if let loadFailure { return loadFailure + "; nothing was sent" }
    return "the system's secure random number generator failed (\(call)); nothing was sent. "
      + "Try again; if it persists, check that /dev/urandom works"
  }
  package var exitStatus: ExitStatus { .failure }
  package var errorKind: ErrorKind { .system }
}

/// Randomness, hashing and encodings used by the OAuth flows, over OpenSSL's libcrypto.
///
/// Only this file and the TLS layer import `COpenSSL`. OpenSSL is loaded on the first call
/// (``TLSLibrary``); base64 needs no OpenSSL.
package enum Crypto {
  /// `n` bytes from OpenSSL's CSPRNG.
  ///
  /// Wraps `RAND_bytes`. It fails closed: any result other than 1 throws a
  /// ``CryptoError`` and no partially random bytes are returned.
  static func randomBytes(_ count: Int) throws(CryptoError) -> [UInt8] {
    precondition(count >= 0 && count <= Int(Int32.max), "randomBytes: count out of range")
    if count == 0 { return [] }
    do {
      try TLSLibrary.load()
    } catch {
      throw CryptoError(call: "dlopen", loadFailure: error.description)
    }
    var bytes = [UInt8](repeating: 0, count: count)
    let result = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
    guard result == 1 else { throw CryptoError(call: "RAND_bytes") }
    return bytes
  }

  /// The SHA-256 digest of `bytes` (32 bytes).
  ///
  /// Wraps the one-shot `EVP_Digest` with `EVP_sha256()`. A failure there can
  /// only mean a broken libcrypto, so it stops the process rather than return
  /// a digest that is not one. OpenSSL is loaded first; in a login ``randomBytes(_:)``
  /// has already loaded it (or reported why it could not) before any digest is taken.
  package static func sha256(_ bytes: [UInt8]) -> [UInt8] {
    TLSLibrary.loadOrStop()
    var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    let ok = bytes.withUnsafeBufferPointer { input in
      digest.withUnsafeMutableBufferPointer { output in
        EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha256(), nil)
      }
    }
    precondition(ok == 1 && length == 32, "EVP_Digest(SHA-256) failed")
    return Array(digest.prefix(32))
  }

  /// Whether `a` and `b` hold the same bytes, in time that depends only on their length.
  ///
  /// Wraps `CRYPTO_memcmp`. Lengths are compared first; a length is not a secret here
  /// (state values have a fixed length). Only called after ``randomBytes(_:)`` made the
  /// state, so OpenSSL is already loaded.
  static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    if a.isEmpty { return true }
    TLSLibrary.loadOrStop()
    return a.withUnsafeBytes { left in
      b.withUnsafeBytes { right in CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0 }
    }
  }

  /// Base64url without padding (RFC 4648 §5), as PKCE and `state` use.
  package static func base64URL(_ bytes: [UInt8]) -> String {
    encode(bytes, alphabet: urlAlphabet, pad: false)
  }

  /// Standard base64 with padding (RFC 4648 §4), as HTTP Basic authentication uses.
  package static func base64(_ bytes: [UInt8]) -> String {
    encode(bytes, alphabet: standardAlphabet, pad: true)
  }

  private static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
  private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  private static func encode(_ bytes: [UInt8], alphabet: [UInt8], pad: Bool) -> String {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index + 3 <= bytes.count {
      let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
      for shift in [18, 12, 6, 0] { out.append(alphabet[Int(chunk >> UInt32(shift) & 0x3F)]) }
      index += 3
    }
    let remaining = bytes.count - index
    if remaining > 0 {
      var chunk = UInt32(bytes[index]) << 16
      if remaining == 2 { chunk |= UInt32(bytes[index + 1]) << 8 }
      out.append(alphabet[Int(chunk >> 18 & 0x3F)])
      out.append(alphabet[Int(chunk >> 12 & 0x3F)])
      if remaining == 2 { out.append(alphabet[Int(chunk >> 6 & 0x3F)]) }
      if pad { out.append(contentsOf: Array(repeating: UInt8(ascii: "="), count: 3 - remaining)) }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
