/// A request to the ghlogin agent (doc/agent.md, "Requests"), read from an ``AgentMessage``.
///
/// `command=get` asks for a token, `info` for whose login would answer (no token), `ping` whether
/// the agent answers. `for` says which client asks, and so how `host` is matched: `token` (the
/// default: `ghlogin token`/`env`, `host` as `--host` takes it), `git` (git's `host`, maybe with
/// a port; `path` when git sends it), `docker` (a `registry`), `goauth` (the `url` go fetches).
/// `repo` and `permission` (comma-separated, as `token --repo`/`--permission` take them) ask for
/// a narrowed token.
package struct AgentRequest: Sendable, Equatable {
  package enum Command: String, Sendable, CaseIterable { case get, info, ping, erase, forward, end, list }
  package enum Client: String, Sendable, CaseIterable { case token, git, docker, goauth }

  package var command: Command
  package var client: Client = .token
  package var host: String?
  package var user: String?
  package var path: String?
  package var registry: String?
  package var url: String?
  /// `OWNER/NAME` each, as given.
  package var repositories: [String] = []
  /// `NAME:LEVEL` each, as given.
  package var permissions: [String] = []
  /// For `forward`: the new forward's policy (`host`, `user`, `repo` and `permission` are its own).
  package var ttl: Int?
  package var confirm = false
  package var maxTokens: Int?
  package var name: String?
  package var unscoped = false
  /// For `forward`: the process whose end ends the forward.
  package var watchPID: Int32?
  /// For `end`: the forward's id or name.
  package var forward: String?

  package init(_ command: Command, for client: Client = .token) {
    self.command = command
    self.client = client
  }

  /// The keys a request may have.
  static let keys: Set<String> = [
    "command", "for", "host", "user", "path", "registry", "url", "repo", "permission", "ttl", "confirm",
    "max_tokens", "name", "unscoped", "watch_pid", "forward",
  ]

  /// The request `message` holds; throws for an unknown key or command, or a value its field refuses.
  package init(_ message: AgentMessage) throws(AgentProtocolError) {
    for (index, field) in message.fields.enumerated() where !Self.keys.contains(field.key) {
      throw .unknownKey(line: index + 2)
    }
    guard let command = message["command"].flatMap(Command.init(rawValue:)) else { throw .unknownCommand }
    self.command = command
    if let name = message["for"] {
      guard let client = Client(rawValue: name) else { throw .badValue(key: "for") }
      self.client = client
    }
    func text(_ key: String) throws(AgentProtocolError) -> String? {
      guard let value = message[key] else { return nil }
      guard !value.isEmpty, value.utf8.count <= 4096, value.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) else {
        throw .badValue(key: key)
      }
      return value
    }
    host = try text("host")
    if let host, !CredentialRequest.isPlausibleHost(host) { throw .badValue(key: "host") }
    user = try text("user")
    path = try text("path")
    registry = try text("registry")
    url = try text("url")
    repositories = try text("repo").map { $0.split(separator: ",").map(String.init) } ?? []
    permissions = try text("permission").map { $0.split(separator: ",").map(String.init) } ?? []
    if !permissions.isEmpty && repositories.isEmpty { throw .badValue(key: "permission") }
    func number(_ key: String, _ range: ClosedRange<Int>) throws(AgentProtocolError) -> Int? {
      guard let value = try text(key) else { return nil }
      guard value.utf8.count <= 9, let number = Int(value), range.contains(number) else { throw .badValue(key: key) }
      return number
    }
    func yes(_ key: String) throws(AgentProtocolError) -> Bool {
      guard let value = try text(key) else { return false }
      guard value == "1" || value == "0" else { throw .badValue(key: key) }
      return value == "1"
    }
    ttl = try number("ttl", ForwardPolicy.ttlRange)
    confirm = try yes("confirm")
    maxTokens = try number("max_tokens", 1...1_000_000)
    name = try text("name")
    if let name, !ForwardPolicy.isValidName(name) { throw .badValue(key: "name") }
    unscoped = try yes("unscoped")
    watchPID = try number("watch_pid", 1...Int(Int32.max)).map { Int32($0) }
    forward = try text("forward")
    if command == .forward && repositories.isEmpty { throw .badValue(key: "repo") }
    if command == .end && forward == nil { throw .badValue(key: "forward") }
  }

  /// A `forward` request for `policy`, ended when the process `pid` ends.
  package init(forward policy: ForwardPolicy, watching pid: Int32?) {
    self.init(.forward)
    host = policy.host
    user = policy.user
    repositories = policy.repositories
    permissions = policy.permissions
    ttl = policy.ttl
    confirm = policy.confirm
    maxTokens = policy.maxTokens
    name = policy.name
    unscoped = policy.unscoped
    watchPID = pid
  }

  /// The policy of a `forward` request.
  package var policy: ForwardPolicy {
    var policy = ForwardPolicy(repositories: repositories)
    policy.host = host
    policy.user = user
    policy.permissions = permissions
    policy.ttl = ttl
    policy.confirm = confirm
    policy.maxTokens = maxTokens
    policy.name = name
    policy.unscoped = unscoped
    return policy
  }

  /// Parses the bytes of a whole request.
  package static func parse(_ bytes: [UInt8]) throws(AgentProtocolError) -> AgentRequest {
    try AgentRequest(AgentMessage.parse(bytes))
  }

  /// The request as a message.
  package var fields: AgentMessage {
    var message = AgentMessage()
    message.append("command", command.rawValue)
    message.append("for", client == .token ? nil : client.rawValue)
    message.append("host", host)
    message.append("user", user)
    message.append("path", path)
    message.append("registry", registry)
    message.append("url", url)
    message.append("repo", repositories.isEmpty ? nil : repositories.joined(separator: ","))
    message.append("permission", permissions.isEmpty ? nil : permissions.joined(separator: ","))
    message.append("ttl", ttl.map(String.init))
    message.append("confirm", confirm ? "1" : nil)
    message.append("max_tokens", maxTokens.map(String.init))
    message.append("name", name)
    message.append("unscoped", unscoped ? "1" : nil)
    message.append("watch_pid", watchPID.map(String.init))
    message.append("forward", forward)
    return message
  }
}

