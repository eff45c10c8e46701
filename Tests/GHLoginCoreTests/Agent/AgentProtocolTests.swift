import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// The agent's protocol (doc/agent.md, "The protocol"): whole-message refusal, with messages
/// that name lines and never their content (issue 35 §1).
@Suite struct AgentProtocolTests {
  func parse(_ text: String) throws(AgentProtocolError) -> AgentMessage { try AgentMessage.parse(Array(text.utf8)) }

  func refusal(_ bytes: [UInt8]) -> AgentProtocolError? {
    do {
      _ = try AgentMessage.parse(bytes)
      return nil
    } catch { return error }
  }

  func refusal(_ text: String) -> AgentProtocolError? { refusal(Array(text.utf8)) }

  @Test func parsesTheFieldsInOrder() throws {
    let message = try parse("ghlogin-agent=1\ncommand=get\nhost=github.com\nrepo=acme/api=x\n\n")
    #expect(message.fields.map(\.key) == ["command", "host", "repo"])
    #expect(message["repo"] == "acme/api=x")
    #expect(message["user"] == nil)
  }

  @Test func anEncodedMessageReadsBack() throws {
    var message = AgentMessage()
    message.append("status", "ok")
    message.append("secret", "ghu_abc=def")
    let bytes = try message.encoded()
    #expect(String(decoding: bytes, as: UTF8.self) == "ghlogin-agent=1\nstatus=ok\nsecret=ghu_abc=def\n\n")
    #expect(try AgentMessage.parse(bytes) == message)
  }

  @Test func theEndIsTheFirstEmptyLine() {
    #expect(AgentMessage.end(in: Array("ghlogin-agent=1\ncommand=ping\n".utf8)) == nil)
    #expect(AgentMessage.end(in: Array("ghlogin-agent=1\n\nmore".utf8)) == 17)
    #expect(AgentMessage.end(in: [0x0A]) == 1)
  }

  @Test func oversize() {
    let big = "ghlogin-agent=1\nhost=" + String(repeating: "a", count: AgentMessage.maximumSize) + "\n\n"
    #expect(refusal(big) == .tooLarge)
    #expect(
      AgentProtocolError.tooLarge.message
        == "the agent's protocol: refusing the message: the message is larger than 65536 bytes")
  }

  @Test func tooManyLines() {
    // 1,025 lines with the version line: refused on the count, before any key is judged.
    #expect(refusal("ghlogin-agent=1\n" + String(repeating: "a=b\n", count: 1_024) + "\n") == .tooManyLines)
    #expect(refusal("ghlogin-agent=1\n" + String(repeating: "a=b\n", count: 1_100)) == .tooManyLines)
    #expect(
      AgentProtocolError.tooManyLines.message
        == "the agent's protocol: refusing the message: the message has more than 1024 lines")
  }

  @Test func theMostLinesAreAccepted() throws {
    var keys: [String] = []
    for a in UInt8(ascii: "a")...UInt8(ascii: "b") {
      for b in UInt8(ascii: "a")...UInt8(ascii: "z") {
        for c in UInt8(ascii: "a")...UInt8(ascii: "z") { keys.append(String(decoding: [a, b, c], as: UTF8.self)) }
      }
    }
    let text = "ghlogin-agent=1\n" + keys.prefix(1_023).map { "\($0)=v\n" }.joined() + "\n"
    #expect(try parse(text).fields.count == 1_023)
  }

  @Test func badKeys() {
    for key in ["Host", "host-name", "h1", "", "h\u{e9}", String(repeating: "k", count: 33), "a b"] {
      #expect(refusal("ghlogin-agent=1\ncommand=get\n\(key)=secret-value\n\n") == .badKey(line: 3), "\(key)")
    }
    #expect(
      AgentProtocolError.badKey(line: 3).message
        == "the agent's protocol: refusing the message: the key on line 3 is not 1 to 32 of the letters a-z and _"
    )
    #expect(refusal("ghlogin-agent=1\nnoequals\n\n") == .missingEquals(line: 2))
  }

  @Test func missingVersion() {
    #expect(refusal("command=get\n\n") == .missingVersion)
    #expect(refusal("\n") == .missingVersion)
    #expect(refusal("ghlogin-agent\n\n") == .missingVersion)
    #expect(
      AgentProtocolError.missingVersion.message
        == "the agent's protocol: refusing the message: the first line is not ghlogin-agent=VERSION")
  }

  @Test func wrongVersion() {
    #expect(refusal("ghlogin-agent=2\ncommand=get\n\n") == .unsupportedVersion)
    #expect(refusal("ghlogin-agent=\n\n") == .unsupportedVersion)
    #expect(refusal("ghlogin-agent=1 \n\n") == .unsupportedVersion)
    #expect(
      AgentProtocolError.unsupportedVersion.message
        == "the agent's protocol: refusing the message: the protocol version is not 1")
  }

  @Test func duplicateKey() {
    #expect(refusal("ghlogin-agent=1\nhost=a.test\ncommand=get\nhost=b.test\n\n") == .duplicateKey(line: 4))
    #expect(
      AgentProtocolError.duplicateKey(line: 4).message
        == "the agent's protocol: refusing the message: the key on line 4 was already given")
  }

  @Test func nulBytes() {
    #expect(refusal(Array("ghlogin-agent=1\nhost=a".utf8) + [0] + Array("b\n\n".utf8)) == .nul(line: 2))
    #expect(refusal([0]) == .nul(line: 1))
    #expect(
      AgentProtocolError.nul(line: 2).message
        == "the agent's protocol: refusing the message: line 2 contains a NUL byte")
  }

  @Test func carriageReturns() {
    #expect(refusal("ghlogin-agent=1\r\ncommand=get\r\n\r\n") == .carriageReturn(line: 1))
    #expect(refusal("ghlogin-agent=1\ncommand=get\nhost=a\rb\n\n") == .carriageReturn(line: 3))
    #expect(
      AgentProtocolError.carriageReturn(line: 3).message
        == "the agent's protocol: refusing the message: line 3 contains a carriage return (CR)")
  }

  @Test func unterminatedTrailingAndInvalidUTF8() {
    #expect(refusal("ghlogin-agent=1\ncommand=get\n") == .unterminated)
    #expect(refusal("ghlogin-agent=1\ncommand=get") == .unterminated)
    #expect(refusal("") == .unterminated)
    #expect(refusal("ghlogin-agent=1\n\nx") == .trailingBytes)
    #expect(refusal(Array("ghlogin-agent=1\nhost=".utf8) + [0xFF, 0x0A, 0x0A]) == .invalidUTF8)
  }

  @Test func noRefusalQuotesTheMessage() {
    let secret = "ghu_SECRET_VALUE"
    let inputs = [
      "ghlogin-agent=1\n\(secret)\n\n", "ghlogin-agent=1\nSECRET=\(secret)\n\n", "\(secret)=1\n\n",
      "ghlogin-agent=\(secret)\n\n", "ghlogin-agent=1\nsecret=\(secret)\nsecret=\(secret)\n\n",
      "ghlogin-agent=1\nsecret=\(secret)\r\n\n",
    ]
    for input in inputs {
      let error = refusal(input)
      #expect(error != nil)
      #expect(error.map { !$0.message.contains("SECRET") } ?? false)
    }
  }

  @Test func encodingRefusesWhatCannotBeSent() {
    for (key, value) in [("Host", "x"), ("host", "a\nb"), ("host", "a\rb"), ("host", "a\u{0}b")] {
      #expect(throws: AgentProtocolError.unencodable) { try AgentMessage([(key, value)]).encoded() }
    }
    #expect(throws: AgentProtocolError.unencodable) { try AgentMessage([("a", "1"), ("a", "2")]).encoded() }
  }
}

