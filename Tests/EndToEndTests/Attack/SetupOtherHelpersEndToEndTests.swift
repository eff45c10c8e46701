import Foundation
import GHLoginTestSupport
import Testing

/// R109, T94 on the built binary: `setup-docker` and `setup-git` never replace another
/// program's helper without `--force` (the file byte-identical), `--unset` keeps it, and root
/// with another user's `HOME` never rewrites that user's file.
@Suite struct SetupOtherHelpersEndToEndTests {
  static let token = "gho_E2EotherHelpers000000000000000000001"
  static let ghHelper = "!/usr/bin/gh auth git-credential"
  static let gitWithGh = "[credential \"https://github.com\"]\n\thelper = \n\thelper = \(ghHelper)\n"
  static let asRoot = getuid() == 0
  static let nobody: UInt32 = 65534

  let git: GitSandbox

  init() throws {
    git = try GitSandbox()
    try git.seed([.init(host: "github.com", login: "octocat", token: Self.token)])
    try FileManager.default.createDirectory(
      atPath: git.home + "/.docker", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
  }

  var dockerConfig: String { git.home + "/.docker/config.json" }

  func write(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  func owner(_ path: String) throws -> UInt32 {
    var info = stat()
    guard stat(path, &info) == 0 else { throw HarnessError("cannot stat \(path)") }
    return info.st_uid
  }

  /// The values of `credential.https://HOST.helper` in the sandbox's global file.
  func helpers(_ host: String = "github.com") throws -> [String] {
    let run = try git.git(["config", "--global", "-z", "--get-all", "credential.https://\(host).helper"])
    return run.stdout.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
  }

  // MARK: another program's helper

  @Test func setupDockerRefusesToReplaceAnotherHelperAndUnsetKeepsIt() throws {
    let original = #"{"credHelpers": {"ghcr.io": "pass"}}"#
    try write(original, to: dockerConfig)
    let run = try git.ghlogin(["setup-docker"])
    #expect(run.status == 2, "\(run.stderr)")
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "ghlogin: \(dockerConfig): credHelpers.\"ghcr.io\" is \"pass\" (docker-credential-pass), "
        + "another program's credential helper; nothing was changed. To replace it with ghlogin, run "
        + "'ghlogin setup-docker --force'\n")
    #expect(bytes(dockerConfig) == Data(original.utf8))

    let unset = try git.ghlogin(["setup-docker", "--unset"])
    #expect(unset.status == 0, "\(unset.stderr)")
    #expect(unset.stdout == "")
    #expect(bytes(dockerConfig) == Data(original.utf8))

    let forced = try git.ghlogin(["setup-docker", "--force"])
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(forced.stdout == "")
    #expect(
      forced.stderr.hasPrefix(
        "Set ghlogin as the credential helper for ghcr.io, docker.pkg.github.com in \(dockerConfig).\n"
          + "Replaced: credHelpers.\"ghcr.io\" is \"pass\" (docker-credential-pass), another program's credential "
          + "helper.\n"), "\(forced.stderr)")
    let object = try JSONSerialization.jsonObject(with: try #require(bytes(dockerConfig))) as? [String: Any]
    #expect(object?["credHelpers"] as? [String: String] == ["ghcr.io": "ghlogin", "docker.pkg.github.com": "ghlogin"])
    #expect(!String(decoding: try #require(bytes(dockerConfig)), as: UTF8.self).contains(Self.token))
  }

  @Test func setupGitRefusesToReplaceGhsHelperAndUnsetKeepsIt() throws {
    try write(Self.gitWithGh, to: git.gitConfig)
    let run = try git.ghlogin(["setup-git", "--host", "github.com"])
    #expect(run.status == 2, "\(run.stderr)")
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "ghlogin: git's credential.https://github.com.helper is '\(Self.ghHelper)', another program's "
        + "credential helper; nothing was changed. To replace it with ghlogin, run "
        + "'ghlogin setup-git --host github.com --force'\n")
    #expect(bytes(git.gitConfig) == Data(Self.gitWithGh.utf8))

    let unset = try git.ghlogin(["setup-git", "--unset"])
    #expect(unset.status == 0, "\(unset.stderr)")
    #expect(
      unset.stderr == "ghlogin was not one of git's credential helpers for https://github.com; nothing to remove\n")
    #expect(bytes(git.gitConfig) == Data(Self.gitWithGh.utf8))

