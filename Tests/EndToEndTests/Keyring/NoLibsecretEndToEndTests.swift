import Foundation
import Testing

/// A machine without libsecret: the loader finds a `libsecret-1.so.0` it cannot load (not an
/// ELF file, first on `LD_LIBRARY_PATH`), as `dlopen` fails where the package is not installed.
/// No keyring daemon is needed. Both paths that reach the keyring say it is not available, that
/// libsecret is what is missing and how to install it, and change nothing: a login to the keyring (stopped before the browser step) and `token` for an
/// account kept there. Until this test, both ended with a segmentation fault (the C loader
/// freed its empty results with a `g_free` it had never loaded).
@Suite struct NoLibsecretEndToEndTests {
  @Test func withoutLibsecretTheKeyringIsNotAvailableAndNothingCrashes() throws {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig(["store": "keyring"])
    let libraries = sandbox.home + "/no-libsecret"
    try FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: false)
    try Data("not a shared library\n".utf8).write(to: URL(fileURLWithPath: libraries + "/libsecret-1.so.0"))
    let env = sandbox.environment(["LD_LIBRARY_PATH": libraries])

    let auth = try runGHLogin(["auth", "--no-browser"], env: env)
    #expect(auth.status == 1, "\(auth)")
    #expect(
      auth.stderr.hasPrefix("ghlogin: the keyring (Secret Service) is not available: libsecret could not be loaded (")
        && auth.stderr.contains("libsecret-1.so.0"), "\(auth.stderr)")
    // The way out is installing the library, not starting a keyring daemon.
    #expect(auth.stderr.contains("Install it (Debian, Ubuntu: 'sudo apt install libsecret-1-0'"), "\(auth.stderr)")
    #expect(!auth.stderr.contains("Start a keyring"), "\(auth.stderr)")
    #expect(!auth.stderr.contains("https://"), "the login went on to the browser step: \(auth.stderr)")
    #expect(auth.stdout.isEmpty)
    #expect(sandbox.credentialsBytes() == nil)

    try sandbox.writeCredentials([["login": "octocat", "store": "keyring"]])
    let before = sandbox.credentialsBytes()
    let token = try runGHLogin(["token"], env: env)
    #expect(token.status == 1, "\(token)")
    #expect(token.stdout.isEmpty)
    #expect(token.stderr.contains("is not available: libsecret could not be loaded"), "\(token.stderr)")
    #expect(sandbox.credentialsBytes() == before)
  }
}
