import GHLoginCore

/// The options that make an agent forward's policy (issue 35 §2), one list shared by
/// `agent forward`, `container-args` and `ssh`, and their parse into a ``ForwardPolicy``.
enum ForwardOptions {
  /// The option specs, in help order.
  static let specs: [OptionSpec] = [
    .option("user", value: "LOGIN", help: "forward: the account the forward answers for (default: as token chooses)"),
    .option("host", value: "HOST", help: "forward: the GitHub host (default: as token chooses)"),
    .list(
      "repo", value: "OWNER/NAME[,...]",
      help: "forward: the repositories its tokens are narrowed to, all of one owner (required; repeatable)"),
    .list(
      "permission", value: "NAME:LEVEL[,...]",
      help: "forward: only these GitHub App permissions, e.g. contents:read (repeatable)"),
    .option("ttl", value: "DURATION", help: "forward: end it after N, Ns, Nm or Nh (1m to 24h; default: never)"),
    .flag("confirm", help: "forward: ask (GHLOGIN_ASKPASS, else SSH_ASKPASS) before each new token"),
    .option("max-tokens", value: "N", help: "forward: mint at most N tokens"),
    .option("name", value: "NAME", help: "forward: a stable socket NAME.sock instead of a random one"),
    .flag("unscoped", help: "forward: hand out the login's own token when it cannot be narrowed (needs --ttl)"),
  ]

  /// The names of ``specs``.
  static let names = Set(specs.map(\.name))

  /// Whether any forward option was given.
  static func given(_ arguments: ParsedArguments) -> Bool {
    names.contains { arguments.values[$0] != nil || arguments.lists[$0] != nil || arguments.flag($0) }
  }

  /// The policy the options ask for; a value Core refuses is a usage error naming its option.
  static func parse(_ arguments: ParsedArguments) throws(UsageError) -> ForwardPolicy {
    let repositories = arguments.list("repo")
    guard !repositories.isEmpty else { throw UsageError("a forward needs --repo OWNER/NAME[,...]") }
    var policy = ForwardPolicy(repositories: repositories)
    policy.permissions = arguments.list("permission")
    do { _ = try policy.narrowing() } catch {
      throw UsageError((error.isAboutPermissions ? "--permission: " : "--repo: ") + error.message)
    }
    policy.host = arguments.value("host")
    policy.user = arguments.value("user")
    policy.ttl = try arguments.duration("ttl", in: ForwardPolicy.ttlRange)
    policy.confirm = arguments.flag("confirm")
    policy.maxTokens = try arguments.integer("max-tokens", in: 1...1_000_000)
    policy.name = arguments.value("name")
    policy.unscoped = arguments.flag("unscoped")
    if policy.unscoped && policy.ttl == nil {
      throw UsageError("--unscoped hands out the login's own token: give the forward a --ttl")
    }
    if let problem = policy.problem { throw UsageError(problem) }
    return policy
  }
}

extension ParsedArguments {
  /// The value of `--name` in the duration syntax (``DurationSyntax``: `N`, `Ns`, `Nm`, `Nh`),
  /// in seconds within `range`.
  func duration(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
    guard let text = values[name] else { return nil }
    guard let seconds = DurationSyntax.seconds(text), range.contains(seconds) else {
      throw UsageError(
        "--\(name) takes a duration from \(DurationSyntax.text(range.lowerBound)) to "
          + "\(DurationSyntax.text(range.upperBound)) (N seconds, Ns, Nm or Nh), not '"
          + Sanitize.terminal(text, maxCharacters: 40) + "'")
    }
    return seconds
  }
}
