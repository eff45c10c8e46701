import GHLoginTestSupport
import Testing

@testable import GHLoginCore

/// `account_rules` in the config (issue 33 §2, R112): what a load accepts, each refusal with
/// the rule's index, and a higher layer's list replacing a lower one's.
@Suite struct AccountRuleConfigTests {
  /// Loads `text` as the user's config (and `system` as the system file, when given).
  private func load(_ text: String, system: String? = nil) throws -> Config {
    let directory = try TemporaryDirectory()
    let file = directory.at("config.json")
    try writeFile(file, text)
    var variables = ["HOME": directory.path]
    if let system {
      try makeDirectory(directory.at("etc"), mode: 0o755)
      try makeDirectory(directory.at("etc/ghlogin"), mode: 0o755)
      try writeFile(directory.at("etc/ghlogin/config.json"), system, mode: 0o644)
      variables["XDG_CONFIG_DIRS"] = directory.at("etc")
    }
    let paths = ConfigPaths(configFile: file, credentialsFile: directory.at("credentials.json"), home: nil)
    return try Config.load(paths: paths, variables: EnvironmentVariables(variables))
  }

  /// The message (FILE for the path) of the load of `text`, which must fail with exit 2.
  private func refusal(_ text: String, unknownKeys: UnknownConfigKeys = .strict) throws -> String {
    let directory = try TemporaryDirectory()
    let file = directory.at("config.json")
    try writeFile(file, text)
    let paths = ConfigPaths(configFile: file, credentialsFile: directory.at("credentials.json"), home: nil)
    let error = try #require(throws: ConfigError.self) {
      try Config.load(paths: paths, variables: [:], unknownKeys: unknownKeys)
    }
    #expect(error.exitStatus == .usage)
    return error.message.replacingOccurrences(of: file, with: "FILE")
  }

  @Test func readsEachKindOfRule() throws {
    let config = try load(
      """
      {"account_rules": [{"host": "GitHub.com", "dir": "~/work", "account": "alice-work"},
                         {"owner": "acme", "account": "alice-work"}, {"dir": "/srv/oss", "account": "alice"}]}
      """)
    #expect(
      config.accountRules?.rules == [
        AccountRule(.directory("~/work"), account: "alice-work", host: "github.com"),
        AccountRule(.owner("acme"), account: "alice-work"),
        AccountRule(.directory("/srv/oss"), account: "alice"),
      ])
    #expect(config.accountRules?.file == config.file)
    #expect(config.entries.map(\.path) == ["account_rules"])
  }

  @Test func noRulesIsNil() throws {
    #expect(try load("{}").accountRules == nil)
    #expect(try load(#"{"account_rules": []}"#).accountRules?.rules == [])
  }

  @Test(
    arguments: [
      (
        #"{"account_rules": {"dir": "/w", "account": "a"}}"#,
        #"FILE: "account_rules" must be an array of rules such as [{"dir": "~/work", "account": "LOGIN"}]"#
      ),
      (#"{"account_rules": ["/w"]}"#, #"FILE: "account_rules[0]" must be an object"#),
      (
        #"{"account_rules": [{"dir": "/w", "account": "a"}, {"dir": "/x", "acount": "b"}]}"#,
        #"FILE: unknown key "account_rules[1].acount"; did you mean "account"?"#
      ),
      (
        #"{"account_rules": [{"dir": "/w", "owner": "acme", "account": "a"}]}"#,
        #"FILE: "account_rules[0]" has both "dir" and "owner"; give exactly one"#
      ),
      (
        #"{"account_rules": [{"dir": "/w", "account": "a"}, {"account": "b"}]}"#,
        #"FILE: "account_rules[1]" has neither "dir" nor "owner"; give exactly one"#
      ),
      (
        #"{"account_rules": [{"dir": "work", "account": "a"}]}"#,
        #"FILE: "account_rules[0].dir" must be an absolute path or start with ~/ (not a relative path)"#
      ),
      (
        #"{"account_rules": [{"dir": "~alice/work", "account": "a"}]}"#,
        #"FILE: "account_rules[0].dir" must be an absolute path or start with ~/ (not a relative path)"#
      ),
      (
        #"{"account_rules": [{"dir": "/w", "account": ""}]}"#,
        #"FILE: "account_rules[0].account" must be a login name, not empty and without spaces"#
      ),
      (#"{"account_rules": [{"dir": "/w"}]}"#, #"FILE: "account_rules[0]" has no "account"; name the login to use"#),
      (
        #"{"account_rules": [{"owner": "", "account": "a"}]}"#,
        #"FILE: "account_rules[0].owner" must be a user or organization name such as acme"#
      ),
      (
        #"{"account_rules": [{"owner": "acme", "account": "a", "host": "https://x/"}]}"#,
        #"FILE: "account_rules[0].host" must be a host name such as github.com or ghe.example.com"#
      ),
      (#"{"account_rules": [{"dir": 7, "account": "a"}]}"#, #"FILE: "account_rules[0].dir" must be a string"#),
      (
        #"{"hosts": {"github.com": {"account_rules": []}}}"#,
        #"FILE: "hosts.github.com.account_rules" is allowed only at the top level (a list for every host)"#
      ),
    ])
  func refusesWithTheRulesIndex(text: String, message: String) throws {
    #expect(try refusal(text) == message)
  }

  /// A lenient load (the commands that only read a token) still refuses a misplaced list:
  /// ignoring it would hand out another account.
  @Test func aLenientLoadRefusesRulesInAHostBlock() throws {
    #expect(
      try refusal(#"{"hosts": {"github.com": {"account_rules": []}}}"#, unknownKeys: .lenient)
        == #"FILE: "hosts.github.com.account_rules" is allowed only at the top level (a list for every host)"#)
  }

  /// The user's list replaces the system file's whole; with none of its own, the system's applies.
  @Test func aHigherLayersListReplacesALowerOnes() throws {
    let system = #"{"account_rules": [{"dir": "/srv", "account": "ops"}, {"owner": "acme", "account": "ops"}]}"#
    let both = try load(#"{"account_rules": [{"dir": "/home", "account": "me"}]}"#, system: system)
    #expect(both.accountRules?.rules == [AccountRule(.directory("/home"), account: "me")])
    #expect(both.accountRules?.file == both.file)
    let systemOnly = try load("{}", system: system)
    #expect(systemOnly.accountRules?.rules.count == 2)
    #expect(systemOnly.accountRules?.file == systemOnly.system?.file)
    let emptied = try load(#"{"account_rules": []}"#, system: system)
    #expect(emptied.accountRules?.rules == [])
  }

  @Test func theRuleAsJSONIsWhatTheFileHolds() {
    let rule = AccountRule(.directory("~/work"), account: "alice-work", host: "github.com")
    #expect(JSON.serialize(rule.json) == #"{"host":"github.com","dir":"~/work","account":"alice-work"}"#)
  }
}
