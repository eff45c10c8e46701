/// GitHub's `X-GitHub-SSO` response header: an organisation's SAML single sign-on is in the way.
///
/// - `required; url=URL` (with a 403): the token must be authorised for that organisation's
///   SSO; URL is where the user does it.
/// - `partial-results; organizations=ID,ID`: a list (such as `GET /user/orgs`) left out the
///   organisations the token is not authorised for.
enum SSOHeader: Sendable, Equatable {
  case required(url: String?)
  case partialResults(organizations: [Int64])

  /// The header's name.
  package static let name = "X-GitHub-SSO"

  /// The header's meaning, nil for anything else. `url` is kept only when ``safeURL(_:host:)``
  /// accepts it.
  package static func parse(_ value: String, host: GitHubHost) -> SSOHeader? {
    let parts = value.split(separator: ";", maxSplits: 1).map { $0.trimmingASCIIWhitespace() }
    guard let kind = parts.first?.lowercased() else { return nil }
    let parameter = parts.count > 1 ? parts[1] : ""
    switch kind {
    case "required":
      guard parameter.lowercased().hasPrefix("url=") else { return .required(url: nil) }
      return .required(url: safeURL(String(parameter.dropFirst(4)), host: host))
    case "partial-results":
      guard parameter.lowercased().hasPrefix("organizations=") else { return nil }
      let list = parameter.dropFirst("organizations=".count)
      var ids: [Int64] = []
      for item in list.split(separator: ",") {
        guard let id = Int64(item.trimmingASCIIWhitespace()), id > 0 else { return nil }
        ids.append(id)
      }
      return .partialResults(organizations: ids)
    default:
      return nil
    }
  }

  /// `text` when it is an `https://` URL on `host`'s name (any port: GitHub's web host), of
  /// printable ASCII and at most 2000 characters; nil otherwise (then no URL is shown).
  static func safeURL(_ text: String, host: GitHubHost) -> String? {
    guard text.utf8.count <= 2000, text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
      let url = try? WebURL(parsing: text), url.scheme == .https, url.host.lowercased() == host.hostname
    else { return nil }
    return text
  }

  /// The sentence shown with a `required` answer: what to do, with the URL when there is one.
  package static func advice(url: String?, host: GitHubHost) -> String {
    guard let url else {
      return "this token must be authorised for an organisation's SAML single sign-on: authorise it on "
        + "https://\(host.name)/settings/tokens (Configure SSO) or in the app's settings, then try again"
    }
    return "this token must be authorised for an organisation's SAML single sign-on: open \(url) in a "
      + "browser, authorise it, then try again"
  }
}
