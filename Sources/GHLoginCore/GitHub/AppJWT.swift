/// The JSON Web Token a GitHub App authenticates with (GitHub docs, "Generating a JSON Web
/// Token (JWT) for a GitHub App"): header `{"alg":"RS256","typ":"JWT"}`, claims `iat` (60
/// seconds in the past, for clock drift), `exp` (540 seconds ahead: the token lives 10 minutes
/// at most, R114) and `iss` (the app's client ID, or its numeric app ID as a number), each part
/// base64url without padding, signed RS256 with the app's private key.
package enum AppJWT {
  /// Seconds `iat` is set before now.
  package static let backdate: Int64 = 60
  /// Seconds `exp` is set after now (`exp - iat` is 600: GitHub's limit of 10 minutes).
  package static let lifetime: Int64 = 540

  /// Whether `app` can be an `iss`: a numeric app ID, or a client ID (`Iv1.…`, `Iv23…`): 1 to
  /// 100 ASCII letters, digits, `.`, `_` and `-`.
  package static func isAppIdentifier(_ app: String) -> Bool {
    let bytes = Array(app.utf8)
    guard (1...100).contains(bytes.count) else { return false }
    return bytes.allSatisfy { byte in
      (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
  }

  /// The signed JWT for `app` at `now` (seconds since the epoch).
  package static func make(app: String, now: Double, key: PrivateKeyBytes) throws(RSASigning.Failure) -> String {
    let seconds = Int64(now.rounded(.down))
    var claims = JSONObject()
    claims.append(key: "iat", value: .number(String(seconds - backdate)))
    claims.append(key: "exp", value: .number(String(seconds + lifetime)))
    let numeric = !app.isEmpty && app.utf8.allSatisfy { (0x30...0x39).contains($0) } && app.utf8.first != 0x30
    claims.append(key: "iss", value: numeric ? .number(app) : .string(app))
    let input =
      Crypto.base64URL(Array(#"{"alg":"RS256","typ":"JWT"}"#.utf8)) + "."
      + Crypto.base64URL(Array(JSON.serialize(.object(claims)).utf8))
    let signature = try RSASigning.signSHA256(Array(input.utf8), key: key)
    return input + "." + Crypto.base64URL(signature)
  }
}
