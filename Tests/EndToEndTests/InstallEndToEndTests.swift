import Foundation
import GHLoginTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Install like a real tool (and R107: modes under any umask, no writing or removing through a
/// planted link): `scripts/install.sh` into a temporary DESTDIR, every file checked,
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
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: stage + "/usr/bin/docker-credential-ghlogin")
        == "ghlogin")
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

  // MARK: - R107: modes and links

  /// Every directory under `path` (itself included) with its mode, relative to `path`; links
  /// are not followed.
  static func directories(under path: String) throws -> [String: Int] {
    var found: [String: Int] = [:]
    func visit(_ relative: String) throws {
      let full = path + relative
      let attributes = try FileManager.default.attributesOfItem(atPath: full)
      guard attributes[.type] as? FileAttributeType == .typeDirectory else { return }
      found[relative.isEmpty ? "/" : relative] = attributes[.posixPermissions] as? Int
      for name in try FileManager.default.contentsOfDirectory(atPath: full) { try visit(relative + "/" + name) }
    }
    try visit("")
    return found
  }

  /// Under `umask 000` every directory install creates (DESTDIR's missing levels included) is
  /// 0755, and the files have their own modes; it was 0777.
  @Test func underUmask000EveryCreatedDirectoryIs0755() throws {
    let destination = stage + "/fresh/root"
    let result = try run(
      "sh", ["-c", "umask 000 && exec sh \"$0\"", Self.script],
      ["DESTDIR": destination, "PREFIX": "/usr", "BINARY": binary])
    #expect(result.status == 0, "\(result.stderr)")
    let directories = try Self.directories(under: stage + "/fresh")
    #expect(
      directories.keys.sorted() == [
        "/", "/root", "/root/usr", "/root/usr/bin", "/root/usr/share", "/root/usr/share/bash-completion",
        "/root/usr/share/bash-completion/completions", "/root/usr/share/fish",
        "/root/usr/share/fish/vendor_completions.d",
        "/root/usr/share/man", "/root/usr/share/man/man1", "/root/usr/share/zsh", "/root/usr/share/zsh/site-functions",
      ])
    for (directory, mode) in directories {
      #expect(mode == 0o755, "\(directory) is \(String(mode, radix: 8))")
    }
    for file in Self.files {
      let mode = try FileManager.default.attributesOfItem(atPath: destination + file.path)[.posixPermissions] as? Int
      #expect(mode == file.mode, "\(file.path)")
    }
  }

  /// A directory an existing install already has keeps its mode (install.sh only sets the
  /// mode of what it creates).
  @Test func existingDirectoriesKeepTheirMode() throws {
    try FileManager.default.createDirectory(
      atPath: stage + "/usr/bin", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o750])
    #expect(chmod(stage + "/usr/bin", 0o750) == 0)
    #expect(try install().status == 0)
    #expect(try Self.directories(under: stage)["/usr/bin"] == 0o750)
    #expect(try Self.directories(under: stage)["/usr/share/man/man1"] == 0o755)
  }

  /// A symbolic link to a directory planted anywhere on the way inside DESTDIR: install
  /// refuses before writing anything, names the link, exits 1, and nothing is written through
  /// it (nor anywhere else).
  @Test(arguments: [
    "/usr", "/usr/bin", "/usr/share", "/usr/share/man", "/usr/share/man/man1", "/usr/share/zsh/site-functions",
  ])
  func installRefusesASymlinkedDirectoryInDestdir(_ planted: String) throws {
    let elsewhere = try TemporaryDirectory(prefix: "ghlogin-elsewhere")
    try FileManager.default.createDirectory(
      atPath: stage + (planted as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    #expect(symlink(elsewhere.path, stage + planted) == 0)

    let result = try install()
    #expect(result.status == 1)
    #expect(result.stdout == "")
    #expect(
      result.stderr
        == "install.sh: refusing to install through \(stage)\(planted): it is a symbolic link (to \(elsewhere.path)); "
        + "nothing was installed. Make it a directory, or choose another DESTDIR or PREFIX\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == [], "written through the link")
    #expect(stagedFiles() == [])
  }

  /// The attack behind R107: after an install, `usr/share/man` is replaced by a link to
  /// a directory holding a root-owned `man1/ghlogin.1`; uninstall removes nothing at all (the
  /// file behind the link survives, byte-identical), names the link and exits 1.
  @Test func uninstallNeverRemovesThroughASymlinkedDirectory() throws {
    #expect(try install().status == 0)
    let elsewhere = try TemporaryDirectory(prefix: "ghlogin-elsewhere")
    try FileManager.default.createDirectory(atPath: elsewhere.path + "/man1", withIntermediateDirectories: false)
    let victim = elsewhere.path + "/man1/ghlogin.1"
    let victimBytes = Data(".TH SOMETHING ELSE 1\n".utf8)
    #expect(FileManager.default.createFile(atPath: victim, contents: victimBytes))
    #expect(chown(victim, 0, 0) == 0 || getuid() != 0)
    try FileManager.default.removeItem(atPath: stage + "/usr/share/man")
    #expect(symlink(elsewhere.path, stage + "/usr/share/man") == 0)

    let result = try install(["uninstall"])
    #expect(result.status == 1)
    #expect(result.stdout == "")
    #expect(
      result.stderr
        == "install.sh: refusing to remove anything through \(stage)/usr/share/man: it is a symbolic link "
        + "(to \(elsewhere.path)); nothing was removed. Remove the link, or the files behind it by hand\n")
    #expect(FileManager.default.contents(atPath: victim) == victimBytes)
    #expect(stagedFiles() == Self.files.map(\.path).filter { !$0.hasPrefix("/usr/share/man/") }.sorted())
  }

  /// uninstall removes only the regular files install writes: a link (even to a file) or a
  /// directory where a file was installed is refused, and nothing is removed; install refuses
  /// a directory where a file goes.
  @Test func uninstallRemovesOnlyWhatInstallWrites() throws {
    #expect(try install().status == 0)
    let victim = stage + "/victim"
    #expect(FileManager.default.createFile(atPath: victim, contents: Data("keep\n".utf8)))
    let page = stage + "/usr/share/man/man1/ghlogin.1"
    try FileManager.default.removeItem(atPath: page)
    #expect(symlink(victim, page) == 0)
    let linked = try install(["uninstall"])
    #expect(linked.status == 1)
    #expect(linked.stdout == "")
    #expect(
      linked.stderr
        == "install.sh: refusing to remove \(page): it is not the regular file install writes; nothing was removed\n")
    #expect(FileManager.default.contents(atPath: victim) == Data("keep\n".utf8))
    #expect(FileManager.default.fileExists(atPath: stage + "/usr/bin/ghlogin"))

    try FileManager.default.removeItem(atPath: page)
    try FileManager.default.createDirectory(atPath: page, withIntermediateDirectories: false)
    #expect(FileManager.default.createFile(atPath: page + "/inside", contents: Data()))
    let directory = try install(["uninstall"])
    #expect(directory.status == 1)
    #expect(
      directory.stderr
        == "install.sh: refusing to remove \(page): it is not the regular file install writes; nothing was removed\n")
    let reinstall = try install()
    #expect(reinstall.status == 1)
    #expect(reinstall.stdout == "")
    #expect(
      reinstall.stderr
        == "install.sh: refusing to install \(page): something other than a regular file is there; nothing was installed\n"
    )
    #expect(FileManager.default.fileExists(atPath: page + "/inside"))
  }

  @Test(arguments: [
    ("usr", "install.sh: PREFIX must be an absolute path, not 'usr'\n"),
    ("/usr/../etc", "install.sh: PREFIX must not contain . or .. ('/usr/../etc')\n"),
  ])
  func aPrefixThatCouldLeaveDestdirIsAUsageError(_ prefix: String, _ message: String) throws {
    for action in [[], ["uninstall"]] {
      let result = try run("sh", [Self.script] + action, ["DESTDIR": stage, "PREFIX": prefix, "BINARY": binary])
      #expect(result.status == 2)
      #expect(result.stderr == message)
      #expect(stagedFiles() == [])
    }
  }

  @Test func manRendersTheInstalledPageWithoutWarnings() throws {
    #expect(try install().status == 0)
    let page = stage + "/usr/share/man/man1/ghlogin.1"
    let rendered = try run("man", ["--warnings", "-l", page], ["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"])
    #expect(rendered.status == 0)
    #expect(rendered.stderr == "", "man warned")
    #expect(rendered.stdout.hasPrefix("GHLOGIN(1)"))
    for heading in [
      "NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "CONFIGURATION", "ENVIRONMENT", "FILES", "EXIT STATUS",
    ] {
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
      [
        "-f", HarnessPaths.packageRoot + "/Tests/Scripts/zsh_complete.zsh", stage + "/usr/share/zsh/site-functions",
        "ghlogin logi",
      ],
      env)
    #expect(zsh.stdout == "login\n", "\(zsh.stderr)")
    // fish: vendor_completions.d under an XDG data directory (HOME is the stage: no user config).
    let fish = try run("fish", ["-c", "complete -C 'ghlogin logi'"], env)
    #expect(fish.stdout.split(separator: "\t").first == "login", "\(fish.stdout) \(fish.stderr)")
  }

  /// With a login stored on `ghe.example.com:8443`, each installed completion
  /// (run by the real shell, listing hosts with the installed binary) completes `--host ghe` to
  /// exactly `ghe.example.com:8443`; zsh cut it at the colon.
  @Test func theInstalledCompletionsKeepAStoredHostsPort() throws {
    #expect(try install().status == 0)
    let credentials = stage + "/private/credentials.json"
    try FileManager.default.createDirectory(
      atPath: stage + "/private", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    try CredentialsFile.write(
      [
        "ghe.example.com:8443": (login: "octocat", userID: 1, token: "gho_portHostToken0123456789"),
        "github.com": (login: "octocat", userID: 1, token: "gho_portHostToken0123456789"),
      ], to: credentials)
    let env = [
      "PATH": stage + "/usr/bin:/usr/bin:/bin", "XDG_DATA_DIRS": stage + "/usr/share",
      "GHLOGIN_CREDENTIALS": credentials,
    ]
    #expect(try run("sh", ["-c", "ghlogin completion --hosts"], env).stdout == "ghe.example.com:8443\ngithub.com\n")

    let loader = "/usr/share/bash-completion/bash_completion"
    let bash = try run(
      "bash",
      [
        "-c",
        "source \(loader); __load_completion ghlogin; "
          + "COMP_WORDS=(ghlogin status --host ghe); COMP_CWORD=3; _ghlogin; printf '%s\\n' \"${COMPREPLY[@]}\"",
      ], env)
    #expect(bash.stdout == "ghe.example.com:8443\n", "\(bash.stderr)")
    let zsh = try run(
      "zsh",
      [
        "-f", HarnessPaths.packageRoot + "/Tests/Scripts/zsh_complete.zsh", stage + "/usr/share/zsh/site-functions",
        "ghlogin status --host ghe",
      ], env)
    #expect(zsh.stdout == "ghe.example.com:8443\n", "\(zsh.stderr)")
    let fish = try run("fish", ["-c", "complete -C 'ghlogin status --host ghe'"], env)
    #expect(
      fish.stdout.split(separator: "\n").map { $0.split(separator: "\t").first } == ["ghe.example.com:8443"],
      "\(fish.stdout) \(fish.stderr)")
  }
}
