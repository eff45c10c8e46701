import Foundation
import Testing

/// R108, T93: a lone `GHLOGIN_CLIENT_SECRET` is never sent with another layer's client ID; every
/// command that loads the config says it is ignored, once.
@Suite struct LoneClientSecretEndToEndTests {
  static let old = "ghu_e2eLONEsecret00000000000000000000001"
  static let oldRefresh = "ghr_e2eLONEsecret000000000000000000000000000000000000000000000000000001"
  static let envSecret = "ENVsecret-must-not-be-sent"
  static let warning =
    "ghlogin: warning: GHLOGIN_CLIENT_SECRET is ignored without GHLOGIN_CLIENT_ID (a secret is only sent with "
    + "the client ID of its own layer); set both variables\n"

  /// An expired web-flow login refreshed by `token`, with `client_id` from the user's file and
  /// the secret only in the environment: the refresh carries the file's own secret (or none),
  /// never the environment's, and the warning is printed once.
  @Test(arguments: [true, false])
  func anExpiredLoginIsRefreshedWithoutTheEnvironmentsSecret(fileHasSecret: Bool) throws {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig(fileHasSecret ? [:] : ["client_secret": NSNull()])
    try fake.registerExpiringPair(access: Self.old, refresh: Self.oldRefresh, expiresIn: 60)
    try sandbox.writeCredentials([expiringAccount(token: Self.old, refresh: Self.oldRefresh, expiresIn: -10)])
    let run = try runGHLogin(["token"], env: sandbox.environment(["GHLOGIN_CLIENT_SECRET": Self.envSecret]))
    let refresh = try #require(try fake.requests(path: "/login/oauth/access_token").first)
    #expect(refresh.formValue("client_id") == "Iv1.testclient")
    #expect(refresh.formValue("client_secret") == (fileHasSecret ? "testsecret-s3cr3t" : nil))
    #expect(!String(describing: try fake.requests()).contains(Self.envSecret))
    #expect(run.stderr.hasPrefix(Self.warning), "\(run.stderr)")
    #expect(run.stderr.components(separatedBy: "GHLOGIN_CLIENT_SECRET is ignored").count == 2, "one warning")
    if fileHasSecret {
      #expect(run.status == 0, "\(run.stderr)")
      #expect(run.stderr == Self.warning)
      #expect(run.stdout.hasPrefix("ghu_") && run.stdout != Self.old + "\n")
    }
  }

  /// The warning on a command that sends nothing, and `help config` says the variable is not used.
  @Test func everyCommandWarnsAndHelpConfigShowsItUnused() throws {
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    let env = sandbox.environment(["GHLOGIN_CLIENT_SECRET": Self.envSecret])
    let status = try runGHLogin(["status"], env: env)
    #expect(status.stderr.hasPrefix(Self.warning), "\(status.stderr)")
    let help = try runGHLogin(["help", "config"], env: env)
    #expect(help.status == 0)
    #expect(
      help.stdout.contains(
        "GHLOGIN_CLIENT_SECRET  environment (not used: a higher layer sets it, or its client_id is another layer's)"),
      "\(help.stdout)")
    #expect(!help.stdout.contains(Self.envSecret))
    // With both variables, the pair is used and nothing is said.
    let both = try runGHLogin(
      ["status"], env: sandbox.environment(["GHLOGIN_CLIENT_ID": "Iv1.env", "GHLOGIN_CLIENT_SECRET": "x"]))
    #expect(!both.stderr.contains("GHLOGIN_CLIENT_SECRET"), "\(both.stderr)")
  }
}
