import Foundation
import GHLoginTestSupport
import Testing

/// Issue 29 §5: a top-level app (the config's, the system file's, the environment's
/// `GHLOGIN_CLIENT_ID`/`GHLOGIN_CLIENT_SECRET` pair) serves the default host only; another host
/// without its own `hosts.HOST` app has none, so its token endpoint never gets the default
/// host's secret.
@Suite struct TopLevelAppEndToEndTests {
  static let old = "ghu_e2eTOPLEVELapp0000000000000000000001"
  static let oldRefresh = "ghr_e2eTOPLEVELapp00000000000000000000000000000000000000000000000000001"
  static let envSecret = "ENVsecret-of-the-default-host"

  static func missing(_ other: String, file: String) -> String {
    """
    ghlogin: no OAuth client_id is configured for \(other) (the top-level client_id, GHLOGIN_CLIENT_ID and the \
    built-in app are github.test's only: an OAuth app exists on one GitHub host).
    Register an OAuth app at https://\(other)/settings/applications/new with the callback URL
    http://127.0.0.1/callback. The browser flow also needs the app's client secret; the device flow
    needs "Enable Device Flow" ticked in the app's settings. Then run:
      ghlogin config set --host \(other) client_id YOUR_CLIENT_ID
      ghlogin config set --host \(other) client_secret -
    (the second reads the secret from stdin). They are written to \(file).
    GHLOGIN_CLIENT_ID and GHLOGIN_CLIENT_SECRET work too. More: ghlogin help config

    """
  }

  /// `auth --host OTHER` with the default host's app at the top level, or in the environment:
  /// exit 2 with the `config set --host OTHER client_id` line; nothing sent, nothing stored.
  @Test(arguments: [false, true])
  func anotherHostGetsNoTopLevelApp(fromEnvironment: Bool) async throws {
    let scenario = try await Scenario.start()
    let other = "ghe.test:\(scenario.fake.port)"
    var env: [String: String] = [:]
    if fromEnvironment {
      env = ["GHLOGIN_CLIENT_ID": "Iv1.envclient", "GHLOGIN_CLIENT_SECRET": Self.envSecret]
    }
    let run = try await scenario.run(["auth", "--no-browser", "--host", other], env: env)
    #expect(run.status == 2, "\(run)")
    #expect(run.stdout == "")
    #expect(run.stderr == Self.missing(other, file: scenario.sandbox.configFile), "\(run)")
    #expect(try scenario.fake.log().isEmpty, "nothing reached any host")
    expectNothingStored(scenario)
  }

  /// An expired login on another host, made with the top-level app's client ID: its refresh
  /// token is not sent with the default host's app (nor its secret); the config's block for
  /// that host is warned about, with the line that moves the app.
  @Test func anExpiredLoginOnAnotherHostIsNotRefreshedWithTheDefaultHostsApp() async throws {
    let scenario = try await Scenario.start()
    let other = "ghe.test:\(scenario.fake.port)"
    try scenario.sandbox.writeConfig(["hosts": [other: ["scopes": ["repo"]]]])
    try scenario.fake.registerExpiringPair(access: Self.old, refresh: Self.oldRefresh, expiresIn: 60)
    var account = expiringAccount(token: Self.old, refresh: Self.oldRefresh, expiresIn: -10)
    account["client_id"] = "Iv1.testclient"
    try scenario.sandbox.writeCredentials(host: other, [account])
    let before = scenario.sandbox.credentialsBytes()
    let run = try await scenario.run(["token", "--host", other])
    #expect(run.status == 2, "\(run)")
    #expect(run.stdout == "")
    #expect(
      run.stderr.hasPrefix(
        "ghlogin: warning: \(scenario.sandbox.configFile): the top-level client_id is the app of github.test only "
          + "(an OAuth app exists on one GitHub host), so \(other) no longer uses it; if the app is \(other)'s too, "
          + "run 'ghlogin config set --host \(other) client_id Iv1.testclient'\n"
          + "ghlogin: the token for \(other) has expired and cannot be refreshed: no client_id is configured for "
          + "\(other)."), "\(run)")
    #expect(try scenario.tokenRequests().isEmpty, "no refresh with another host's app")
    #expect(scenario.sandbox.credentialsBytes() == before)
  }
}
