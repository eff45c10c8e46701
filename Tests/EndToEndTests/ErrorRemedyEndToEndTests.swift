import Foundation
import GHLoginTestSupport
import Testing

/// Issue 29 §2: errors that say what to do. A client ID the server refuses during a login
/// (GitHub's and RFC 6749's codes) is exit 2 naming `client_id`, its layer and the fix, while a
/// refresh keeps its status; the browser flow's wait says what to do about an error page; a
/// network failure names a key only when a layer set it; a 403 off GitHub may be a revoked
/// token; logout names the `revocation_url` line and the account active now; `--help` lists the
/// helpers; `auth --web` without a display offers paste-back.
@Suite struct ErrorRemedyEndToEndTests {
  static let token = "gho_errorRemedyToken00000000000000000001"

  // MARK: - A client ID the server refuses

  /// RFC 6749's `unauthorized_client` (django-oauth-toolkit's answer) to the device-code request.
  @Test func unauthorizedClientAtTheDeviceCodeRequest() async throws {
    let scenario = try await Scenario.start()
    try scenario.fake.script([
      "responses": [
        "device_code": [
          [
            "kind": "oauth_error", "error": "unauthorized_client", "status": 401,
            "error_description": "Client not allowed the device grant.",
          ]
        ]
      ]
    ])
    let run = try await scenario.run(["auth", "--device"])
    #expect(run.status == 2, "\(run)")
    #expect(run.stdout == "")
    #expect(
      run.stderr.hasSuffix(
        "ghlogin: github.test refused the login's app (error 'unauthorized_client': Client not allowed the device "
          + "grant.): client_id Iv1.testclient from \(scenario.sandbox.configFile); set your app's client ID: "
          + "'ghlogin config set client_id ID'; for the device flow, tick \"Enable Device Flow\" on the app's page "
          + "(https://github.test/settings/developers), or log in with the browser: "
          + "'ghlogin auth --host github.test --web'\n"), "\(run)")
    expectNothingStored(scenario)
  }

  /// GitHub's `incorrect_client_credentials` for an unknown client ID names the secret too.
  @Test func anUnknownClientIDAtTheDeviceCodeRequest() async throws {
    let scenario = try await Scenario.start(config: ["client_id": "Iv1.notanapp", "client_secret": NSNull()])
    let run = try await scenario.run(["auth", "--device"])
    #expect(run.status == 2, "\(run)")
    #expect(
      run.stderr.contains(
        "ghlogin: github.test refused the login's app (error 'incorrect_client_credentials'"), "\(run)")
    #expect(
      run.stderr.contains(
        "client_id Iv1.notanapp (and its client_secret) from \(scenario.sandbox.configFile); set your app's "
          + "client ID: 'ghlogin config set client_id ID'; for the device flow"), "\(run)")
    expectNothingStored(scenario)
  }

  /// `device_flow_disabled` on a poll, with the client ID from the environment.
  @Test func deviceFlowDisabledOnAPollNamesTheEnvironment() async throws {
    let scenario = try await Scenario.start()
    try scenario.fake.script(["device": ["interval": 1], "responses": ["device_poll": ["device_flow_disabled"]]])
    let run = try await scenario.run(["auth", "--device"], env: ["GHLOGIN_CLIENT_ID": "Iv1.testclient"])
    #expect(run.status == 2, "\(run)")
    #expect(
      run.stderr.hasSuffix(
        "ghlogin: github.test refused the login's app (error 'device_flow_disabled'): client_id Iv1.testclient "
          + "from GHLOGIN_CLIENT_ID; set GHLOGIN_CLIENT_ID to your app's client ID (or unset it and run "
          + "'ghlogin config set client_id ID'); for the device flow, tick \"Enable Device Flow\" on the app's "
          + "page (https://github.test/settings/developers), or log in with the browser: "
          + "'ghlogin auth --host github.test --web'\n"), "\(run)")
    expectNothingStored(scenario)
  }

  /// `invalid_client` (HTTP 401) from the code exchange of the browser flow; the waiting line
  /// said once what to do about an error page in the browser.
  @Test func invalidClientAtTheCodeExchange() async throws {
    let scenario = try await Scenario.start()
    try scenario.fake.script([
      "responses": [
        "token": [
          [
            "kind": "oauth_error", "error": "invalid_client", "status": 401,
            "error_description": "Client authentication failed.",
          ]
        ]
      ]
    ])
    let (run, _, _) = try await scenario.login()
    #expect(run.status == 2, "\(run)")
    #expect(
      run.stderr.hasSuffix(
        "ghlogin: github.test refused the login's app (error 'invalid_client': Client authentication failed.): "
          + "client_id Iv1.testclient from \(scenario.sandbox.configFile); set your app's client ID: "
          + "'ghlogin config set client_id ID'\n"), "\(run)")
    let hint =
      "If the browser shows an error about the app or its callback URL, press Ctrl-C and check "
      + "'ghlogin config get client_id'.\n"
    #expect(run.stderr.contains("(Ctrl-C to cancel)...\n" + hint), "\(run)")
    #expect(run.stderr.components(separatedBy: hint).count == 2)
    expectNothingStored(scenario)
  }

  /// A refresh refused with `invalid_client` keeps the refresh's own status: not 2.
  @Test func aRefreshKeepsItsExitStatus() async throws {
    let scenario = try await Scenario.start()
    let access = "ghu_errorRemedyAccess00000000000000000001"
    let refresh = "ghr_errorRemedyRefresh0000000000000000000000000000000000000000000000001"
    try scenario.fake.registerExpiringPair(access: access, refresh: refresh, expiresIn: 28800)
    try scenario.sandbox.writeCredentials([expiringAccount(token: access, refresh: refresh, expiresIn: -10)])
    let before = scenario.sandbox.credentialsBytes()
    try scenario.fake.script([
      "responses": ["refresh": [["kind": "oauth_error", "error": "invalid_client", "sticky": true]]]
    ])
    for command in [["refresh"], ["token"]] {
      let run = try await scenario.run(command)
      #expect(run.status == 1, "\(command): \(run)")
      #expect(run.stdout == "")
      #expect(!run.stderr.contains("refused the login's app"), "\(run)")
    }
    #expect(scenario.sandbox.credentialsBytes() == before)
    // A dead session is still 4, so `ghlogin status || ghlogin auth` works.
    try scenario.fake.script([
      "responses": ["refresh": [["kind": "oauth_error", "error": "bad_refresh_token", "sticky": true]]]
    ])
    #expect(try await scenario.run(["token"]).status == 4)
  }

  // MARK: - Network errors

  /// A derived endpoint that cannot be reached: no key named, the network to check.
  @Test func aNetworkFailureAtADerivedEndpointNamesNoKey() async throws {
    let scenario = try await Scenario.start(config: [
      "host": "ghe.test", "authorize_url": NSNull(), "token_url": NSNull(), "device_code_url": NSNull(),
      "api_url": NSNull(),
    ])
    let run = try await scenario.run(["auth", "--device"], env: ["GHLOGIN_TEST_RESOLVE": "ghe.test:443:127.0.0.1"])
    #expect(run.status == 1, "\(run)")
    #expect(run.stderr.contains("ghlogin: device code request at https://ghe.test/login/device/code: "), "\(run)")
    #expect(run.stderr.hasSuffix("; check your network connection\n"), "\(run)")
    #expect(!run.stderr.contains("device_code_url"), "\(run)")
    expectNothingStored(scenario)
  }

  /// A configured endpoint that cannot be reached: its key is named.
  @Test func aNetworkFailureAtAConfiguredEndpointNamesItsKey() async throws {
    let scenario = try await Scenario.start(config: ["device_code_url": "https://github.test:1/login/device/code"])
    let run = try await scenario.run(
      ["auth", "--device"], env: ["GHLOGIN_TEST_RESOLVE": scenario.fake.resolveValue + ",github.test:1:127.0.0.1"])
    #expect(run.status == 1, "\(run)")
    #expect(
      run.stderr.contains(
        "ghlogin: device code request at device_code_url https://github.test:1/login/device/code: "), "\(run)")
    #expect(!run.stderr.contains("check your network connection"), "\(run)")
  }

  /// The device flow's retry after a dropped poll at a derived token endpoint names no key either.
  @Test func aRetriedPollAtADerivedEndpointNamesNoKey() async throws {
    let scenario = try await Scenario.start(config: [
      "authorize_url": NSNull(), "token_url": NSNull(), "device_code_url": NSNull(), "api_url": NSNull(),
    ])
    let host = "ghe.test:\(scenario.fake.port)"
    try scenario.sandbox.writeConfig([
      "host": host, "authorize_url": NSNull(), "token_url": NSNull(), "device_code_url": NSNull(),
      "api_url": NSNull(),
    ])
    try scenario.fake.script([
      "device": ["interval": 1, "verification_uri": "https://ghe.test/login/device"],
      "responses": ["device_poll": ["drop"]],
    ])
    let run = try await scenario.run(["auth", "--device"], timeout: 60)
    #expect(run.status == 0, "\(run)")
    #expect(
      run.stderr.contains("\ndevice flow polling at https://\(host)/login/oauth/access_token: "), "\(run)")
    #expect(run.stderr.contains("; check your network connection; trying again in "), "\(run)")
    #expect(!run.stderr.contains("token_url"), "\(run)")
  }

  /// The same for a revocation at logout: GitHub's route at a derived API URL.
  @Test func aRevocationThatCannotReachADerivedEndpointNamesNoKey() async throws {
    let scenario = try await Scenario.start(config: [
      "host": "ghe.test", "authorize_url": NSNull(), "token_url": NSNull(), "device_code_url": NSNull(),
      "api_url": NSNull(),
    ])
    try scenario.seedLogin(token: Self.token, host: "ghe.test")
    let run = try await scenario.run(["logout"], env: ["GHLOGIN_TEST_RESOLVE": "ghe.test:443:127.0.0.1"])
    #expect(run.status == 0, "\(run)")
    #expect(
      run.stderr.hasPrefix(
        "ghlogin: warning: could not revoke the token at ghe.test: token revocation at https://ghe.test/api/v3"),
      "\(run)")
    #expect(run.stderr.contains("; check your network connection. The token may still be valid"), "\(run)")
    #expect(!run.stderr.contains("api_url"), "\(run)")
    #expect(scenario.sandbox.storedAccounts(host: "ghe.test").isEmpty)
  }

  // MARK: - 403 off GitHub

  @Test func aForbiddenAnswerOffGitHubMayMeanARevokedToken() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    let before = scenario.sandbox.credentialsBytes()
    try scenario.fake.script(["responses": ["user": [["kind": "status", "status": 403, "json": ["message": "x"]]]]])
    let run = try await scenario.run(["whoami"])
    #expect(run.status == 1, "\(run)")
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "ghlogin: identity check at api_url \(scenario.fake.apiBase)/: the server refused /user (HTTP 403); "
        + "the token may lack a permission or have been revoked. To log in again, run "
        + "'ghlogin auth --host github.test'\n")
    #expect(scenario.sandbox.credentialsBytes() == before)
  }

  // MARK: - Logout

  /// A server that is not GitHub and no revocation_url: the exact line that sets it.
  @Test func logoutWithoutRevocationNamesTheConfigLine() async throws {
    let scenario = try await Scenario.start(config: ["client_secret": NSNull()])
    try scenario.seedLogin(token: Self.token)
    let run = try await scenario.run(["logout"])
    #expect(run.status == 0, "\(run)")
    #expect(
      run.stderr
        == "Logged out of github.test as octocat. The token was removed from this machine but not revoked, "
        + "because no revocation_url is configured: it stays valid until it expires or you revoke it at the "
        + "server that issued it. To revoke at logout, give its RFC 7009 revocation endpoint: "
        + "ghlogin config set revocation_url URL\n")
    #expect(scenario.sandbox.storedAccounts().isEmpty)
  }

  /// Logging out the active account says which is active now; another account's logout does not.
  @Test func loggingOutTheActiveAccountSaysWhichIsActiveNow() async throws {
    let scenario = try await Scenario.start()
    let second = "gho_errorRemedyToken00000000000000000002"
    let third = "gho_errorRemedyToken00000000000000000003"
    try scenario.fake.register([
      "tokens": [
        ["access_token": Self.token, "login": "octocat"], ["access_token": second, "login": "hubot"],
        ["access_token": third, "login": "hubot"],
      ]
    ])
    try scenario.sandbox.writeCredentials([
      ["login": "octocat", "token": Self.token], ["login": "hubot", "token": second, "user_id": 2],
    ])
    let run = try await scenario.run(["logout"])
    #expect(run.status == 0, "\(run)")
    #expect(
      run.stderr
        == "Logged out of github.test as octocat; the token was revoked at github.test\n"
        + "hubot is now the active account on github.test (change it with 'ghlogin switch --host github.test')\n")
    try scenario.sandbox.writeCredentials([
      ["login": "octocat", "token": Self.token], ["login": "hubot", "token": third, "user_id": 2],
    ])
    let other = try await scenario.run(["logout", "--user", "hubot"])
    #expect(other.stderr == "Logged out of github.test as hubot; the token was revoked at github.test\n", "\(other)")
  }

  // MARK: - The helpers in --help

  @Test func helpListsTheProgramsThatRunGHLogin() async throws {
    let scenario = try await Scenario.start()
    let help = try await scenario.run(["--help"])
    #expect(
      help.stdout.contains(
        "Run by other programs (not typed; hidden from completion):\n"
          + "  git-credential     git's credential helper; set up by 'ghlogin setup-git'\n"
          + "  docker-credential  Docker's credential helper, also as the docker-credential-ghlogin link; "
          + "set up by 'ghlogin setup-docker'\n"
          + "  goauth             Go's GOAUTH command; set up with: go env -w GOAUTH='ghlogin goauth'\n"),
      "\(help.stdout)")
    let man = try await scenario.run(["man-page"])
    for line in ["set up by 'ghlogin setup\\-git'", "set up by 'ghlogin setup\\-docker'", "go env \\-w GOAUTH="] {
      #expect(man.stdout.contains(line), "\(line)")
    }
    for shell in ["bash", "zsh", "fish"] {
      let script = try await scenario.run(["completion", shell]).stdout
      #expect(!script.contains("git-credential") && !script.contains("goauth"), "\(shell)")
    }
    let goauth = try await scenario.run(["goauth", "--help"])
    #expect(goauth.stdout.contains("with no argument, before any request: then it prints nothing and exits 0"))
  }

  // MARK: - auth --web without a display

  @Test func authWebWithoutADisplayOffersPasteBack() throws {
    let sandbox = try Sandbox(fake: try FakeGitHub.start())
    try sandbox.writeConfig()
    let (status, output) = try runOnTerminal(
      ["auth", "--web"], env: sandbox.environment(),
      steps: [("paste the address it was sent to here:", "\u{3}")])
    #expect(status == -Int(SIGINT), "\(output)")
    #expect(output.contains("If your browser cannot reach this machine, paste the address it was sent to here:"))
    #expect(!output.contains(" left"), "\(output)")
    #expect(sandbox.credentialsBytes() == nil)
  }
}
