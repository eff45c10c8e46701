import Foundation
import GHLoginTestSupport
import Testing

/// Issue 14, items 8 and 9: `scripts/install.sh` into a temporary DESTDIR, every file checked,
/// the man page rendered by `man` without warnings, the installed completions found where
/// bash-completion, zsh and fish look for them, and `uninstall` removing exactly those files.
/// The tools are required (`.ci/run` installs them): a missing one fails, it does not skip.
@Suite struct InstallEndToEndTests {
  private let root: TemporaryDirectory
  var stage: String { root.path }
  let binary: String
  static let script = HarnessPaths.packageRoot + "/scripts/install.sh"
  static let committedPage = HarnessPaths.packageRoot + "/doc/ghlogin.1"

  init() throws {
    root = try TemporaryDirectory(prefix: "ghlogin-stage")
    binary = try HarnessPaths.ghloginBinary()
  }

  /// The installed files, relative to DESTDIR, with their modes.
  static let files: [(path: String, mode: Int)] = [
    ("/usr/bin/ghlogin", 0o755),
    ("/usr/bin/docker-credential-ghlogin", 0o777),  // a link to ghlogin (lstat's mode)
    ("/usr/share/man/man1/ghlogin.1", 0o644),
    ("/usr/share/bash-completion/completions/ghlogin", 0o644),
    ("/usr/share/zsh/site-functions/_ghlogin", 0o644),
    ("/usr/share/fish/vendor_completions.d/ghlogin.fish", 0o644),
  ]

