// whoami-tool: prints who is logged in to GitHub, logging in with a one-time code first when
// there is no login yet.
//
//   swift run whoami-tool [HOST]
import Foundation
import GHLoginKit
import WhoAmICore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The API through URLSession.
struct URLSessionAPI: APIClient {
  struct Failed: Error, CustomStringConvertible {
    var status: Int
    var description: String { "the API answered \(status)" }
  }

  func get(_ url: String, bearer token: String) async throws -> Data {
    guard let url = URL(string: url) else { throw URLError(.badURL) }
    var request = URLRequest(url: url)
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    request.setValue("application/vnd.github+json", forHTTPHeaderField: "Accept")
    let (data, response) = try await URLSession.shared.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard status == 200 else { throw Failed(status: status) }
    return data
  }
}

do {
  let tool = WhoAmI(github: try GitHubLogin(), api: URLSessionAPI()) { line in
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
  print(try await tool.run(host: CommandLine.arguments.dropFirst().first))
} catch let error as GitHubLoginError {
  FileHandle.standardError.write(Data("whoami-tool: \(error.message)\n".utf8))
  exit(error.exitStatus.rawValue)
} catch {
  FileHandle.standardError.write(Data("whoami-tool: \(error)\n".utf8))
  exit(1)
}