/// Requests and answers on top of the messages.
@Suite struct AgentRequestTests {
  @Test func aRequestReadsBack() throws {
    var request = AgentRequest(.get, for: .git)
    request.host = "github.com:443"
    request.path = "acme/api.git"
    request.repositories = ["acme/api", "acme/web"]
    request.permissions = ["contents:read"]
    let bytes = try request.fields.encoded()
    #expect(try AgentRequest.parse(bytes) == request)
  }

  @Test func unknownKeysAndCommandsAreRefused() {
    #expect(throws: AgentProtocolError.unknownKey(line: 3)) {
      try AgentRequest.parse(Array("ghlogin-agent=1\ncommand=get\ntoken=x\n\n".utf8))
    }
    #expect(throws: AgentProtocolError.unknownCommand) {
      try AgentRequest.parse(Array("ghlogin-agent=1\ncommand=store\n\n".utf8))
    }
    #expect(throws: AgentProtocolError.unknownCommand) { try AgentRequest.parse(Array("ghlogin-agent=1\n\n".utf8)) }
    #expect(throws: AgentProtocolError.badValue(key: "for")) {
      try AgentRequest.parse(Array("ghlogin-agent=1\ncommand=get\nfor=ssh\n\n".utf8))
    }
    #expect(throws: AgentProtocolError.badValue(key: "host")) {
      try AgentRequest.parse(Array("ghlogin-agent=1\ncommand=get\nhost=a/b\n\n".utf8))
    }
    #expect(throws: AgentProtocolError.badValue(key: "user")) {
      try AgentRequest.parse(Array("ghlogin-agent=1\ncommand=get\nuser=\n\n".utf8))
    }
    #expect(throws: AgentProtocolError.badValue(key: "permission")) {
      try AgentRequest.parse(Array("ghlogin-agent=1\ncommand=get\npermission=contents:read\n\n".utf8))
    }
  }

  @Test func anAnswerReadsBackWithTheSecretLast() throws {
    let answer = AgentAnswer(.ok, host: "github.com", login: "octocat", secret: "ghu_x", expiresAt: 1_700_000_000)
    let bytes = try answer.fields.encoded()
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == "ghlogin-agent=1\nstatus=ok\nhost=github.com\nlogin=octocat\nexpires_at=1700000000\nsecret=ghu_x\n\n")
    #expect(try AgentAnswer.parse(bytes) == answer)
  }

  @Test func aRefusalIsOneLine() throws {
    let answer = AgentAnswer.refusal("no\nlogin\there", exit: .notLoggedIn, notFound: true)
    #expect(answer.message == "no login here")
    #expect(answer.status == .notFound)
    #expect(try AgentAnswer.parse(answer.fields.encoded()) == answer)
  }
}
