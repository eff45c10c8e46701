/// A request to the ghlogin agent (doc/agent.md, "Requests"), read from an ``AgentMessage``.
///
/// `command=get` asks for a token, `info` for whose login would answer (no token), `ping` whether
/// the agent answers. `for` says which client asks, and so how `host` is matched: `token` (the
/// default: `ghlogin token`/`env`, `host` as `--host` takes it), `git` (git's `host`, maybe with
/// a port; `path` when git sends it), `docker` (a `registry`), `goauth` (the `url` go fetches).
/// `repo` and `permission` (comma-separated, as `token --repo`/`--permission` take them) ask for
/// a narrowed token.
package struct AgentRequest: Sendable, Equatable {
  package enum Command: String, Sendable, CaseIterable { case get, info, ping }
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

  package init(_ command: Command, for client: Client = .token) {
    self.command = command
    self.client = client
  }

  /// The keys a request may have.
  static let keys: Set<String> = ["command", "for", "host", "user", "path", "registry", "url", "repo", "permission"]

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
    if status == .ok, let secret, secret.isEmpty { throw .badValue(key: "secret") }
  }

  /// Parses the bytes of a whole answer.
  package static func parse(_ bytes: [UInt8]) throws(AgentProtocolError) -> AgentAnswer {
    try AgentAnswer(AgentMessage.parse(bytes))
  }
}
