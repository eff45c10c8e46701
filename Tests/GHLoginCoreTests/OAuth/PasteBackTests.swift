import Testing

import GHLoginTestSupport
@testable import GHLoginCore

/// A pasted redirect address goes through the same checks as a real callback.
@Suite(.verifiesFakes) struct PasteBackTests {
  static let tokenURL = "https://github.com/login/oauth/access_token"
  static let userURL = "https://api.github.com/user"
  static let port = 53118
  static let state = "pasted-state-0123456789"
  let request = AuthorizationRequest(state: state, verifier: "verifier-0123456789-abcdefghijklmnopqrstuvw")
  let transport = FakeTransport()

  func session() -> LoginSession {
    let endpoints = GitHubHost.gitHubDotCom.defaultEndpoints
    let context = LoginContext(
      host: .gitHubDotCom, app: OAuthApp(clientID: "Iv1.id", scopes: ["repo"]), endpoints: endpoints,
      transport: transport, clock: ManualClock())
    return LoginSession(context, request: request, port: Self.port)
  }

  func stubSuccess() {
    transport.on("POST", Self.tokenURL, respond: .json(#"{"access_token":"gho_pasted","token_type":"bearer"}"#))
    transport.on("GET", Self.userURL, respond: .json(#"{"login":"octocat","id":1}"#))
  }

  static func complaint(_ reason: String) -> String {
    "That address was not accepted: \(reason). Paste the whole address from the browser's address bar, "
      + "or wait for the browser:"
  }

  @Test(arguments: [
    ("", PasteBack.Line.blank), ("  \t ", .blank),
    (
      "  http://127.0.0.1:5/callback?code=c&state=s \t",
      .request(target: "/callback?code=c&state=s", host: "127.0.0.1:5")
    ),
    ("http://127.0.0.1:5", .request(target: "/", host: "127.0.0.1:5")),
    ("https://127.0.0.1:5/callback?code=c", .invalid(reason: "it does not start with http://127.0.0.1:PORT/callback")),
    ("code=c&state=s", .invalid(reason: "it is not a URL (it is not an absolute URL (expected https://HOST/...))")),
    (
      "http://127.0.0.1:5/callback?code=c d",
      .invalid(
        reason: "it is not a URL (it contains a space, a control character or a non-ASCII character)")
    ),
    ("http://127.0.0.1:5/callback#x", .invalid(reason: "it is not a URL (it has a fragment (#...))")),
  ])
  func parsesLines(_ line: String, _ expected: PasteBack.Line) {
    #expect(PasteBack.parse(line) == expected)
  }

  @Test func aValidPasteLogsIn() throws {
    stubSuccess()
    let session = session()
    #expect(
      PasteBack.deliver("http://127.0.0.1:\(Self.port)/callback?code=thecode&state=\(Self.state)", to: session) == nil)
    let result = try #require(try session.outcome?.get())
    #expect(result.token.accessToken == "gho_pasted")
    #expect(transport.requests.first?.formParameters.first { $0.name == "code" }?.value == "thecode")
  }

  /// Each bad paste says why, keeps the login waiting, and never echoes the pasted code.
  @Test(arguments: [
    ("http://127.0.0.1:PORT/callback?code=secretcode&state=WRONG", "The callback's state does not match this login"),
    ("http://127.0.0.1:PORT/callback?code=secretcode", "The callback has no state; this login did not start it"),
    ("http://127.0.0.1:PORT/other?code=secretcode&state=STATE", "Not found"),
    ("http://localhost:PORT/callback?code=secretcode&state=STATE", "This request was not addressed to 127.0.0.1:PORT"),
    ("http://127.0.0.1:1/callback?code=secretcode&state=STATE", "This request was not addressed to 127.0.0.1:PORT"),
    ("http://127.0.0.1:PORT/callback?code=a&code=secretcode&state=STATE", "The callback repeats a parameter"),
    ("http://127.0.0.1:PORT/callback?state=STATE", "The callback has no authorization code"),
    ("secretcode", "it is not a URL (it is not an absolute URL (expected https://HOST/...))"),
  ])
  func badPastesAreRefused(_ template: String, _ reason: String) {
    let session = session()
    let line = template.replacingOccurrences(of: "PORT", with: "\(Self.port)")
      .replacingOccurrences(of: "STATE", with: Self.state)
    let complaint = PasteBack.deliver(line, to: session)
    let expected = reason.replacingOccurrences(of: "PORT", with: "\(Self.port)")
    #expect(complaint == Self.complaint(expected.prefix(1).lowercased() + expected.dropFirst()))
    #expect(complaint?.contains("secretcode") == false)
    #expect(session.outcome == nil)
    #expect(transport.requests.isEmpty)
  }

  @Test func aBlankLineIsIgnored() {
    let session = session()
    #expect(PasteBack.deliver("   ", to: session) == nil)
    #expect(session.outcome == nil)
  }

  /// An `error=` redirect with the right state ends the login, as it does from the browser (R21).
  @Test func aPastedErrorRedirectEndsTheLogin() throws {
    let session = session()
    let line = "http://127.0.0.1:\(Self.port)/callback?error=access_denied&state=\(Self.state)"
    #expect(PasteBack.deliver(line, to: session) == nil)
    let outcome = try #require(session.outcome)
    #expect(
      throws: LoginError(.authorizationError(AuthorizationErrorResponse(error: "access_denied")), host: .gitHubDotCom)
    ) {
      try outcome.get()
    }
    #expect(transport.requests.isEmpty)
  }

  @Test func afterTheLoginNothingMoreIsAccepted() {
    stubSuccess()
    let session = session()
    let line = "http://127.0.0.1:\(Self.port)/callback?code=thecode&state=\(Self.state)"
    #expect(PasteBack.deliver(line, to: session) == nil)
    #expect(PasteBack.deliver(line, to: session) == Self.complaint("this login has already finished"))
    #expect(transport.requests.count == 2)
  }

  /// The terminal input: CRLF and LF lines, an over-long line dropped whole, a partial line at
  /// the end of input not a line, and the end of input noticed.
  @Test func inputYieldsWholeLines() throws {
    let pipe = try FileDescriptor.pipe()
    let long = String(repeating: "z", count: PasteBack.Input.maxLine + 10)
    let text = "http://127.0.0.1/callback?code=1\r\n\(long)\nsecond\npartial"
    #expect(try pipe.write.write(Array(text.utf8)[...]) == .bytes(text.utf8.count))  // fits in the pipe
    pipe.write.close()
    var input = PasteBack.Input(fd: pipe.read.rawValue)
    var lines: [String] = []
    input.read()
    #expect(input.isOpen)
    while input.isOpen {
      while let line = input.nextLine() { lines.append(line) }
      input.read()
    }
    #expect(input.nextLine() == nil, "a partial line at end of input is not a line")
    #expect(lines == ["http://127.0.0.1/callback?code=1", "second"])
    #expect(!input.isOpen)
  }
}
