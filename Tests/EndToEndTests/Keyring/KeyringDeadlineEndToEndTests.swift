import Foundation
import Testing

/// Issue 29 §5 against a real gnome-keyring-daemon: a locked keyring never hangs a command.
/// A single `token` on a freshly locked collection, and twelve at once with the collection
/// locked once the first has ended, all end within a few seconds with exit 0 (before the lock)
/// or exit 1 and the locked message; so do the helpers, which never wait on an unlock prompt.
@Suite(.enabled(if: KeyringSession.isAvailable, Comment(rawValue: KeyringSession.unavailableReason ?? "")))
struct KeyringDeadlineEndToEndTests {
  static let token = "gho_keyringDeadline0123456789abcdefgh"
  static let locked = "ghlogin: the keyring (Secret Service) is locked"
  /// How long any one command may take (a few seconds, with room for a loaded machine).
  static let limit = 15.0

  let fake: FakeGitHub
  let sandbox: Sandbox
  let keyring: KeyringSession

  init() throws {
    fake = try FakeGitHub.start()
    sandbox = try Sandbox(fake: fake)
    keyring = try KeyringSession()
    try sandbox.writeConfig(["store": "keyring"])
    try fake.register(["tokens": [["access_token": Self.token, "login": "octocat", "scopes": "repo"]]])
    let login = try runGHLogin(
      ["auth", "--with-token"], env: sandbox.environment(keyring.environment), stdin: Self.token + "\n", timeout: 60)
    #expect(login.status == 0, "\(login.stderr)")
  }

  var env: [String: String] { sandbox.environment(keyring.environment) }

  func timed(_ args: [String], stdin: String = "") throws -> (
    status: Int32, stdout: String, stderr: String, seconds: Double
  ) {
    let start = Date()
    let run = try runGHLogin(args, env: env, stdin: stdin, timeout: 120)
    return (run.status, run.stdout, run.stderr, Date().timeIntervalSince(start))
  }

  /// One command at a time on a freshly locked collection, then again (a prompt may be pending).
  @Test func aSingleCommandOnALockedKeyringEndsAtOnce() throws {
    try keyring.lock()
    for _ in 0..<2 {
      for args in [["token"], ["git-credential", "get"]] {
        let run = try timed(args, stdin: "protocol=https\nhost=github.test\n\n")
        #expect(run.seconds < Self.limit, "\(args) took \(run.seconds) s")
        #expect(run.stdout == "", "\(args)")
        #expect(run.status == 1, "\(args) \(run.stderr)")
        #expect(run.stderr.hasPrefix(Self.locked), "\(args) \(run.stderr)")
      }
    }
  }

  /// A Secret Service that does not answer (the daemon stopped): `token` and the helpers end
  /// after the 5 s deadline with exit 1 and the message, nothing on stdout; twelve at once too.
  @Test func anUnansweringKeyringEndsEveryCommandAfterItsDeadline() throws {
    keyring.pause()
    defer { keyring.resume() }
    let unavailable =
      "ghlogin: the keyring (Secret Service) is not available: the Secret Service did not answer within 5 s. "
    for args in [["token"], ["git-credential", "get"], ["goauth", "https://github.test/x"]] {
      let run = try timed(args, stdin: "protocol=https\nhost=github.test\n\n")
      #expect(run.seconds >= 4.5 && run.seconds < Self.limit, "\(args) took \(run.seconds) s")
      #expect(run.stdout == "", "\(args)")
      if args[0] == "goauth" { continue }  // go's helper says nothing on failure but its own line
      #expect(run.status == 1, "\(args) \(run.stderr)")
      #expect(run.stderr.hasPrefix(unavailable), "\(args) \(run.stderr)")
    }
    let start = Date()
    let children = try (0..<12).map { _ in try startGHLogin(["token"], env: env, stdin: "") }
    let results = try children.map { try $0.finish(timeout: 120) }
    #expect(Date().timeIntervalSince(start) < Self.limit + 5, "took \(Date().timeIntervalSince(start)) s")
    for result in results {
      #expect(result.status == 1, "\(result.stderr)")
      #expect(result.stdout == "")
      #expect(result.stderr.hasPrefix(unavailable), "\(result.stderr)")
    }
  }

  /// Twelve `token` at once with the collection locked as soon as the first has ended, then one
  /// `token` and one `git-credential get`: each ends within the limit with its token or the
  /// locked message, and the one that ended before the lock has its token.
  @Test func twelveConcurrentTokensWithALockInBetweenAllEnd() throws {
    let start = Date()
    let children = try (0..<12).map { _ in try startGHLogin(["token"], env: env, stdin: "") }
    // Lock once one child has ended, while the rest are on their way (issue 32 §2: the children's
    // own progress, not a fixed 30 ms that a loaded machine may spend before any has started).
    let deadline = Date(timeIntervalSinceNow: 60)
    while !children.contains(where: \.hasExited) && Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
    let firstDone = children.firstIndex(where: \.hasExited)
    try keyring.lock()
    let results = try children.map { try $0.finish(timeout: 120) }
    #expect(Date().timeIntervalSince(start) < Self.limit + 5, "took \(Date().timeIntervalSince(start)) s")
    let first = try #require(firstDone, "no token ended within 60 s")
    #expect(results[first].status == 0, "ended before the lock: \(results[first].stderr)")
    for result in results {
      if result.status == 0 {
        #expect(result.stdout == Self.token + "\n")
      } else {
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix(Self.locked), "\(result.stderr)")
      }
    }
    for args in [["token"], ["git-credential", "get"]] {
      let run = try timed(args, stdin: "protocol=https\nhost=github.test\n\n")
      #expect(run.seconds < Self.limit, "\(args) took \(run.seconds) s")
      #expect(run.status == 1, "\(args) \(run.stderr)")
      #expect(run.stderr.hasPrefix(Self.locked), "\(args) \(run.stderr)")
    }
  }
}
