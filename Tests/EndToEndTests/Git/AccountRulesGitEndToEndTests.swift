import Foundation
import GHLoginTestSupport
import Testing

/// Real git against Tests/Scripts/git_http_server.py with two accounts on one host (issue 33
/// §3, R112): which account each request carries is decided by where git runs, per process,
/// even when two trees fetch at the same moment. The server logs a token fingerprint
/// (SHA-256 prefix) and the account per request, never the token.
@Suite(.serialized) struct AccountRulesGitEndToEndTests {
  static let alice = "gho_GITalice00000000000000000000000000001"
  static let work = "gho_GITwork000000000000000000000000000002"

  let sandbox: GitSandbox
  let server: ChildProcess
  /// `127.0.0.1:PORT`.
  let host: String
  let certificates: String

  init() throws {
    sandbox = try GitSandbox()
    let served = sandbox.home + "/served"
    try GitHTTPServer.makeRepositories(
      ["work", "oss", "acme/api", "other/tool"], readme: "hello\n", served: served, in: sandbox)
    let server = try GitHTTPServer(
      served: served, accounts: [("alice", Self.alice), ("alice-work", Self.work)], in: sandbox)
    (self.server, host, certificates) = (server.process, server.host, server.certificates)
    // Both logins on the host, alice active (the default).
    let accounts = [
      CredentialsFile.account(login: "alice", userID: 1, token: Self.alice, scopes: ["repo"]),
      CredentialsFile.account(login: "alice-work", userID: 2, token: Self.work, scopes: ["repo"]),
    ]
    try CredentialsFile.write(hosts: [host: ["active": "alice", "accounts": accounts]], to: sandbox.credentialsFile)
    let setup = try sandbox.ghlogin(["setup-git", "--host", host])
    #expect(setup.status == 0, "\(setup.stderr)")
  }

  @discardableResult
  private static func run(_ sandbox: GitSandbox, _ arguments: [String], env: [String: String] = [:]) throws -> String {
    let result = try sandbox.git(arguments, env: env)
    #expect(result.status == 0, "git \(arguments): \(result.stderr)")
    return result.stdout
  }

  var gitTLS: [String: String] {
    ["GIT_SSL_CAINFO": certificates + "/ca.pem", "SSL_CERT_FILE": certificates + "/ca.pem"]
  }