  /// Runs `program arguments` (found on PATH) with `environment` added to a plain one.
  func run(_ program: String, _ arguments: [String], _ environment: [String: String] = [:]) throws
    -> (status: Int32, stdout: String, stderr: String)
  {
    let path = "/usr/local/bin:/usr/bin:/bin"
    let executable = try #require(
      path.split(separator: ":").map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) },
      "\(program) is not installed (.ci/run installs it)")
    let env = ["PATH": path, "HOME": stage, "LANG": "C.UTF-8"].merging(environment) { $1 }
    return try ChildProcess(executable: executable, arguments: arguments, environment: env, stdin: "")
      .finish(timeout: 60)
  }

  func install(_ action: [String] = []) throws -> (status: Int32, stdout: String, stderr: String) {
    try run("sh", [Self.script] + action, ["DESTDIR": stage, "PREFIX": "/usr", "BINARY": binary])
  }

  /// Every regular file under the stage, relative to it.
  func stagedFiles() -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: stage)
    var files: [String] = []
    while let item = enumerator?.nextObject() as? String {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: stage + "/" + item, isDirectory: &isDirectory), !isDirectory.boolValue {
        files.append("/" + item)
      }
    }
    return files.sorted()
  }

  @Test func theCommittedManPageIsTheOneTheDeclarationsMake() throws {
    let generated = try runGHLogin(["man-page"], env: ["PATH": "/usr/bin:/bin"])
    #expect(generated.status == 0)
    let committed = try String(contentsOfFile: Self.committedPage, encoding: .utf8)
    #expect(
      generated.stdout == committed,
      "doc/ghlogin.1 is stale: run  .build/debug/ghlogin man-page > doc/ghlogin.1")
  }

  @Test func installPutsEveryFileInPlaceAndUninstallRemovesThem() throws {
    let installed = try install()
    #expect(installed.status == 0, "\(installed.stderr)")
    #expect(installed.stderr == "")
    #expect(installed.stdout == Self.files.map { "installed \(stage)\($0.path)\n" }.joined())
    #expect(stagedFiles() == Self.files.map(\.path).sorted())
    for file in Self.files {
      let mode = try FileManager.default.attributesOfItem(atPath: stage + file.path)[.posixPermissions] as? Int
      #expect(mode == file.mode, "\(file.path)")
    }
    let contents = { (path: String) in FileManager.default.contents(atPath: path) }
    #expect(contents(stage + "/usr/bin/ghlogin") == contents(binary))
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: stage + "/usr/bin/docker-credential-ghlogin") == "ghlogin")
    #expect(contents(stage + "/usr/share/man/man1/ghlogin.1") == contents(Self.committedPage))
    for (shell, path) in [
      ("bash", "/usr/share/bash-completion/completions/ghlogin"), ("zsh", "/usr/share/zsh/site-functions/_ghlogin"),
      ("fish", "/usr/share/fish/vendor_completions.d/ghlogin.fish"),
    ] {
      let script = try runGHLogin(["completion", shell], env: ["PATH": "/usr/bin:/bin"]).stdout
      #expect(contents(stage + path) == Data(script.utf8), "\(shell)")
    }

    let removed = try install(["uninstall"])
    #expect(removed.status == 0)
    #expect(removed.stderr.contains("run 'ghlogin setup-docker --unset' before uninstalling"))
    #expect(removed.stdout == Self.files.map { "removed \(stage)\($0.path)\n" }.joined())
    #expect(stagedFiles() == [])
    #expect(try install(["uninstall"]) == (0, "", ""))
  }

  @Test func aMissingBinaryInstallsNothing() throws {
    let result = try run(
      "sh", [Self.script], ["DESTDIR": stage, "PREFIX": "/usr", "BINARY": stage + "/no-such-ghlogin"])
    #expect(result.status == 2)
    #expect(
      result.stderr == "install.sh: \(stage)/no-such-ghlogin is missing; build it first:\n"
        + "  scripts/build-release.sh\n")
    #expect(stagedFiles() == [])
  }

  @Test func manRendersTheInstalledPageWithoutWarnings() throws {
    #expect(try install().status == 0)
    let page = stage + "/usr/share/man/man1/ghlogin.1"
    let rendered = try run("man", ["--warnings", "-l", page], ["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"])
    #expect(rendered.status == 0)
    #expect(rendered.stderr == "", "man warned")
    #expect(rendered.stdout.hasPrefix("GHLOGIN(1)"))
    for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "CONFIGURATION", "ENVIRONMENT", "FILES", "EXIT STATUS"] {
      #expect(rendered.stdout.contains("\n\(heading)\n"), "\(heading)")
    }
    #expect(rendered.stdout.contains("--host, --hostname HOST"))
    #expect(rendered.stdout.contains("143"))
  }

  @Test func theInstalledCompletionsAreFoundWhereEachShellLooks() throws {
    #expect(try install().status == 0)
    let env = ["PATH": stage + "/usr/bin:/usr/bin:/bin", "XDG_DATA_DIRS": stage + "/usr/share"]
    // bash-completion loads completions/ghlogin on first use.
    let loader = "/usr/share/bash-completion/bash_completion"
    #expect(FileManager.default.fileExists(atPath: loader), "bash-completion is not installed (.ci/run installs it)")
    let bash = try run(
      "bash",
      [
        "-c",
        "source \(loader); __load_completion ghlogin; complete -p ghlogin; "
          + "COMP_WORDS=(ghlogin logi); COMP_CWORD=1; _ghlogin; echo \"${COMPREPLY[@]}\"",
      ], env)
    #expect(bash.stdout == "complete -F _ghlogin ghlogin\nlogin\n", "\(bash.stderr)")
    // zsh: the directory is on $fpath (as $PREFIX/share/zsh/site-functions is by default).
    let zsh = try run(
      "zsh",
      ["-f", HarnessPaths.packageRoot + "/Tests/Scripts/zsh_complete.zsh", stage + "/usr/share/zsh/site-functions", "ghlogin logi"],
      env)
    #expect(zsh.stdout == "login\n", "\(zsh.stderr)")
    // fish: vendor_completions.d under an XDG data directory (HOME is the stage: no user config).
    let fish = try run("fish", ["-c", "complete -C 'ghlogin logi'"], env)
    #expect(fish.stdout.split(separator: "\t").first == "login", "\(fish.stdout) \(fish.stderr)")
  }
}
