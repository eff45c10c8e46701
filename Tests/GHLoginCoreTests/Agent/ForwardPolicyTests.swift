import Testing

@testable import GHLoginCore

/// The forward's policy on the wire and its checks (issue 35 §2, R116), and the duration syntax
/// `--ttl` shares with `auth --timeout`.
@Suite struct ForwardPolicyTests {
  @Test func aForwardRequestReadsBackWithItsPolicy() throws {
    var policy = ForwardPolicy(repositories: ["acme/api", "acme/web"])
    policy.host = "github.com"
    policy.user = "octocat"
    policy.permissions = ["contents:write"]
    policy.ttl = 3600
    policy.confirm = true
    policy.maxTokens = 3
    policy.name = "dev.box_1"
    let request = AgentRequest(forward: policy, watching: 4242)
    let bytes = try request.fields.encoded()
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == "ghlogin-agent=1\ncommand=forward\nhost=github.com\nuser=octocat\nrepo=acme/api,acme/web\n"
        + "permission=contents:write\nttl=3600\nconfirm=1\nmax_tokens=3\nname=dev.box_1\nwatch_pid=4242\n\n")
    let read = try AgentRequest.parse(bytes)
    #expect(read == request)
    #expect(read.policy == policy)
    #expect(read.watchPID == 4242)
  }

  @Test(arguments: [
    ("command=forward\n", "repo"),
    ("command=forward\nrepo=acme/api\nttl=59\n", "ttl"),
    ("command=forward\nrepo=acme/api\nttl=86401\n", "ttl"),
    ("command=forward\nrepo=acme/api\nname=../x\n", "name"),
    ("command=forward\nrepo=acme/api\nconfirm=yes\n", "confirm"),
    ("command=forward\nrepo=acme/api\nmax_tokens=0\n", "max_tokens"),
    ("command=forward\nrepo=acme/api\nwatch_pid=-1\n", "watch_pid"),
    ("command=end\n", "forward"),
  ])
  func badForwardFieldsAreRefused(fields: String, key: String) {
    #expect(throws: AgentProtocolError.badValue(key: key)) {
      try AgentRequest.parse(Array("ghlogin-agent=1\n\(fields)\n".utf8))
    }
  }

  @Test func theProblemsOfAPolicy() {
    var policy = ForwardPolicy(repositories: ["acme/api"])
    #expect(policy.problem == nil)
    policy.unscoped = true
    #expect(policy.problem == "an unscoped forward hands out the login's own token: give it a time to live (ttl)")
    policy.ttl = 600
    #expect(policy.problem == nil)
    policy.ttl = 30
    #expect(policy.problem == "a forward's time to live is 1m to 24h")
    policy.ttl = 600
    policy.name = ".hidden"
    #expect(policy.problem?.hasPrefix("a forward's name is 1 to 64 letters") == true)
    #expect(ForwardPolicy.isValidName(String(repeating: "a", count: 64)))
    #expect(!ForwardPolicy.isValidName(String(repeating: "a", count: 65)))
    #expect(!ForwardPolicy.isValidName("a b"))
  }

  @Test func aListAnswerReadsBack() throws {
    var answer = AgentAnswer(.ok)
    answer.listing = ["one forward", "another"]
    answer.forward = "0123456789abcdef"
    answer.unscoped = true
    let read = try AgentAnswer.parse(answer.fields.encoded())
    #expect(read.listing == ["one forward", "another"])
    #expect(read.unscoped)
    #expect(read.forward == "0123456789abcdef")
  }

  @Test(arguments: [
    ("90", 90), ("90s", 90), ("5m", 300), ("2h", 7200), ("1", 1),
  ])
  func durations(text: String, seconds: Int) {
    #expect(DurationSyntax.seconds(text) == seconds)
  }

  @Test(arguments: ["", "0", "0m", "-5", "+5", "1.5h", "5d", "m", "5 m", "1234567890", "٣"])
  func notDurations(text: String) {
    #expect(DurationSyntax.seconds(text) == nil)
  }

  @Test func durationText() {
    #expect(DurationSyntax.text(86_400) == "24h")
    #expect(DurationSyntax.text(60) == "1m")
    #expect(DurationSyntax.text(1) == "1s")
  }

  @Test func aConsumerIDOfThisAgentIsLiveAndOthersAreNot() {
    let own = AgentIdentity.consumerID(agent: AgentIdentity.current(), forward: "0123456789abcdef")
    #expect(NarrowedRecord.isValidID(own))
    #expect(AgentIdentity.isLive(consumerID: own))
    #expect(!AgentIdentity.isLive(consumerID: "\(SessionProcess.currentID)x1-0123456789abcdef"), "another start time")
    #expect(!AgentIdentity.isLive(consumerID: "garbage"))
    #expect(!AgentIdentity.isLive(consumerID: ""))
  }
}
