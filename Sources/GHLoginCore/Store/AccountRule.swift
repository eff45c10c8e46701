/// One entry of the config's `account_rules` (issue 33 §2, R112): the account to use on a host
/// when the working directory is at or below `dir`, or when the repository's owner is `owner`.
///
/// A rule has exactly one of `dir` and `owner`, a non-empty `account` and optionally a `host`
/// (any host when absent). `account_rules` is a top-level list only; a higher config layer's
/// list replaces a lower one's whole (``Config/accountRules``).
package struct AccountRule: Sendable, Equatable {
  /// What the rule matches.
  package enum Match: Sendable, Equatable {
    /// The working directory is this directory or below it, by whole path components: an
    /// absolute path, `~` or `~/…` as written in the config (expanded when matched).
    case directory(String)
    /// The repository owner in the request's path (case-insensitive).
    case owner(String)
  }

  package var match: Match
  /// The account (login) the rule chooses.
  package var account: String
  /// The host the rule is for, normalised (``ConfigDecoder/normalizedHost(_:)``); nil: every host.
  package var host: String?

  package init(_ match: Match, account: String, host: String? = nil) {
    self.match = match
    self.account = account
    self.host = host
  }

  /// The keys a rule may have.
  package static let keys = ["dir", "owner", "account", "host"]

  /// The rule as the config file holds it (what `config get account_rules` prints).
  package var json: JSONValue {
    var object = JSONObject()
    if let host { object["host"] = .string(host) }
    switch match {
    case .directory(let directory): object["dir"] = .string(directory)
    case .owner(let owner): object["owner"] = .string(owner)
    }
    object["account"] = .string(account)
    return .object(object)
  }

  /// Whether the rule applies to `host`.
  package func applies(to host: String) -> Bool { self.host.map { $0 == host } ?? true }

  /// The rule's directory with `~` expanded against `home` and resolved with realpath; nil for
  /// an `owner` rule, or when the directory does not exist (then nothing can be below it).
  package func resolvedDirectory(home: String?) -> String? {
    guard case .directory(let written) = match else { return nil }
    var path = written
    if path == "~" || path.hasPrefix("~/") {
      guard let home, home.hasPrefix("/") else { return nil }
      path = home + path.dropFirst()
    }
    return FileSystem.realPath(path)
  }

  /// Whether `directory` (already resolved with realpath) is `root` or below it, by whole path
  /// components: `/home/a/work` holds `/home/a/work/x`, never `/home/a/workshop`.
  package static func directory(_ directory: String, isWithin root: String) -> Bool {
    if root == "/" { return directory.hasPrefix("/") }
    guard directory.hasPrefix(root) else { return false }
    let rest = directory.utf8.dropFirst(root.utf8.count)
    return rest.isEmpty || rest.first == UInt8(ascii: "/")
  }

  /// Whether this `owner` rule names the owner of the repository at `path` (git's `path=`, such
  /// as `acme/api.git`; case-insensitive, as GitHub's names are).
  package func matchesOwner(ofPath path: String) -> Bool {
    guard case .owner(let owner) = match, let requested = Self.owner(ofPath: path) else { return false }
    return requested.lowercased() == owner.lowercased()
  }

  /// The owner in a request path: its first non-empty component (`acme` of `acme/api.git` or
  /// `/acme/api`); nil when there is none.
  package static func owner(ofPath path: String) -> String? {
    path.split(separator: "/").first.map(String.init)
  }
}

extension ConfigDecoder {
  /// The top-level `account_rules`: an array of rules, each checked with its index in the
  /// message (`account_rules[1].dir must be an absolute path …`).
  package func accountRules(_ value: JSONValue) throws(ConfigError) -> [AccountRule] {
    let key = "account_rules"
    guard let elements = value.arrayValue else {
      throw .wrongType(
        file: file, key: key, expected: "an array of rules such as [{\"dir\": \"~/work\", \"account\": \"LOGIN\"}]")
    }
    var rules: [AccountRule] = []
    for (index, element) in elements.enumerated() {
      let path = "\(key)[\(index)]"
      guard let object = element.objectValue else { throw .wrongType(file: file, key: path, expected: "an object") }
      for name in object.keys where !AccountRule.keys.contains(name) {
        throw .unknownKey(
          file: file, key: path + "." + Self.display(name),
          suggestion: nearestCandidate(to: name, among: AccountRule.keys))
      }
      func text(_ name: String) throws(ConfigError) -> String? {
        guard let value = object[name] else { return nil }
        guard let text = value.stringValue else {
          throw .wrongType(file: file, key: "\(path).\(name)", expected: "a string")
        }
        return text
      }
      let directory = try text("dir")
      let owner = try text("owner")
      let match: AccountRule.Match
      switch (directory, owner) {
      case (.some, .some):
        throw .invalidValue(file: file, key: path, reason: "has both \"dir\" and \"owner\"; give exactly one")
      case (nil, nil):
        throw .invalidValue(file: file, key: path, reason: "has neither \"dir\" nor \"owner\"; give exactly one")
      case (let directory?, nil):
        guard directory.hasPrefix("/") || directory == "~" || directory.hasPrefix("~/"),
          !directory.unicodeScalars.contains(where: Self.isControl)
        else {
          throw .invalidValue(
            file: file, key: path + ".dir", reason: "must be an absolute path or start with ~/ (not a relative path)")
        }
        match = .directory(directory)
      case (nil, let owner?):
        guard Self.isCredentialText(owner), !owner.contains("/") else {
          throw .invalidValue(
            file: file, key: path + ".owner", reason: "must be a user or organization name such as acme")
        }
        match = .owner(owner)
      }
      guard let account = try text("account") else {
        throw .invalidValue(file: file, key: path, reason: "has no \"account\"; name the login to use")
      }
      guard Self.isCredentialText(account) else {
        throw .invalidValue(
          file: file, key: path + ".account", reason: "must be a login name, not empty and without spaces")
      }
      var host: String?
      if let written = try text("host") {
        guard let name = Self.normalizedHost(written) else {
          throw .invalidValue(
            file: file, key: path + ".host", reason: "must be a host name such as github.com or ghe.example.com")
        }
        host = name
      }
      rules.append(AccountRule(match, account: account, host: host))
    }
    return rules
  }
}

extension Config {
  /// The `account_rules` in effect and the file they come from: the user's file's list, else
  /// the system file's (a higher layer's list replaces a lower one's whole); nil when neither
  /// has one.
  package var accountRules: (rules: [AccountRule], file: String)? {
    if let rules = userAccountRules { return (rules, file) }
    if let system, let rules = system.accountRules { return (rules, system.file) }
    return nil
  }
}
