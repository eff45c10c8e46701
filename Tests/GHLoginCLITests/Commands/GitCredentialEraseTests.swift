import Testing

import GHLoginTestSupport

@testable import GHLoginCLI

/// `git-credential erase` forgets a login only when the host's API rejects that exact token now
/// (R102): Go's `GOAUTH=git` sends `erase` with a valid token after an
/// unrelated 401.
@Suite(.verifiesFakes) struct GitCredentialEraseTests {
  typealias Fixture = LifecycleFixture
  static let token = "gho_16C7e42F292c6912E7710c838347Ae178B4a"
  static let input = "protocol=https\nhost=github.com\nusername=octocat\npassword=\(token)\n\n"
  static let head = "ghlogin: git reported the token of octocat on github.com as rejected"

  let fixture: LifecycleFixture
  init() throws { fixture = try LifecycleFixture() }

  func erase(_ input: String = Self.input, transport: any HTTPTransport) -> CommandRun {
    runCommand(
      ["git-credential", "erase"], variables: fixture.variables, stdin: input, clock: fixture.clock,
      transport: transport)
  }

  /// The `GET /user` the check sends, with the token and the five-second deadline.
  func expectUserCheck(_ transport: FakeTransport, token: String = Self.token, at index: Int = 0) {
    let requests = transport.requests
    guard requests.indices.contains(index) else {
      Issue.record("no request \(index)")
      return
    }
    #expect(requests[index].method == "GET")
    #expect(requests[index].url.description == Fixture.userURL)
    #expect(requests[index].headers["Authorization"] == "Bearer \(token)")
    #expect(transport.timeoutsSent[index] == 5)
  }

  @Test func aTokenTheAPIAcceptsIsKept() throws {
    try fixture.seed(sampleCredential(token: Self.token))
    let before = fixture.fileBytes
    let transport = FakeTransport()
    transport.on("GET", Fixture.userURL, respond: Fixture.user)
    let run = erase(transport: transport)
    expectUserCheck(transport)
    #expect(run.status == .success)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == Self.head + ", but github.com still accepts it; kept the login.\n")
    #expect(fixture.fileBytes == before)
  }

  /// t61: the API answers 401 for exactly that token: the account is removed, as before R102.
  @Test func t61aTokenTheAPIRejectsIsForgotten() throws {
    try fixture.seed(sampleCredential(token: Self.token))
    let transport = FakeTransport()
    transport.on("GET", Fixture.userURL, respond: .json(#"{"message":"Bad credentials"}"#, status: 401))
    let run = erase(transport: transport)
    expectUserCheck(transport)
    #expect(run.status == .success)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == Self.head + "; removed it. Run 'ghlogin auth --host github.com' to log in again.\n")
    #expect(try fixture.load().hosts["github.com"] == nil)
    #expect(!fixture.fileText.contains(Self.token))
  }

  @Test func aNetworkFailureKeepsTheLoginAndSaysWhy() throws {
    try fixture.seed(sampleCredential(token: Self.token))
    let before = fixture.fileBytes
    let transport = FakeTransport()
    transport.on("GET", Fixture.userURL) { _ in
      throw HTTPError.connect(host: "api.github.com", port: 443, reason: "Connection refused")
    }
    let run = erase(transport: transport)
    #expect(run.status == .success)
    #expect(
      run.stderr
        == Self.head + ", but it could not be checked (identity check at api_url https://api.github.com/: "
        + "could not connect to api.github.com:443: Connection refused); kept the login.\n")
    #expect(fixture.fileBytes == before)
  }

  @Test func aTimeoutKeepsTheLoginAndSaysWhy() throws {
    try fixture.seed(sampleCredential(token: Self.token))
    let before = fixture.fileBytes
    let transport = FakeTransport()
    transport.on("GET", Fixture.userURL) { _ in throw HTTPError.timedOut(host: "api.github.com", phase: .response) }
    let run = erase(transport: transport)
    expectUserCheck(transport)
    #expect(
      run.stderr
        == Self.head + ", but it could not be checked (identity check at api_url https://api.github.com/: "
        + "timed out waiting for the response from api.github.com); kept the login.\n")
    #expect(fixture.fileBytes == before)
  }

