/// git's global configuration, changed by running `git config --global` (never by editing the
/// file ourselves: git knows where it lives — `GIT_CONFIG_GLOBAL`, `XDG_CONFIG_HOME`, `HOME` —
/// and how to lock and quote it).
package struct GitConfig {
  /// The absolute path of `git`.
  package let git: String
  /// The environment git runs with (the command's own, so `HOME` and `GIT_CONFIG_GLOBAL` count).
  package let environment: EnvironmentVariables

  /// `git` was not found, or `git config` failed: exit 1, with git's own words.
  package struct Failure: ReportableError, Equatable {
    package var message: String
    package var exitStatus: ExitStatus { .failure }
    package var errorKind: ErrorKind { .system }
  }

  /// Finds `git` on the `PATH` of `environment`.
  package init(environment: EnvironmentVariables) throws(Failure) {
    guard let git = Subprocess.find("git", path: environment["PATH"]) else {
      throw Failure(message: "git was not found on PATH; install git, then run this again")
    }
    self.git = git
    self.environment = environment
  }

  /// The global file `git config --global` writes: `GIT_CONFIG_GLOBAL`; else `~/.gitconfig`,
  /// unless it is missing and `$XDG_CONFIG_HOME/git/config` (default `~/.config/git/config`)
  /// exists. What `setup-git` checks the owner of (R109).
  package var globalFile: String {
    if let named = environment["GIT_CONFIG_GLOBAL"], !named.isEmpty { return named }
    let home = environment["HOME"] ?? ""
    let dotfile = FilePath.join(home, ".gitconfig")
    let xdgHome = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FilePath.join(home, ".config")
    let xdg = FilePath.join(xdgHome, "git/config")
    if (try? FileSystem.status(dotfile)) == nil, (try? FileSystem.status(xdg)) != nil { return xdg }
    return dotfile
  }

  /// `credential.https://HOST.helper`: the helper list git uses for that host over HTTPS.
  package static func helperKey(for host: GitHubHost) -> String { "credential.https://\(host.name).helper" }

  /// `credential.https://HOST.useHttpPath`: with it true, git sends the repository's path
  /// with each request, which `owner` account rules need (R112).
  package static func useHttpPathKey(for host: GitHubHost) -> String {
    "credential.https://\(host.name).useHttpPath"
  }

  /// The value that makes git run `ghlogin git-credential OPERATION` through its shell:
  /// `!'PATH' git-credential`, the path single-quoted for sh so spaces and quotes survive.
  package static func helperValue(executable: String) -> String {
    "!" + ShellQuoting.quote(executable, for: .sh) + " git-credential"
  }

  /// Whether `value` is a helper entry ghlogin wrote, for this or an earlier install path:
  /// `!'…ghlogin' git-credential`.
  package static func isGHLoginHelper(_ value: String, current: String) -> Bool {
    value == current || (value.hasPrefix("!'") && value.hasSuffix(ProductNames.gitHelperSuffix))
  }

  /// Every value of `key` (`git config --global -z --get-all`); empty when it is not set.
  package func values(_ key: String) throws(Failure) -> [String] {
    let result = try git(["config", "--global", "-z", "--get-all", key], allowing: [1])
    guard result.status == 0 else { return [] }
    return result.stdout.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  /// Replaces every value of `key` with the empty string (`--replace-all`): git then forgets
  /// the helpers configured for the host in less specific places (gitcredentials, "helper").
  package func reset(_ key: String) throws(Failure) {
    _ = try git(["config", "--global", "--replace-all", key, ""])
  }

  /// Sets `key` to `value` alone (`--replace-all`).
  package func set(_ key: String, _ value: String) throws(Failure) {
    _ = try git(["config", "--global", "--replace-all", key, value])
  }

  /// Adds one more value to `key` (`--add`).
  package func add(_ key: String, _ value: String) throws(Failure) {
    _ = try git(["config", "--global", "--add", key, value])
  }

  /// Removes every value of `key` equal to `value` (`--fixed-value --unset-all`).
  package func remove(_ key: String, value: String) throws(Failure) {
    _ = try git(["config", "--global", "--fixed-value", "--unset-all", key, value], allowing: [5])
  }

  /// Runs `git ARGUMENTS`; a status other than 0 or `allowing` becomes a ``Failure``.
  private func git(_ arguments: [String], allowing: Set<Int32> = []) throws(Failure) -> Subprocess.Result {
    let result: Subprocess.Result
    do {
      result = try Subprocess.run(git, arguments, environment: environment.all)
    } catch {
      throw Failure(message: "could not run \(git): \(error.reason)")
    }
    guard result.status == 0 || allowing.contains(result.status) else {
      let said = Sanitize.terminal(String(decoding: result.stderr, as: UTF8.self), maxCharacters: 500)
      throw Failure(message: "git config --global failed (exit \(result.status)): \(said)")
    }
    return result
  }
}
