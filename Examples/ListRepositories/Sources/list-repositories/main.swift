// list-repositories: prints the names of your GitHub repositories, logging in first when
// there is no login yet. Uses only GHLoginKit's public API and Foundation.
//
//   swift run list-repositories [HOST]
import Foundation
import GHLoginKit

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Returns a token for `host`, running a login (browser or one-time code) when there is none.
func token(for host: String?, with github: GitHubLogin) async throws -> AccessToken {
  let token: AccessToken
  do {
    token = try await github.token(host: host)
  } catch let error as GitHubLoginError where error.kind == .notLoggedIn || error.kind == .tokenRejected {
    FileHandle.standardError.write(Data("\(error.message)\nLogging in...\n".utf8))
    let outcome = try await github.login(LoginOptions(host: host)) { event in
      FileHandle.standardError.write(Data((event.description + "\n").utf8))
    }
    token = outcome.token
  }
  return token
}

do {
  let github = try GitHubLogin()
  let token = try await token(for: CommandLine.arguments.dropFirst().first, with: github)
  var request = URLRequest(url: URL(string: token.apiURL + "/user/repos?per_page=100")!)
  request.setValue("Bearer \(token.value)", forHTTPHeaderField: "Authorization")
  request.setValue("application/vnd.github+json", forHTTPHeaderField: "Accept")
  let (data, _) = try await URLSession.shared.data(for: request)
  let repositories = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
  for repository in repositories {
    print(repository["full_name"] as? String ?? "?")
  }
} catch let error as GitHubLoginError {
  FileHandle.standardError.write(Data("list-repositories: \(error.message)\n".utf8))
  exit(error.exitStatus.rawValue)
} catch {
  FileHandle.standardError.write(Data("list-repositories: \(error)\n".utf8))
  exit(ExitStatus(for: error).rawValue)
}
