import Foundation
import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// Completion scripts: generated from the declarations, and understood by the real shells
/// (bash always; zsh and fish when installed). `ghlogin` is a stub printing two hosts, one with
/// a port.
@Suite struct CompletionScriptsTests {
  let directory: TemporaryDirectory

  init() throws {
    directory = try TemporaryDirectory()
    // A stand-in for `ghlogin completion --hosts`, first on PATH.
    try writeFile(
      directory.at("ghlogin"),
      "#!/bin/sh\n[ \"$1 $2\" = \"completion --hosts\" ] && printf 'ghe.example.com:8443\\ngithub.com\\n'\n",
      mode: 0o700)
  }

  static let commands = GHLogin.commands.map { $0.configuration }

  static func hasShell(_ name: String) -> Bool {
    ["/usr/bin/", "/bin/", "/usr/local/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + name) }
  }

  /// Runs `shell arguments…` with the stub first on PATH; returns stdout, failing on a non-zero exit.
  func shell(_ shell: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [shell] + arguments
    process.environment = [
      "PATH": directory.path + ":/usr/local/bin:/usr/bin:/bin", "HOME": directory.path, "TERM": "dumb",
    ]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    let errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(String(decoding: errors, as: UTF8.self))")
    return String(decoding: data, as: UTF8.self)
  }

  @discardableResult
  func script(_ text: String, named name: String) throws -> String {
    let path = directory.at(name)
    try writeFile(path, text)
    return path
  }

  // MARK: - generation

  @Test func listsTheVisibleCommandsOnly() {
    for text in [
      CompletionScripts.bash(Self.commands), CompletionScripts.zsh(Self.commands),
      CompletionScripts.fish(Self.commands),
    ] {
      for name in [
        "auth", "whoami", "token", "env", "status", "logout", "refresh", "switch", "setup-git", "setup-docker",
        "completion",
        "version", "help",
      ] {
        #expect(text.contains(name))
      }
      #expect(!text.contains("git-credential"))
      #expect(!text.contains("docker-credential"))
      #expect(!text.contains("goauth"))
    }
  }

  @Test func followsTheDeclarations() {
    let demo = CommandConfiguration(
      name: "demo", abstract: "a [demo]: with 'quotes'",
      options: [
        .option("color", value: "COLOR", help: "Pick one", choices: ["red", "bad word", "$(rm)", "blue"]),
        .option("host", value: "HOST", help: "A host"), .flag("dry-run", short: "n", help: "Only pretend"),
      ],
      arguments: [ArgumentSpec("thing", help: "x", choices: ["one", "two"])])
    let hidden = CommandConfiguration(name: "secret", abstract: "hidden", isHidden: true)
    let bash = CompletionScripts.bash([demo, hidden])
    #expect(bash.contains("compgen -W 'demo -h --help --version'"))
    #expect(bash.contains("        --color) COMPREPLY=($(compgen -W 'red blue' -- \"$cur\")); return ;;\n"))
    #expect(bash.contains("        --host) COMPREPLY=($(compgen -W \"$(_ghlogin_hosts)\" -- \"$cur\")); return ;;\n"))
    #expect(bash.contains("      words='--color --host --dry-run -n --help -h'\n"))
    #expect(bash.contains("[[ $cur == -* ]] || words=\"$words one two\""))
    #expect(!bash.contains("secret"))
    #expect(!bash.contains("rm"))
    let zsh = CompletionScripts.zsh([demo])
    #expect(zsh.contains("'demo:a (demo)\\: with '\\''quotes'\\'''"))
    #expect(zsh.contains("'--color=[Pick one]:COLOR:(red blue)'"))
    #expect(zsh.contains("'--host=[A host]:HOST:_ghlogin_hosts'"))
    #expect(zsh.contains("'-n[Only pretend]'"))
    #expect(zsh.contains("':thing:(one two)'"))
    let fish = CompletionScripts.fish([demo])
    #expect(
      fish.contains(
        "complete -c ghlogin -n '__fish_seen_subcommand_from demo' -l color -x -a 'red blue' -d 'Pick one'\n"))
    #expect(fish.contains("-l host -x -a '(__ghlogin_hosts)' -d 'A host'\n"))
    #expect(fish.contains("-s n -l dry-run -d 'Only pretend'\n"))
    #expect(fish.contains("-a demo -d 'a [demo]: with \\'quotes\\''\n"))
  }

