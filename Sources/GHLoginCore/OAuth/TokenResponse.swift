/// A successful token endpoint answer (RFC 6749 §5.1), validated (R27–R30).
///
/// `description` hides both tokens, so the value is safe in logs and test failures.
package struct TokenResponse: Sendable, Equatable, CustomStringConvertible {
  /// The access token, opaque (R30): 1–4096 visible ASCII characters other than `=`.
  package var accessToken: String
  /// Always `bearer` (compared case-insensitively, stored lowercase).
  var tokenType: String
  /// The granted scopes (GitHub sends `repo,gist`); empty for GitHub App tokens.
  package var scopes: [String]
  /// Seconds until the access token expires, for expiring GitHub App user tokens.
  package var expiresIn: Int?
  /// The refresh token of an expiring GitHub App user token.
  package var refreshToken: String?
  /// Seconds until the refresh token expires.
  package var refreshTokenExpiresIn: Int?

  package init(
    accessToken: String, tokenType: String = "bearer", scopes: [String] = [], expiresIn: Int? = nil,
    refreshToken: String? = nil, refreshTokenExpiresIn: Int? = nil
  ) {
    self.accessToken = accessToken
    self.tokenType = tokenType
    self.scopes = scopes
    self.expiresIn = expiresIn
    self.refreshToken = refreshToken
    self.refreshTokenExpiresIn = refreshTokenExpiresIn
  }

  package var description: String {
    "TokenResponse(accessToken: <redacted>, tokenType: \(tokenType), scopes: \(scopes), expiresIn: "
      + "\(expiresIn.map(String.init) ?? "nil"), refreshToken: \(refreshToken == nil ? "nil" : "<redacted>"), "
      + "refreshTokenExpiresIn: \(refreshTokenExpiresIn.map(String.init) ?? "nil"))"
  }

  /// Reads a token endpoint's `response` (R27–R30).
  ///
  /// The body is decoded by `Content-Type`: JSON or `application/x-www-form-urlencoded`;
  /// anything else is refused. Any `error` member makes it a failure whatever the
  /// status; a 3xx is refused unread; a non-2xx without `error` is an HTTP error.
  package static func parse(
    _ response: HTTPResponse, host: GitHubHost, endpoint: WebURL
  ) throws(TokenError) -> TokenResponse {
    func fail(_ kind: TokenError.Kind) -> TokenError {
      TokenError(kind, host: host, endpoint: endpoint)
    }
    if (300...399).contains(response.status) { throw fail(.redirect(response.status)) }
    let fields: TokenFields
    do { fields = try TokenFields(response) } catch {
      if !(200...299).contains(response.status) { throw fail(.httpStatus(response.status)) }
      throw fail(error.kind)
    }
    if let code = fields.errorCode {
      throw fail(
        .oauth(
          OAuthErrorBody(
            code: code, description: fields.string("error_description"), uri: fields.string("error_uri"),
            interval: fields.seconds("interval", max: ServerDuration.maxPollInterval))))
    }
    guard (200...299).contains(response.status) else { throw fail(.httpStatus(response.status)) }

    guard fields.has("access_token") else { throw fail(.missingField("access_token")) }
    guard let accessToken = fields.string("access_token"), BearerToken.isUsable(accessToken) else {
      throw fail(.invalidValue(field: "access_token"))
    }
    guard fields.has("token_type") else { throw fail(.missingField("token_type")) }
    guard let tokenType = fields.string("token_type") else { throw fail(.invalidValue(field: "token_type")) }
    guard tokenType.lowercased() == "bearer" else { throw fail(.unsupportedTokenType(tokenType)) }

    var result = TokenResponse(accessToken: accessToken)
    if fields.has("scope") {
      guard let scope = fields.string("scope") else { throw fail(.invalidValue(field: "scope")) }
      result.scopes = ScopeList.split(scope)
    }
    if fields.has("refresh_token") {
      guard let refresh = fields.string("refresh_token"), BearerToken.isUsable(refresh) else {
        throw fail(.invalidValue(field: "refresh_token"))
      }
      result.refreshToken = refresh
    }
    for (name, keyPath) in [
      ("expires_in", \TokenResponse.expiresIn), ("refresh_token_expires_in", \.refreshTokenExpiresIn),
    ]
    where fields.has(name) {
      // Clamped to ten years (R89, ``ServerDuration``): 2^63 used to trap in every later sum.
      guard let seconds = fields.seconds(name, max: ServerDuration.maxTokenLifetime) else {
        throw fail(.invalidValue(field: name))
      }
      result[keyPath: keyPath] = seconds
    }
    return result
  }
}

/// The members of a token endpoint body, decoded from JSON or form data.
///
/// JSON strings and numbers become text (numbers as their literal); `null`
/// counts as absent (except for `error`, whose mere presence is a failure);
/// booleans, arrays and objects are kept as unusable values.
struct TokenFields {
  private enum Value {
    case text(String)
    case number(String)
    case unusable
  }
  private var values: [String: Value] = [:]

  /// Why the body could not be decoded.
  package struct Failure: Error {
    package var kind: TokenError.Kind
  }

  /// Decodes `response.body` according to its media type.
  package init(_ response: HTTPResponse) throws(Failure) {
    switch response.mediaType {
    case "application/json":
      let json: JSONValue
      do { json = try JSON.parse(response.body) } catch {
        throw Failure(kind: .malformed("invalid JSON at line \(error.line), column \(error.column)"))
      }
      guard let object = json.objectValue else { throw Failure(kind: .malformed("the JSON is not an object")) }
      for (key, value) in object.entries {
        switch value {
        case .null where key != "error": continue
        case .string(let text): values[key] = .text(text)
        case .number(let text): values[key] = .number(text)
        default: values[key] = .unusable
        }
      }
    case "application/x-www-form-urlencoded":
      let pairs: [(name: String, value: String)]
      guard let text = String(validating: response.body, as: UTF8.self) else {
        throw Failure(kind: .malformed("invalid UTF-8"))
      }
      do { pairs = try FormEncoding.decode(Substring(text)) } catch {
        throw Failure(kind: .malformed("invalid form encoding"))
      }
      for pair in pairs {
        guard values.updateValue(.text(pair.value), forKey: pair.name) == nil else {
          throw Failure(kind: .malformed("a member is repeated"))
        }
      }
    case let other:
      throw Failure(kind: .unsupportedContentType(other))
    }
  }

  package func has(_ name: String) -> Bool { values[name] != nil }

  /// The member as a string; nil for numbers and unusable values.
  package func string(_ name: String) -> String? {
    if case .text(let text)? = values[name] { return text }
    return nil
  }

  /// The member as whole seconds clamped to `max` (R89), from a JSON integer or a string of ASCII
  /// digits of any length; nil when it is anything else (negative, a fraction, not a number).
  package func seconds(_ name: String, max: Int) -> Int? {
    switch values[name] {
    case .number(let text)?, .text(let text)?: return ServerDuration.clamped(text, to: max)
    default: return nil
    }
  }

  /// The `error` member: its string, or a placeholder when it is present but not a string.
  var errorCode: String? {
    switch values["error"] {
    case nil: return nil
    case .text(let text)?: return text.isEmpty ? "(empty)" : text
    default: return "(not a string)"
    }
  }
}
