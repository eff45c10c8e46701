import Foundation
import GHLoginTestSupport
import Testing

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// What a finished ghlogin run gave: its exit status and both output streams.
struct RunResult: CustomStringConvertible {
  let status: Int32
  let stdout: String
  let stderr: String

  init(_ tuple: (status: Int32, stdout: String, stderr: String)) {
    status = tuple.status
    stdout = tuple.stdout
    stderr = tuple.stderr
  }

  var description: String { "exit \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
}

/// The default test app's secret (Sandbox.defaultConfig and the fake agree on it).
let testClientSecret = "testsecret-s3cr3t"

/// Runs blocking harness work (waiting for a child, a browser run) on a thread of its own, so
/// that Swift Testing's cooperative pool (one thread per core) keeps starting other tests while
/// this one waits. The body must not use `#expect`/`#require` (it runs outside the test's
/// task); it throws instead.
func offload<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try body() }) }.start()
  }
}

/// A counting semaphore for async code whose release is synchronous (callable from `deinit`).
final class SlotPool: Sendable {
  private let state: TestLock<(free: Int, waiters: [CheckedContinuation<Void, Never>])>

  init(_ slots: Int) { state = TestLock((slots, [])) }

  /// Waits for a free slot.
  func acquire() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let granted = state.withLock { state -> Bool in
        if state.free > 0 {
          state.free -= 1
          return true
        }
        state.waiters.append(continuation)
        return false
      }
      if granted { continuation.resume() }
    }
  }

  /// Hands the slot to the next waiter, or frees it.
  func release() {
    let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
      if state.waiters.isEmpty {
        state.free += 1
        return nil
      }
      return state.waiters.removeFirst()
    }
    next?.resume()
  }
}

/// One end-to-end test's world: its own fake GitHub, a private HOME whose config points at it,
/// and shortcuts to run the built binary there and to drive a browser login.
///
/// At most ``slots`` scenarios live at once (2 cores run them), each holding its slot until it
/// goes away. A test makes at most one (extra fakes it starts with `FakeGitHub.start`).
final class Scenario: @unchecked Sendable {
  let fake: FakeGitHub
  let sandbox: Sandbox

  /// How many scenarios may run at once.
  static let slots = SlotPool(8)

  private init(fake: FakeGitHub, sandbox: Sandbox) {
    self.fake = fake
    self.sandbox = sandbox
  }

  /// Stops the fake on a thread of its own (it takes a few tenths of a second to exit, which
  /// must not hold up one of the test pool's threads), then frees the slot.
  deinit {
    let fake = fake
    Thread {
      fake.stop()
      Scenario.slots.release()
    }.start()
  }

  /// Waits for a slot, starts a fake (`certName`, `fakeArgs`) and writes the default config
  /// with `config` applied.
  static func start(certName: String = "server", fakeArgs: [String] = [], config: [String: any Sendable] = [:])
    async throws -> Scenario
  {
    await slots.acquire()
    do {
      let (fake, sandbox) = try await offload {
        let fake = try FakeGitHub.start(certName: certName, extraArgs: fakeArgs)
        let sandbox = try Sandbox(fake: fake)
        try sandbox.writeConfig(config)
        return (fake, sandbox)
      }
      return Scenario(fake: fake, sandbox: sandbox)
    } catch {
      slots.release()
      throw error
    }
  }

  /// The sandbox environment with `extra` applied.
  func environment(_ extra: [String: String] = [:]) -> [String: String] {
    sandbox.environment(extra)
  }

  /// Runs `ghlogin args` to completion.
  func run(_ args: [String], env extra: [String: String] = [:], stdin: String? = nil, timeout: Double = 30)
    async throws -> RunResult
  {
    let env = environment(extra)
    return try await offload { RunResult(try runGHLogin(args, env: env, stdin: stdin, timeout: timeout)) }
  }

  /// Starts `ghlogin auth --no-browser args` and waits for the authorize URL on stderr.
  func startAuth(_ args: [String] = [], env extra: [String: String] = [:]) async throws -> PendingLogin {
    let env = environment(extra)
    let fake = fake
    return try await offload {
      let child = try startGHLogin(["auth", "--no-browser"] + args, env: env)
      return try PendingLogin(child: child, fake: fake)
    }
  }

  /// A full login for `args`: start auth, let the fake browser approve, wait for the exit.
  func login(_ args: [String] = [], env extra: [String: String] = [:], browserArgs: [String] = []) async throws
    -> (run: RunResult, browser: BrowserResult, pending: PendingLogin)
  {
    let pending = try await startAuth(args, env: extra)
    let browser = try await pending.browse(browserArgs)
    let run = try await pending.finish()
    return (run, browser, pending)
  }