/// The agent's answer to one request (doc/agent.md, "Answers"). `status=ok` carries the login
/// (`host`, `login`), for `get` the token in `secret` (the only field that ever holds token
/// bytes) and its `expires_at` (Unix seconds) when it expires; for `ping` the agent's `pid`.
/// Otherwise `status` is `not-found` (no login answers: a helper says "not found" in its own
/// protocol) or `error`, with the exit status a client exits with (`exit`) and one line of
/// `message`, which never quotes the request.
package struct AgentAnswer: Sendable, Equatable {
  package enum Status: String, Sendable { case ok, notFound = "not-found", error }

  package var status: Status
  package var host: String?
  package var login: String?
  package var secret: String?
  package var expiresAt: Int64?
  package var pid: Int32?
  package var exit: Int32?
  package var message: String?
  /// The forward that answered (`get`, `info` through a forward), or the one made (`forward`).
  package var forward: String?
  /// For `forward`: the new forward's socket.
  package var path: String?
  /// For `info` through a forward: its policy in words.
  package var policy: String?
  /// The token handed out is the login's own: the forward is unscoped (R116).
  package var unscoped = false
  /// For `list`: one line per forward.
  package var listing: [String] = []

  package init(
    _ status: Status, host: String? = nil, login: String? = nil, secret: String? = nil, expiresAt: Int64? = nil,
    pid: Int32? = nil, exit: Int32? = nil, message: String? = nil
  ) {
    self.status = status
    self.host = host
    self.login = login
    self.secret = secret
    self.expiresAt = expiresAt
    self.pid = pid
    self.exit = exit
    self.message = message
  }

  /// An answer refusing the request: `error` with `exit` and one line of `message` (control
  /// characters and line breaks made spaces).
  package static func refusal(_ message: String, exit: ExitStatus, notFound: Bool = false) -> AgentAnswer {
    let line = String(decoding: message.utf8.map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    return AgentAnswer(notFound ? .notFound : .error, exit: exit.rawValue, message: line)
  }

  /// The answer as a message.
  package var fields: AgentMessage {
    var fields = AgentMessage()
    fields.append("status", status.rawValue)
    fields.append("host", host)
    fields.append("login", login)
    fields.append("expires_at", expiresAt.map(String.init))
    fields.append("pid", pid.map(String.init))
    fields.append("exit", exit.map(String.init))
    fields.append("message", message)
    fields.append("forward", forward)
    fields.append("path", path)
    fields.append("policy", policy)
    fields.append("unscoped", unscoped ? "1" : nil)
    fields.append("forwards", status == .ok && !listing.isEmpty ? String(listing.count) : nil)
    // Lines apart by a tab: a value holds no LF. Each line is made terminal-safe by the agent.
    fields.append("listing", listing.isEmpty ? nil : listing.joined(separator: "\t"))
    fields.append("secret", secret)
    return fields
  }

  /// The answer in `message`: unknown keys are ignored (a later agent may say more).
  package init(_ message: AgentMessage) throws(AgentProtocolError) {
    guard let status = message["status"].flatMap(Status.init(rawValue:)) else { throw .badValue(key: "status") }
    self.status = status
    host = message["host"]
    login = message["login"]
    secret = message["secret"]
    func number<T: FixedWidthInteger>(_ key: String, _: T.Type) throws(AgentProtocolError) -> T? {
      guard let text = message[key] else { return nil }
      guard let value = T(text) else { throw .badValue(key: key) }
      return value
    }
    expiresAt = try number("expires_at", Int64.self)
    pid = try number("pid", Int32.self)
    exit = try number("exit", Int32.self)
    self.message = message["message"]
    forward = message["forward"]
    path = message["path"]
    policy = message["policy"]
    unscoped = message["unscoped"] == "1"
    listing = message["listing"].map { $0.split(separator: "\t").map(String.init) } ?? []
    if status == .ok, let secret, secret.isEmpty { throw .badValue(key: "secret") }
  }

  /// Parses the bytes of a whole answer.
  package static func parse(_ bytes: [UInt8]) throws(AgentProtocolError) -> AgentAnswer {
    try AgentAnswer(AgentMessage.parse(bytes))
  }
}