  @Test(arguments: [500, 502, 503])
  func aServerErrorKeepsTheLogin(status: Int) throws {
    try fixture.seed(sampleCredential(token: Self.token))
    let before = fixture.fileBytes
    let transport = FakeTransport()
    transport.on("GET", Fixture.userURL, respond: .json(#"{"message":"oops"}"#, status: status))
    let run = erase(transport: transport)
    #expect(
      run.stderr
        == Self.head + ", but it could not be checked (identity check at api_url https://api.github.com/: "
        + "the server answered HTTP \(status) for /user; try again later); kept the login.\n")
    #expect(fixture.fileBytes == before)
  }

  /// A 403 (rate limit, SSO) is not a rejection of the token either.
  @Test func aForbiddenAnswerKeepsTheLogin() throws {
    try fixture.seed(sampleCredential(token: Self.token))
    let before = fixture.fileBytes
    let transport = FakeTransport()
    transport.on(
      "GET", Fixture.userURL,
      respond: .json(#"{"message":"rate"}"#, status: 403, headers: [("x-ratelimit-remaining", "0")]))
    let run = erase(transport: transport)
    #expect(run.stderr.hasPrefix(Self.head + ", but it could not be checked ("))
    #expect(run.stderr.hasSuffix("); kept the login.\n"))
    #expect(fixture.fileBytes == before)
  }

  @Test func anExpiredTokenIsRefreshedAndTheNewOneCheckedAndStored() throws {
    try fixture.seed(Fixture.expiring(token: "ghu_old", expiresIn: -30))
    let transport = FakeTransport()
    transport.on("POST", Fixture.tokenURL, respond: Fixture.renewal())
    transport.on("GET", Fixture.userURL, respond: Fixture.user)
    let run = erase("protocol=https\nhost=github.com\nusername=octocat\npassword=ghu_old\n\n", transport: transport)
    #expect(transport.timeoutsSent == [5, 5])
    #expect(transport.requests.first?.formParameters.first { $0.name == "refresh_token" }?.value == "ghr_old")
    expectUserCheck(transport, token: "ghu_new", at: 1)
    #expect(
      run.stderr
        == Self.head + "; it had expired, so it was refreshed, and github.com accepts the new token; kept the login.\n")
    #expect(try fixture.account()?.token == "ghu_new")
    #expect(try fixture.account()?.refreshToken == "ghr_new")
  }

  @Test func anExpiredTokenWhoseRefreshFailsForGoodIsForgotten() throws {
    try fixture.seed(Fixture.expiring(token: "ghu_old", expiresIn: -30))
    let transport = FakeTransport()
    transport.on("POST", Fixture.tokenURL, respond: .json(#"{"error":"bad_refresh_token"}"#))
    let run = erase("protocol=https\nhost=github.com\nusername=octocat\npassword=ghu_old\n\n", transport: transport)
    #expect(transport.requests.count == 1)
    #expect(
      run.stderr
        == Self.head + "; it had expired and its refresh token no longer works, so removed it. "
        + "Run 'ghlogin auth --host github.com' to log in again.\n")
    #expect(try fixture.load().hosts["github.com"] == nil)
  }

  /// A refresh that may work later (the token endpoint unreachable) keeps the expired login.
  @Test func anExpiredTokenWhoseRefreshFailsForNowIsKept() throws {
    try fixture.seed(Fixture.expiring(token: "ghu_old", expiresIn: -30))
    let before = fixture.fileBytes
    let transport = FakeTransport()
    transport.on("POST", Fixture.tokenURL) { _ in throw HTTPError.timedOut(host: "github.com", phase: .response) }
    let run = erase("protocol=https\nhost=github.com\nusername=octocat\npassword=ghu_old\n\n", transport: transport)
    #expect(
      run.stderr
        == Self.head + ", but it could not be checked (token refresh at "
        + "https://github.com/login/oauth/access_token: timed out waiting for the response from github.com; "
        + "check your network connection); kept the login.\n")
    #expect(fixture.fileBytes == before)
  }

  /// Another account's token, or the right token with another username: nothing is sent, nothing changes.
  @Test(arguments: [
    "protocol=https\nhost=github.com\nusername=hubot\npassword=\(token)\n\n",
    "protocol=https\nhost=github.com\nusername=octocat\npassword=gho_notTheStoredToken0000000000000000000\n\n",
  ])
  func withoutAnExactMatchNothingIsSent(_ input: String) throws {
    try fixture.seed(sampleCredential(token: Self.token))
    let before = fixture.fileBytes
    let transport = FakeTransport()
    let run = erase(input, transport: transport)
    #expect(transport.requests.isEmpty)
    #expect(run.stderr.isEmpty)
    #expect(fixture.fileBytes == before)
  }

  /// Only the rejected account goes: another login on the host stays, and is active.
  @Test func onlyTheRejectedAccountIsRemoved() throws {
    var credentials = sampleCredentials(host: "github.com", sampleCredential(token: Self.token))
    var hubot = sampleCredential("hubot", token: "gho_hubot")
    hubot.userID = 2
    credentials.save(hubot, on: "github.com")
    try fixture.seed(credentials)
    let transport = FakeTransport()
    transport.on("GET", Fixture.userURL, respond: .json(#"{"message":"Bad credentials"}"#, status: 401))
    _ = erase(transport: transport)
    #expect(try fixture.load().hosts["github.com"]?.accounts.map(\.login) == ["hubot"])
  }
}