  /// Registers `token` for `login` at the fake and writes a credentials file holding it for
  /// `host` (0600), as a finished login would have.
  func seedLogin(token: String, login: String = "octocat", userID: Int = 1, host: String = "github.test") throws {
    try fake.register(["tokens": [["access_token": token, "login": login, "scopes": "repo,gist"]]])
    try sandbox.writeCredentials([host: (login: login, userID: userID, token: token)])
  }

  /// The token endpoint's requests the fake received.
  func tokenRequests() throws -> [[String: Any]] {
    try fake.requests(path: "/login/oauth/access_token")
  }

  /// The file names in the config directory (to see stray temp files).
  func configDirectoryListing() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: sandbox.configDirectory).sorted()
  }

  /// The permission bits of `path` (`lstat`, not following a link).
  static func mode(of path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o7777
  }
}

extension Sandbox {
  /// Writes `credentials.json` (0600) with one active account per host: host → (login, id, token).
  func writeCredentials(_ accounts: [String: (login: String, userID: Int, token: String)]) throws {
    try CredentialsFile.write(accounts, to: credentialsFile, scopes: ["repo", "gist"])
  }
}

/// A `ghlogin auth --no-browser` waiting for its callback.
struct PendingLogin: @unchecked Sendable {
  let child: ChildProcess
  let fake: FakeGitHub
  /// The authorize URL exactly as printed.
  let url: String
  /// Its query parameters, percent-decoded.
  let query: [String: String]
  /// The listener's port, from `redirect_uri`.
  let port: Int

  /// Waits for the URL line (blocking; call through ``offload(_:)``).
  init(child: ChildProcess, fake: FakeGitHub) throws {
    self.child = child
    self.fake = fake
    url = try child.waitForLine(.stderr, timeout: 20) { $0.hasPrefix("https://") }
    guard let components = URLComponents(string: url) else { throw HarnessError("not a URL: \(url)") }
    var query: [String: String] = [:]
    for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
    self.query = query
    guard let port = query["redirect_uri"].flatMap({ URLComponents(string: $0) })?.port else {
      throw HarnessError("redirect_uri without a port: \(url)")
    }
    self.port = port
  }

  /// Runs the fake browser on the authorize URL with `extraArgs` (see fake_browser.py).
  func browse(_ extraArgs: [String] = []) async throws -> BrowserResult {
    let (url, fake) = (url, fake)
    return try await offload { try runBrowser(url: url, fake: fake, extraArgs: extraArgs) }
  }

  /// Waits for ghlogin to exit.
  func finish(timeout: Double = 30) async throws -> RunResult {
    let child = child
    return try await offload { RunResult(try child.finish(timeout: timeout)) }
  }

  /// Sends raw bytes to the listener and returns what came back (see ``RawHTTP``).
  func raw(_ bytes: [UInt8], timeout: Double = 5) async throws -> RawHTTP.Answer {
    let port = port
    return try await offload { try RawHTTP.exchange(port: port, bytes: bytes, timeout: timeout) }
  }
}

/// `@unchecked`: the report is decoded JSON, never mutated after `runBrowser` returns it.
extension BrowserResult: @unchecked Sendable {}

extension BrowserResult {
  /// The code the fake issued in its redirect (nil when it redirected with an error).
  var issuedCode: String? {
    location.flatMap { URLComponents(string: $0) }?.queryItems?.first { $0.name == "code" }?.value
  }

  /// The named header of the last callback answer.
  func callbackHeader(_ name: String) -> String? {
    callbackHeaders.first { $0.0.lowercased() == name.lowercased() }?.1
  }
}

/// The standard "nothing stored" check: no credentials file (none existed before).
func expectNothingStored(_ scenario: Scenario, sourceLocation: SourceLocation = #_sourceLocation) {
  #expect(scenario.sandbox.credentialsBytes() == nil, "credentials.json was written", sourceLocation: sourceLocation)
}

/// Expects that none of `secrets` occurs in `texts`.
func expectNoSecrets(
  _ secrets: [String], in texts: [String], _ context: String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) {
  for secret in secrets where !secret.isEmpty {
    for text in texts {
      #expect(!text.contains(secret), "secret '\(secret)' leaked \(context): \(text)", sourceLocation: sourceLocation)
    }
  }
}