  @Test func theCommandPrintsEachScriptAndListsHosts() throws {
    #expect(runCommand(["completion", "bash"]).stdout == CompletionScripts.bash(Self.commands))
    #expect(runCommand(["completion", "zsh"]).stdout == CompletionScripts.zsh(Self.commands))
    #expect(runCommand(["completion", "fish"]).stdout == CompletionScripts.fish(Self.commands))
    #expect(runCommand(["completion"]).status == .usage)
    #expect(runCommand(["completion", "tcsh"]).status == .usage)
    #expect(runCommand(["completion", "bash", "--hosts"]).status == .usage)

    let fixture = try StoreFixture()
    var credentials = sampleCredentials(host: "github.com", sampleCredential())
    credentials.save(sampleCredential(), on: "ghe.example.com:8443")
    try fixture.store().update { $0 = credentials }
    let hosts = runCommand(["completion", "--hosts"], variables: ["HOME": fixture.home])
    #expect(hosts.status == .success)
    #expect(hosts.stdout == "ghe.example.com:8443\ngithub.com\n")
    // A broken store lists nothing, quietly.
    try writeFile(fixture.file, "{", mode: 0o600)
    let broken = runCommand(["completion", "--hosts"], variables: ["HOME": fixture.home])
    #expect(broken.status == .success)
    #expect(broken.stdout.isEmpty)
    #expect(broken.stderr.isEmpty)
  }

  // MARK: - real shells

  /// What bash's `_ghlogin` offers for the words typed so far (the last one being completed).
  func bashCompletions(_ words: [String]) throws -> [String] {
    let path = try script(CompletionScripts.bash(Self.commands), named: "ghlogin.bash")
    let array = words.map { ShellQuoting.quote($0, for: .sh) }.joined(separator: " ")
    let output = try shell(
      "bash",
      [
        "-c",
        "source \(path); COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1); _ghlogin; printf '%s\\n' \"${COMPREPLY[@]}\"",
      ])
    return output.split(separator: "\n").map(String.init)
  }

  @Test func bashCompletesCommandsOptionsAndValues() throws {
    #expect(try bashCompletions(["ghlogin", "s"]) == ["status", "switch", "setup-git", "setup-docker", "ssh"])
    #expect(try bashCompletions(["ghlogin", "env", "--s"]) == ["--shell"])
    #expect(try bashCompletions(["ghlogin", "env", "--shell", ""]) == ["sh", "fish", "powershell"])
    #expect(try bashCompletions(["ghlogin", "env", "--shell", "=", "f"]) == ["fish"])
    #expect(try bashCompletions(["ghlogin", "token", "--host", "gh"]) == ["ghe.example.com:8443"])
    #expect(try bashCompletions(["ghlogin", "token", "--host", ""]) == ["ghe.example.com:8443", "github.com"])
    #expect(try bashCompletions(["ghlogin", "completion", ""]) == ["--hosts", "--help", "-h", "bash", "zsh", "fish"])
    #expect(try bashCompletions(["ghlogin", "auth", "--scopes", ""]).isEmpty)
  }

  /// `-h` is the host where a command has `--host` (hosts follow it), and gh's
  /// `auth WORD` forms are offered after `auth`.
  @Test func dashHCompletesHostsAndAuthOffersGhsWords() throws {
    #expect(try bashCompletions(["ghlogin", "token", "-h", ""]) == ["ghe.example.com:8443", "github.com"])
    #expect(try bashCompletions(["ghlogin", "auth", "s"]) == ["status", "switch", "setup-git"])
    #expect(try bashCompletions(["ghlogin", "auth", "lo"]) == ["login", "logout"])
    #expect(try bashCompletions(["ghlogin", "completion", "-"]).contains("-h"))
  }

  @Test(.enabled(if: hasShell("fish"))) func fishCompletesCommandsOptionsAndValues() throws {
    let path = try script(CompletionScripts.fish(Self.commands), named: "ghlogin.fish")
    func complete(_ line: String) throws -> [String] {
      try shell("fish", ["--no-config", "-c", "source \(path); complete -C \(ShellQuoting.quote(line, for: .fish))"])
        .split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }
    #expect(try complete("ghlogin se") == ["setup-docker", "setup-git"])
    #expect(try complete("ghlogin env --shell ") == ["fish", "powershell", "sh"])
    #expect(try complete("ghlogin token --host ") == ["ghe.example.com:8443", "github.com"])
    #expect(try complete("ghlogin completion ").sorted() == ["bash", "fish", "zsh"])
    #expect(try complete("ghlogin setup-git --u") == ["--unset"])
  }

