import Foundation
import GHLoginTestSupport

/// A real RFC 6749 / RFC 7009 server: django-oauth-toolkit (`Tests/OAuthServer/server.py`) on
/// plain HTTP at 127.0.0.1, run by the Python of `scripts/test-tools.sh`'s virtual environment.
///
/// One server serves the whole test process (``shared``): its sqlite migration takes seconds, so
/// it runs once. It exits when its stdin closes, so it never outlives the tests.
final class OAuthToolkitServer: @unchecked Sendable {
  let port: Int
  let clientID: String
  let clientSecret: String
  /// A public Application's client ID (no secret: it sends `client_id` in the body).
  let publicClientID: String
  /// A Django session cookie logged in as octocat (the Application skips the consent page).
  let session: String
  private let child: ChildProcess
  private let directory: TemporaryDirectory

  /// `http://127.0.0.1:PORT`.
  var base: String { "http://127.0.0.1:\(port)" }
  /// The host ghlogin stores the login under.
  var host: String { "127.0.0.1:\(port)" }

  /// The venv's Python (`$GHLOGIN_TEST_TOOLS`, else `$XDG_CACHE_HOME/ghlogin-test-tools`, else
  /// `~/.cache/ghlogin-test-tools`: scripts/test-tools.sh's directory), when it has django-oauth-toolkit.
  static let python: String? = {
    let environment = ProcessInfo.processInfo.environment
    let cache =
      environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
    let tools = environment["GHLOGIN_TEST_TOOLS"].flatMap { $0.isEmpty ? nil : $0 } ?? cache + "/ghlogin-test-tools"
    let python = tools + "/bin/python"
    guard FileManager.default.isExecutableFile(atPath: python) else { return nil }
    let packages = (try? FileManager.default.contentsOfDirectory(atPath: tools + "/lib")) ?? []
    let installed = packages.contains { version in
      FileManager.default.fileExists(atPath: "\(tools)/lib/\(version)/site-packages/oauth2_provider/__init__.py")
    }
    return installed ? python : nil
  }()

  /// Why these tests cannot run here, or nil. Under CI (`CI` set) the server is required: the
  /// tests then run and fail rather than being skipped.
  static let unavailableReason: String? = {
    guard python == nil else { return nil }
    if !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty { return nil }
    return "django-oauth-toolkit tests skipped: run scripts/test-tools.sh to install it"
  }()

  static var isAvailable: Bool { unavailableReason == nil }

  /// The server of this test process, started (and migrated) on first use.
  static let shared: Result<OAuthToolkitServer, any Error> = Result { try OAuthToolkitServer() }

  private init() throws {
    guard let python = Self.python else {
      throw HarnessError("django-oauth-toolkit is not installed (run scripts/test-tools.sh)")
    }
    directory = try TemporaryDirectory(prefix: "ghlogin-dot")
    child = try ChildProcess(
      executable: python, arguments: [HarnessPaths.packageRoot + "/Tests/OAuthServer/server.py", directory.path])
    let line = try child.waitForLine(.stdout, timeout: 120) { $0.hasPrefix("{") }
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let port = object["port"] as? Int, let clientID = object["client_id"] as? String,
      let clientSecret = object["client_secret"] as? String, let session = object["session"] as? String,
      let publicClientID = object["public_client_id"] as? String
    else { throw HarnessError("server.py printed an unexpected first line: \(line) \(child.text(.stderr))") }
    self.port = port
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.publicClientID = publicClientID
    self.session = session
  }

  deinit {
    child.closeStdin()
    _ = try? child.finish(timeout: 3)
  }

  /// The ghlogin config for this server; with `revocation` its RFC 7009 endpoint; with `publicClient`
  /// the public Application (no client secret).
  func config(revocation: Bool, publicClient: Bool = false) -> [String: Any] {
    var config: [String: Any] = [
      "host": host, "client_id": publicClient ? publicClientID : clientID, "scopes": ["read"],
      "authorize_url": base + "/o/authorize/", "token_url": base + "/o/token/", "api_url": base + "/api",
    ]
    if !publicClient { config["client_secret"] = clientSecret }
    if revocation { config["revocation_url"] = base + "/o/revoke_token/" }
    return config
  }

  /// Runs `Tests/OAuthServer/client.py ARGUMENTS` and returns its JSON line.
  func client(_ arguments: [String]) throws -> [String: Any] {
    guard let python = Self.python else { throw HarnessError("django-oauth-toolkit is not installed") }
    let run = try ChildProcess(
      executable: python, arguments: [HarnessPaths.packageRoot + "/Tests/OAuthServer/client.py"] + arguments,
      stdin: ""
    ).finish(timeout: 30)
    guard run.status == 0, let object = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    else { throw HarnessError("client.py \(arguments.first ?? "") failed: \(run.stdout) \(run.stderr)") }
    return object
  }

  /// The browser's part: the authorize URL with the logged-in session, then the loopback callback.
  func approve(_ url: String) throws -> [String: Any] { try client(["browse", url, session]) }

  /// The status `GET /api/user` answers for `token`.
  func userStatus(_ token: String) throws -> Int? { try client(["user", base, token])["status"] as? Int }

  /// The status and OAuth error of a refresh with `refreshToken` (as the public client with `publicClient`).
  func refresh(_ refreshToken: String, publicClient: Bool = false) throws -> (status: Int?, error: String?) {
    let answer = try client(
      publicClient
        ? ["refresh", base, publicClientID, "", refreshToken] : ["refresh", base, clientID, clientSecret, refreshToken])
    return (answer["status"] as? Int, answer["error"] as? String)
  }

  /// RFC 7662 introspection's `active` for `token`.
  func isActive(_ token: String) throws -> Bool? {
    try client(["introspect", base, clientID, clientSecret, token])["active"] as? Bool
  }

  /// What `/o/` and `/api/` received since the last ``clearLog()``.
  func log() throws -> [[String: Any]] {
    let (data, _) = try rawGET(base + "/control/log")
    return (try JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
  }

  /// Empties the log.
  func clearLog() throws { _ = try rawPOST(base + "/control/log") }

  private func rawGET(_ url: String) throws -> (Data, Int) {
    let answer = try client(["raw", "GET", url])
    return (Data(((answer["body"] as? String) ?? "").utf8), answer["status"] as? Int ?? 0)
  }

  private func rawPOST(_ url: String) throws -> Int {
    try client(["raw", "POST", url])["status"] as? Int ?? 0
  }
}
