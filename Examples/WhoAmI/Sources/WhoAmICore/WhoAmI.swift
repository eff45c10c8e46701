import Foundation
import GHLoginKit

/// How the tool calls the GitHub API (URLSession in the tool, a fake in its tests).
public protocol APIClient: Sendable {
  /// The body of `GET url` sent with `Authorization: Bearer token`; throws on a status other than 200.
  func get(_ url: String, bearer token: String) async throws -> Data
}

/// Says who is logged in to GitHub: the stored login's token (refreshed when due), or a login
/// with a one-time code when there is none; then `GET /user` at the token's own API base URL.
public struct WhoAmI: Sendable {
  let github: GitHubLogin
  let api: any APIClient
  let show: @Sendable (String) -> Void

  /// `show` gets each line to print (the one-time code and the page to enter it on).
  public init(github: GitHubLogin, api: any APIClient, show: @escaping @Sendable (String) -> Void) {
    self.github = github
    self.api = api
    self.show = show
  }

  /// The user's login and name, as GitHub says.
  public func run(host: String? = nil) async throws -> String {
    let token = try await token(host: host)
    let body = try await api.get(token.apiURL + "/user", bearer: token.value)
    let user = try JSONDecoder().decode(User.self, from: body)
    return user.name.map { "\(user.login) (\($0))" } ?? user.login
  }

  /// The stored token, or a new one from a device-flow login.
  func token(host: String?) async throws -> AccessToken {
    do {
      return try await github.token(host: host)
    } catch let error as GitHubLoginError where error.kind == .notLoggedIn || error.kind == .tokenRejected {
      let show = self.show
      let options = LoginOptions(host: host, flow: .device)
      return try await github.login(options) { event in event.lines.forEach(show) }.token
    }
  }

  struct User: Decodable {
    var login: String
    var name: String?
  }
}
