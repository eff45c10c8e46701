/// The account a token belongs to, from `GET /user` (R24).
///
/// `login`, `name` and `email` are already sanitized for a terminal (R83);
/// `rawJSON` is the body as received, for `whoami --json`.
package struct GitHubUser: Sendable, Equatable {
  /// The login, with control characters removed.
  package var login: String
  /// The immutable numeric account id.
  package var id: Int64
  package var name: String?
  package var email: String?
  /// The scopes from `X-OAuth-Scopes`; nil when the header is absent (GitHub App tokens).
  var grantedScopes: [String]?
  /// The `/user` body exactly as received (valid JSON).
  package var rawJSON: [UInt8]
  /// When GitHub says the token stops working (`GitHub-Authentication-Token-Expiration`), in
  /// Unix seconds; nil when the answer did not say (a token that does not expire).
  package var tokenExpiration: Double?

  package init(
    login: String, id: Int64, name: String? = nil, email: String? = nil, grantedScopes: [String]? = nil,
    rawJSON: [UInt8] = []
  ) {
    self.login = login
    self.id = id
    self.name = name
    self.email = email
    self.grantedScopes = grantedScopes
    self.rawJSON = rawJSON
  }

  /// Reads a `/user` body: `login` (string) and `id` (positive integer) are required,
  /// `name` and `email` are optional strings or null.
  ///
  /// Throws the reason as text that never quotes the body.
  package static func parse(_ body: [UInt8], scopesHeader: [String]) throws(GitHubAPIError.Kind) -> GitHubUser {
    let json: JSONValue
    do { json = try JSON.parse(body) } catch {
      throw .malformed("invalid JSON at line \(error.line), column \(error.column)")
    }
    guard let object = json.objectValue else { throw .malformed("the JSON is not an object") }
    guard let rawLogin = object["login"]?.stringValue else { throw .malformed("login is missing or not a string") }
    let login = Sanitize.terminal(rawLogin, maxCharacters: 100)
    guard !login.isEmpty, !login.contains(" ") else { throw .malformed("login is empty or has spaces") }
    guard let id = object["id"]?.intValue, id > 0 else { throw .malformed("id is missing or not a positive integer") }
    func optionalString(_ key: String) throws(GitHubAPIError.Kind) -> String? {
      switch object[key] {
      case nil, .null?: return nil
      case .string(let text)?: return Sanitize.terminal(text)
      default: throw .malformed("\(key) is not a string")
      }
    }
    let scopes = scopesHeader.isEmpty ? nil : scopesHeader.flatMap(ScopeList.split)
    return GitHubUser(
      login: login, id: Int64(id), name: try optionalString("name"), email: try optionalString("email"),
      grantedScopes: scopes, rawJSON: body)
  }
}