    let forced = try git.ghlogin(["setup-git", "--force"])
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(
      forced.stderr
        == "Configured git to use ghlogin for https://github.com\nReplaced: git's credential.https://github.com.helper "
        + "is '\(Self.ghHelper)', another program's credential helper.\n")
    let ours = try #require(try helpers().last)
    #expect(try helpers() == ["", ours])
    #expect(ours.hasSuffix("ghlogin' git-credential"))
  }

  /// ghlogin's own entries are not another program's: a second run changes nothing and asks for no --force.
  @Test func ghloginsOwnEntriesNeedNoForce() throws {
    #expect(try git.ghlogin(["setup-git"]).status == 0)
    let first = bytes(git.gitConfig)
    let again = try git.ghlogin(["setup-git"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(bytes(git.gitConfig) == first)
    #expect(try git.ghlogin(["setup-docker"]).status == 0)
    let docker = try git.ghlogin(["setup-docker"])
    #expect(docker.status == 0, "\(docker.stderr)")
    #expect(docker.stderr.hasPrefix("\(dockerConfig) already uses ghlogin for ghcr.io, docker.pkg.github.com.\n"))
  }

  // MARK: another user's file, as root

  func refusal(_ file: String, command: String) -> String {
    "ghlogin: refusing to change \(file): it belongs to nobody (uid 65534), "
      + "not to you (root, uid 0); nothing was changed. Run 'ghlogin \(command)' as nobody, without sudo\n"
  }

  @Test(.enabled(if: asRoot), arguments: [false, true])
  func setupDockerRefusesAnotherUsersFile(throughALink: Bool) throws {
    let target = throughALink ? git.home + "/dotfiles-docker.json" : dockerConfig
    try write("{}", to: target)
    if throughALink { try FileManager.default.createSymbolicLink(atPath: dockerConfig, withDestinationPath: target) }
    #expect(chown(target, Self.nobody, Self.nobody) == 0)
    let before = bytes(target)
    for arguments in [["setup-docker"], ["setup-docker", "--force"]] {
      let run = try git.ghlogin(arguments)
      #expect(run.status == 2, "\(run.stderr)")
      #expect(run.stdout == "")
      #expect(run.stderr == refusal(target, command: "setup-docker"))
      #expect(bytes(target) == before)
      #expect(try owner(target) == Self.nobody)
    }
  }

  /// The global file git would write: `GIT_CONFIG_GLOBAL`, else `~/.gitconfig`, else
  /// `$XDG_CONFIG_HOME/git/config` when only that exists.
  @Test(.enabled(if: asRoot), arguments: ["GIT_CONFIG_GLOBAL", "~/.gitconfig", "XDG"])
  func setupGitRefusesAnotherUsersFile(_ which: String) throws {
    var env = git.environment()
    let file: String
    switch which {
    case "GIT_CONFIG_GLOBAL": file = git.gitConfig
    case "~/.gitconfig":
      file = git.home + "/.gitconfig"
      env["GIT_CONFIG_GLOBAL"] = nil
    default:
      try FileManager.default.createDirectory(atPath: git.home + "/.config/git", withIntermediateDirectories: false)
      file = git.home + "/.config/git/config"
      env["GIT_CONFIG_GLOBAL"] = nil
    }
    try write("[user]\n\tname = Someone\n", to: file)
    #expect(chown(file, Self.nobody, Self.nobody) == 0)
    let before = bytes(file)
    for arguments in [["setup-git"], ["setup-git", "--unset"]] {
      let run = try runGHLogin(arguments, env: env)
      #expect(run.status == 2, "\(run.stderr)")
      #expect(run.stdout == "")
      #expect(run.stderr == refusal(file, command: arguments.joined(separator: " ")))
      #expect(bytes(file) == before)
      #expect(try owner(file) == Self.nobody)
    }
  }
}
