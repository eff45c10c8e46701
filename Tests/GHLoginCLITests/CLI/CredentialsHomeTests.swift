import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// R86: the credentials live in the user's own directory whatever
/// `GHLOGIN_CONFIG` says; a file an earlier version left beside the config is named, never read.
@Suite struct CredentialsHomeTests {
  @Test func helpSaysWhereTheFilesAre() {
    let run = runCommand(["--help"])
    #expect(run.status == .success)
    #expect(
      run.stdout.contains(
        """
        Files:
          config       $GHLOGIN_CONFIG, else $XDG_CONFIG_HOME/ghlogin/config.json,
                       else ~/.config/ghlogin/config.json
          credentials  $GHLOGIN_CREDENTIALS, else $XDG_CONFIG_HOME/ghlogin/credentials.json,
                       else ~/.config/ghlogin/credentials.json (never beside GHLOGIN_CONFIG's file)
        """))
    #expect(runCommand(["help", "status"]).stdout.contains("never beside a config named by GHLOGIN_CONFIG"))
  }

  /// A credentials.json beside a custom config is not read (`token` says not logged in, exit 4),
  /// the note with the exact `mv` is printed once, and nothing is moved or created.
  @Test func formerFileBesideTheConfigIsNamedNotRead() throws {
    let (directory, former, written) = try FormerCredentials.make()
    let variables = ["HOME": directory.at("home"), "GHLOGIN_CONFIG": directory.at("team/ghlogin.json")]
    let run = runCommand(["token"], variables: variables)
    let current = directory.at("home") + "/.config/ghlogin/credentials.json"
    #expect(run.status == .notLoggedIn)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr
        == "ghlogin: note: \(former) is not used: credentials now live in your own directory, not beside "
        + "GHLOGIN_CONFIG (a config may be shared, a token must not be). ghlogin reads and writes \(current), "
        + "where there is none yet. To keep your logins, move the file:\n"
        + "  mkdir -p -m 700 \(directory.at("home"))/.config/ghlogin && mv \(former) \(current)\n"
        + "ghlogin: not logged in to github.com; run 'ghlogin auth'\n")
    #expect(readFile(former) == written, "left as it was")
    #expect((try? FileSystem.linkStatus(current)) == nil, "nothing created at the new place")
  }
}