  @Test(
    .enabled(if: hasShell("zsh")),
    arguments: [
      ("ghlogin s", ["status", "switch", "setup-git", "setup-docker", "ssh"]),
      ("ghlogin env --shell ", ["sh", "fish", "powershell"]),
      ("ghlogin token --host=", ["ghe.example.com:8443", "github.com"]),
      // The port is kept (zsh's _describe cut the host at its colon).
      ("ghlogin status --host ghe", ["ghe.example.com:8443"]),
      ("ghlogin status --hostname ghe.example.com:", ["ghe.example.com:8443"]),
      ("ghlogin completion ", ["bash", "zsh", "fish"]),
    ])
  func zshCompletesInARealInteractiveShell(_ line: String, _ expected: [String]) throws {
    try script(CompletionScripts.zsh(Self.commands), named: "_ghlogin")
    let driver = repositoryRoot + "/Tests/Scripts/zsh_complete.zsh"
    let output = try shell("zsh", ["-f", driver, directory.path, line])
    #expect(output.split(separator: "\n").map(String.init) == expected)
  }

  /// Lines of `text` with runs of spaces squeezed to one.
  static func squeezed(_ text: String) -> [String] {
    text.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
  }

  /// A colon inside a description is escaped, so zsh shows `repo,read:org`
  /// (it showed `repo,read -org`).
  @Test(.enabled(if: hasShell("zsh"))) func zshShowsColonsInDescriptionsAsWritten() throws {
    let demo = CommandConfiguration(
      name: "demo", abstract: "scopes: repo,read:org",
      options: [.option("scopes", short: "s", value: "LIST", help: "Like repo,read:org", aliases: ["scope"])])
    try script(CompletionScripts.zsh([demo]), named: "_ghlogin")
    let driver = repositoryRoot + "/Tests/Scripts/zsh_complete.zsh"
    let commands = try shell("zsh", ["-f", driver, "-d", directory.path, "ghlogin "])
    #expect(Self.squeezed(commands) == ["demo scopes: repo,read:org"])
    let options = try shell("zsh", ["-f", driver, "-d", directory.path, "ghlogin demo -"])
    #expect(
      Self.squeezed(options).sorted() == [
        "--help Show this help and exit", "--scope Like repo,read:org", "--scopes Like repo,read:org",
        "-h Show this help and exit", "-s Like repo,read:org",
      ])
    // The real script: `login` is offered, described as auth.
    try script(CompletionScripts.zsh(Self.commands), named: "_ghlogin")
    let real = try shell("zsh", ["-f", driver, "-d", directory.path, "ghlogin "])
    #expect(Self.squeezed(real).contains { $0.hasPrefix("login same as auth: log in to a GitHub host") })
  }

  @Test func aliasesAreCompletedLikeTheirCommand() throws {
    #expect(try bashCompletions(["ghlogin", "lo"]) == ["login", "logout"])
    #expect(try bashCompletions(["ghlogin", "login", "--hostn"]) == ["--hostname"])
    #expect(try bashCompletions(["ghlogin", "token", "--hostname", "gh"]) == ["ghe.example.com:8443"])
    #expect(try bashCompletions(["ghlogin", "auth", "-s", ""]).isEmpty)
  }

  @Test(.enabled(if: hasShell("fish"))) func fishCompletesAliases() throws {
    let path = try script(CompletionScripts.fish(Self.commands), named: "ghlogin.fish")
    func complete(_ line: String) throws -> [String] {
      try shell("fish", ["--no-config", "-c", "source \(path); complete -C \(ShellQuoting.quote(line, for: .fish))"])
        .split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }
    #expect(try complete("ghlogin logi") == ["login"])
    #expect(try complete("ghlogin login --hostn") == ["--hostname"])
    #expect(try complete("ghlogin token --hostname ") == ["ghe.example.com:8443", "github.com"])
  }

  @Test(.enabled(if: hasShell("zsh"))) func zshLoadsTheScriptAndRegistersIt() throws {
    let path = try script(CompletionScripts.zsh(Self.commands), named: "_ghlogin")
    _ = try shell("zsh", ["-n", path])
    let registered = try shell(
      "zsh", ["-f", "-c", "autoload -U compinit; compinit -u -D; source \(path); print -r -- $_comps[ghlogin]"])
    #expect(registered == "_ghlogin\n")
  }
}