  /// A tree at `~/PATH` (made from the local bare repository, so no credential is needed) whose
  /// origin is `https://HOST/REPO.git`.
  func tree(_ path: String, repository: String) throws {
    let directory = sandbox.home + "/" + path
    try FileManager.default.createDirectory(
      atPath: (directory as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Self.run(sandbox, ["clone", "-q", sandbox.home + "/served/" + repository + ".git", directory])
    try Self.run(sandbox, ["-C", directory, "remote", "set-url", "origin", "https://\(host)/\(repository).git"])
  }

  /// `git fetch` started in every one of `trees` at once, each awaited.
  func fetchTogether(_ trees: [String]) throws -> [(status: Int32, stdout: String, stderr: String)] {
    let git = try GitSandbox.program("git")
    let children = try trees.map {
      try ChildProcess(
        executable: git, arguments: ["-C", sandbox.home + "/" + $0, "fetch", "-q", "origin"],
        environment: sandbox.environment(gitTLS), stdin: "")
    }
    return try children.map { try $0.finish(timeout: 60) }
  }

  /// The server's log lines that carried credentials, as (path, user, fingerprint).
  func authorizedRequests() -> [(path: String, user: String, fingerprint: String)] {
    server.text(.stderr).split(separator: "\n").compactMap { line in
      let words = line.split(separator: " ").map(String.init)
      guard words.count >= 6, words[3] != "auth=none" else { return nil }
      return (words[2], String(words[4].dropFirst("user=".count)), String(words[5].dropFirst("fp=".count)))
    }
  }

  static func fingerprint(_ token: String) throws -> String {
    let sha = try GitSandbox.program("sha256sum")
    let result = try ChildProcess(executable: sha, arguments: [], environment: [:], stdin: token).finish(timeout: 10)
    return String(result.stdout.prefix(12))
  }

  /// 20 rounds of `git fetch` in the work tree and the oss tree at once: every request of the
  /// work tree carries alice-work's token, every one of the oss tree alice's.
  func checkRounds() throws {
    try tree("work/api", repository: "work")
    try tree("oss/tool", repository: "oss")
    for round in 1...20 {
      for result in try fetchTogether(["work/api", "oss/tool"]) {
        #expect(result.status == 0, "round \(round): \(result.stderr)")
      }
    }
    let requests = authorizedRequests()
    let (workPrint, alicePrint) = (try Self.fingerprint(Self.work), try Self.fingerprint(Self.alice))
    let work = requests.filter { $0.path.hasPrefix("/work.git/") }
    let oss = requests.filter { $0.path.hasPrefix("/oss.git/") }
    #expect(work.count >= 20 && oss.count >= 20, "\(requests.count) requests")
    #expect(work.allSatisfy { $0.user == "alice-work" && $0.fingerprint == workPrint }, "\(work)")
    #expect(oss.allSatisfy { $0.user == "alice" && $0.fingerprint == alicePrint }, "\(oss)")
    #expect(!server.text(.stderr).contains("auth=wrong"))
  }

  /// `includeIf "gitdir:~/work/"` sets `ghlogin.account`; no account rules.
  @Test func anIncludeIfInWorkChoosesTheWorkAccount() throws {
    try "[ghlogin]\n\taccount = alice-work\n".write(
      toFile: sandbox.home + "/gitconfig-work", atomically: false, encoding: .utf8)
    try Self.run(sandbox, ["config", "--global", "includeIf.gitdir:~/work/.path", sandbox.home + "/gitconfig-work"])
    try checkRounds()
    // Saying why: whoami's reason, without a request (the choice is made before it).
    let status = try sandbox.ghlogin(["status", "--json", "--offline", "--host", host])
    #expect(status.stdout.contains("\"default\""), "\(status.stdout)")
  }

  /// The built ghlogin run in `~/DIRECTORY`, trusting the test CA.
  func ghlogin(_ arguments: [String], in directory: String) throws -> (status: Int32, stdout: String, stderr: String) {
    try ChildProcess(
      executable: "/bin/sh",
      arguments: [
        "-c", #"cd "$1" && shift && exec "$@""#, "sh", sandbox.home + "/" + directory, try HarnessPaths.ghloginBinary(),
      ] + arguments,
      environment: sandbox.environment(gitTLS), stdin: ""
    ).finish(timeout: 30)
  }

  /// A `dir` rule for `~/work`; no git config. Then `whoami --explain` says the rule chose,
  /// `logout` says so too, and once the rule's account is gone nothing falls back to alice.
  @Test func aDirRuleChoosesTheWorkAccount() throws {
    try CredentialsFile.writePrivateFile(
      sandbox.home + "/.config/ghlogin/config.json",
      Array(#"{"account_rules": [{"dir": "~/work", "account": "alice-work"}]}"#.utf8))
    try checkRounds()
    let config = sandbox.home + "/.config/ghlogin/config.json"
    let explained = try ghlogin(["whoami", "--explain", "--host", host], in: "work/api")
    #expect(explained.status == 0, "\(explained.stderr)")
    #expect(
      explained.stdout
        == "alice-work on \(host)\nalice-work on \(host) chosen by account_rules[0] (dir ~/work) in \(config)\n")
    let plain = try ghlogin(["whoami", "--explain", "--host", host], in: "oss/tool")
    #expect(plain.stdout == "alice on \(host)\nalice on \(host) chosen by the host's default account\n")
    let logout = try ghlogin(["logout", "--local-only", "--host", host], in: "work/api")
    #expect(logout.status == 0, "\(logout.stderr)")
    #expect(logout.stderr.hasPrefix("alice-work on \(host) chosen by account_rules[0] (dir ~/work) in \(config)\n"))
    #expect(logout.stderr.contains("Logged out of \(host) as alice-work"))
    let after = try ghlogin(["token", "--host", host], in: "work/api")
    #expect(after.status == 4)
    #expect(after.stdout.isEmpty)
    #expect(after.stderr.contains("not logged in to \(host) as alice-work, chosen here by account_rules[0]"))
    #expect(try ghlogin(["token", "--host", host], in: "oss/tool").stdout == Self.alice + "\n")
  }

  /// An `owner` rule: git sends the path because `setup-git` set `credential.useHttpPath`.
  @Test func anOwnerRuleWithUseHttpPath() throws {
    let useHttpPath = try sandbox.git(["config", "--global", "--get", "credential.https://\(host).useHttpPath"])
    #expect(useHttpPath.stdout == "true\n")
    try CredentialsFile.writePrivateFile(
      sandbox.home + "/.config/ghlogin/config.json",
      Array(#"{"account_rules": [{"host": "\#(host)", "owner": "ACME", "account": "alice-work"}]}"#.utf8))
    try FileManager.default.createDirectory(atPath: sandbox.home + "/oss", withIntermediateDirectories: true)
    for repository in ["acme/api", "other/tool"] {
      let clone = try sandbox.git(
        ["-C", sandbox.home + "/oss", "clone", "-q", "https://\(host)/\(repository).git"], env: gitTLS)
      #expect(clone.status == 0, "\(clone.stderr)")
    }
    let requests = authorizedRequests()
    #expect(requests.contains { $0.path.hasPrefix("/acme/api.git/") })
    #expect(requests.filter { $0.path.hasPrefix("/acme/api.git/") }.allSatisfy { $0.user == "alice-work" })
    #expect(requests.filter { $0.path.hasPrefix("/other/tool.git/") }.allSatisfy { $0.user == "alice" })
    #expect(requests.contains { $0.path.hasPrefix("/other/tool.git/") })
    // --unset removes useHttpPath with the helper.
    #expect(try sandbox.ghlogin(["setup-git", "--unset", "--host", host]).status == 0)
    let after = try sandbox.git(["config", "--global", "--get", "credential.https://\(host).useHttpPath"])
    #expect(after.status == 1 && after.stdout.isEmpty)
  }

  /// A rule naming a logged-out account: git gets no credential (no request carries one), and
  /// the message names the login to make.
  @Test func aRuleNamingALoggedOutAccountGivesGitNothing() throws {
    try CredentialsFile.writePrivateFile(
      sandbox.home + "/.config/ghlogin/config.json",
      Array(#"{"account_rules": [{"dir": "~/work", "account": "bob"}]}"#.utf8))
    try tree("work/api", repository: "work")
    let fetch = try fetchTogether(["work/api"])[0]
    #expect(fetch.status != 0)
    #expect(fetch.stderr.contains("not logged in to \(host) as bob"), "\(fetch.stderr)")
    #expect(fetch.stderr.contains("ghlogin auth --host \(host) --user bob"), "\(fetch.stderr)")
    #expect(authorizedRequests().isEmpty)
  }
}
