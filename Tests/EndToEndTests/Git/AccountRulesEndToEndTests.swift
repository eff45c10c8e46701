import Foundation
import GHLoginTestSupport
import Testing

/// The account rules on the built binary (issue 33 §2–3, R112, T97): a rule naming a
/// logged-out account never falls back, in every entry point; `dir` rules for the container
/// and Go helpers.
@Suite struct AccountRulesEndToEndTests {
  static let alice = "gho_RULESalice000000000000000000000000001"
  static let work = "gho_RULESwork0000000000000000000000000002"

  let sandbox: GitSandbox

  init() throws {
    sandbox = try GitSandbox()
    for name in ["work", "work/api", "workshop", "oss"] {
      try FileManager.default.createDirectory(atPath: sandbox.home + "/" + name, withIntermediateDirectories: true)
    }
  }

  /// `logins` on github.com (the first active), and `rules` as the config's `account_rules`.
  func seed(_ logins: [(String, String)], rules: String?) throws {
    let accounts = logins.enumerated().map { index, login in
      CredentialsFile.account(login: login.0, userID: index + 1, token: login.1, scopes: ["repo", "read:packages"])
    }
    try CredentialsFile.write(
      hosts: ["github.com": ["active": logins[0].0, "accounts": accounts]], to: sandbox.credentialsFile)
    if let rules {
      try CredentialsFile.writePrivateFile(
        sandbox.home + "/.config/ghlogin/config.json", Array(#"{"account_rules": \#(rules)}"#.utf8))
    }
  }

  /// The built ghlogin run with `arguments` in `directory` (under HOME).
  func ghlogin(_ arguments: [String], in directory: String, stdin: String = "") throws
    -> (status: Int32, stdout: String, stderr: String)
  {
    let binary = try HarnessPaths.ghloginBinary()
    return try ChildProcess(
      executable: "/bin/sh",
      arguments: ["-c", #"cd "$1" && shift && exec "$@""#, "sh", sandbox.home + "/" + directory, binary]
        + arguments,
      environment: sandbox.environment(), stdin: stdin
    ).finish(timeout: 30)
  }

  /// T97: a `dir` rule names bob, who is not logged in; alice is the host's one login.
  @Test func aRuleNamingALoggedOutAccountFailsEverywhereNamingIt() throws {
    try seed([("alice", Self.alice)], rules: #"[{"dir": "~/work", "account": "bob"}]"#)
    let token = try ghlogin(["token"], in: "work/api")
    #expect(token.status == 4)
    #expect(token.stdout.isEmpty)
    #expect(
      token.stderr.contains("not logged in to github.com as bob, chosen here by account_rules[0] (dir ~/work)"),
      "\(token.stderr)")
    #expect(token.stderr.contains("run 'ghlogin auth --user bob'") || token.stderr.contains("--user bob"))
    for (arguments, stdin) in [
      (["token"], ""), (["env"], ""), (["git-credential", "get"], "protocol=https\nhost=github.com\n\n"),
      (["docker-credential", "get"], "ghcr.io"), (["goauth", "https://github.com/acme/mod/@v/list"], ""),
    ] {
      let result = try ghlogin(arguments, in: "work", stdin: stdin)
      #expect(!result.stdout.contains(Self.alice) && !result.stderr.contains(Self.alice), "\(arguments)")
      #expect(result.stderr.contains("bob"), "\(arguments): \(result.stderr)")
    }
    // The helpers answer with their protocol's "nothing".
    let git = try ghlogin(["git-credential", "get"], in: "work", stdin: "protocol=https\nhost=github.com\n\n")
    #expect(git.status == 0 && git.stdout.isEmpty)
    let docker = try ghlogin(["docker-credential", "get"], in: "work", stdin: "ghcr.io")
    #expect(docker.stdout.contains("credentials not found in native keychain"))
    let go = try ghlogin(["goauth", "https://github.com/acme/mod/@v/list"], in: "work")
    #expect(go.status == 0 && go.stdout.isEmpty)
    // Outside the rule's directory (and in ~/workshop, which only starts like it) alice is used.
    for directory in ["oss", "workshop"] {
      let outside = try ghlogin(["token"], in: directory)
      #expect(outside.status == 0)
      #expect(outside.stdout == Self.alice + "\n")
    }
  }

  /// `docker-credential-ghlogin get` and `goauth` in two directories with `dir` rules answer
  /// with the two accounts' tokens; `whoami --explain`'s reason comes from the same choice.
  @Test func theHelpersAnswerWithEachDirectorysAccount() throws {
    try seed(
      [("alice-work", Self.work), ("alice", Self.alice)],
      rules:
        #"[{"dir": "~/work", "account": "alice-work"}, {"host": "github.com", "dir": "~/oss", "account": "alice"}]"#)
    for (directory, token) in [("work/api", Self.work), ("oss", Self.alice)] {
      let docker = try ghlogin(["docker-credential", "get"], in: directory, stdin: "ghcr.io")
      #expect(docker.status == 0, "\(docker.stderr)")
      #expect(docker.stdout.contains("\"Secret\":\"\(token)\""), "\(directory): \(docker.stdout)")
      let go = try ghlogin(["goauth", "https://github.com/acme/mod/@v/list"], in: directory)
      let basic = Data("\(directory == "oss" ? "alice" : "alice-work"):\(token)".utf8).base64EncodedString()
      #expect(go.stdout.contains("Authorization: Basic \(basic)"), "\(directory): \(go.stdout) \(go.stderr)")
      let printed = try ghlogin(["token"], in: directory)
      #expect(printed.stdout == token + "\n")
    }
    let status = try ghlogin(["status", "--json", "--offline"], in: "oss")
    let document = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
    let chosen = ((document?["hosts"] as? [String: Any])?["github.com"] as? [String: Any])?["chosen"] as? [String: Any]
    #expect(chosen?["login"] as? String == "alice")
    #expect(chosen?["chosen_by"] as? String == "account_rules")
    let defaulted = try ghlogin(["status", "--json", "--offline"], in: "workshop")
    #expect(
      defaulted.stdout.contains(#""chosen_by" : "default""#) || defaulted.stdout.contains(#""chosen_by": "default""#))
  }

  /// `config set account_rules` validates rule by rule (nothing written on a refusal) and
  /// `config get` prints the list as JSON.
  @Test func configSetValidatesAndGetPrintsJSON() throws {
    let bad = try ghlogin(
      ["config", "set", "account_rules", #"[{"dir": "~/w", "account": "a"}, {"dir": "w", "account": "b"}]"#], in: "")
    #expect(bad.status == 2)
    #expect(bad.stderr.contains(#""account_rules[1].dir" must be an absolute path or start with ~/"#), "\(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: sandbox.home + "/.config/ghlogin/config.json"))
    let notJSON = try ghlogin(["config", "set", "account_rules", "~/work=alice"], in: "")
    #expect(notJSON.status == 2)
    #expect(!FileManager.default.fileExists(atPath: sandbox.home + "/.config/ghlogin/config.json"))
    let inBlock = try ghlogin(["config", "set", "--host", "github.com", "account_rules", "[]"], in: "")
    #expect(inBlock.status == 2)
    #expect(inBlock.stderr.contains("account_rules is a top-level key; leave out --host"), "\(inBlock.stderr)")
    let good = try ghlogin(
      ["config", "set", "account_rules", #"[{"owner": "acme", "account": "alice-work"}]"#], in: "")
    #expect(good.status == 0, "\(good.stderr)")
    let got = try ghlogin(["config", "get", "account_rules"], in: "")
    #expect(got.stdout == #"[{"owner":"acme","account":"alice-work"}]"# + "\n")
    let list = try ghlogin(["config", "list"], in: "")
    #expect(list.stdout.hasPrefix(#"account_rules=[{"owner":"acme","account":"alice-work"}]"#), "\(list.stdout)")
  }
}
