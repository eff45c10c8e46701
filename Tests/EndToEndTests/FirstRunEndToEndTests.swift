import Foundation
import GHLoginTestSupport
import Testing

/// Through the built binary: what a new user meets first (help that
/// says a client ID is needed, `help config`, `config get|set|unset|path`, the missing-client-ID
/// message, `GHLOGIN_CONFIG` naming a missing file) and gh's habits (`login`, `--hostname`,
/// `-s`, did-you-mean for commands). No network: nothing here gets that far.
@Suite struct FirstRunEndToEndTests {
  private let root: TemporaryDirectory
  var home: String { root.path }
  var configFile: String { home + "/.config/ghlogin/config.json" }

  init() throws { root = try TemporaryDirectory(prefix: "ghlogin-first") }

  /// The environment of a fresh account: only HOME and PATH.
  func env(_ extra: [String: String] = [:]) -> [String: String] {
    ["HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"].merging(extra) { $1 }
  }

  func run(_ args: [String], _ extra: [String: String] = [:], stdin: String? = nil) throws
    -> (status: Int32, stdout: String, stderr: String)
  {
    try runGHLogin(args, env: env(extra), stdin: stdin)
  }

  func config() -> String? { (try? String(contentsOfFile: configFile, encoding: .utf8)) }

  static let note = """
    Logging in needs an OAuth app's client ID, in the config file (~/.config/ghlogin/config.json;
    see 'ghlogin help config') or in GHLOGIN_CLIENT_ID. Set it with: ghlogin config set client_id ID

    """

  // MARK: - 1. first run

  @Test func rootAndAuthHelpSayAClientIDIsNeededAndWhereTheConfigLives() throws {
    let root = try run(["--help"])
    #expect(root.status == 0)
    #expect(root.stdout.contains("Usage: ghlogin <command> [options]\n\n" + Self.note + "\nCommands:\n"))
    let auth = try run(["auth", "--help"])
    #expect(auth.status == 0)
    #expect(auth.stdout.contains("Also run as: ghlogin login\n\n" + Self.note + "\nOpens GitHub's authorization page"))
  }

  @Test func helpConfigShowsThePathsAsResolvedNowEveryKeyAndVariable() throws {
    let result = try run(["help", "config"], ["XDG_CONFIG_HOME": home + "/xdg", "GHLOGIN_CREDENTIALS": "/srv/c.json"])
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(
      result.stdout.hasPrefix(
        "Configuration\n\nFiles (as resolved now):\n  config       \(home)/xdg/ghlogin/config.json\n"
          + "  credentials  /srv/c.json\n"))
    for key in [
      "client_id", "client_secret", "scopes", "host", "store", "ca_file", "authorize_url", "token_url",
      "device_code_url", "api_url", "hosts",
    ] {
      #expect(result.stdout.contains("\n  \(key) "), "key \(key)")
    }
    for variable in [
      "GHLOGIN_CONFIG", "GHLOGIN_CREDENTIALS", "GHLOGIN_CLIENT_ID", "GHLOGIN_CLIENT_SECRET", "GHLOGIN_USER",
      "GH_HOST", "https_proxy, HTTPS_PROXY", "no_proxy, NO_PROXY", "SSL_CERT_FILE, SSL_CERT_DIR",
    ] {
      #expect(result.stdout.contains("\n  \(variable) "), "variable \(variable)")
    }
    #expect(result.stdout.contains("Example:\n  {\n    \"client_id\": \"Ov23liEXAMPLE\",\n"))
    #expect(result.stdout.contains("\nUsage: ghlogin config [--host HOST] ACTION [KEY] [VALUE]\n"))
  }

  @Test func configSetGetUnsetAndPathEditTheFileAndKeepOtherKeys() throws {
    try FileManager.default.createDirectory(atPath: home + "/.config/ghlogin", withIntermediateDirectories: true)
    try Data(#"{"host": "github.com", "api_url": "https://api.github.com"}"#.utf8)
      .write(to: URL(fileURLWithPath: configFile))
    #expect(try run(["config", "path"]) == (0, configFile + "\n", ""))
    #expect(try run(["config", "set", "client_id", "Ov23liEXAMPLE"]) == (0, "", ""))
    #expect(try run(["config", "set", "scopes", "repo,read:org"]) == (0, "", ""))
    #expect(try run(["config", "set", "--hostname", "GHE.example.com", "client_id", "Ov23liENT"]) == (0, "", ""))
    #expect(
      config() == """
        {
          "host": "github.com",
          "api_url": "https://api.github.com",
          "client_id": "Ov23liEXAMPLE",
          "scopes": [
            "repo",
            "read:org"
          ],
          "hosts": {
            "ghe.example.com": {
              "client_id": "Ov23liENT"
            }
          }
        }

        """)
    let mode = try FileManager.default.attributesOfItem(atPath: configFile)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    #expect(try run(["config", "get", "scopes"]) == (0, "repo,read:org\n", ""))
    #expect(try run(["config", "get", "--host", "ghe.example.com", "client_id"]) == (0, "Ov23liENT\n", ""))
    #expect(
      try run(["config", "get", "ca_file"])
        == (1, "", "ca_file is not set; set it with: ghlogin config set ca_file VALUE\n"))
    #expect(try run(["config", "unset", "--host", "ghe.example.com", "client_id"]) == (0, "", ""))
    #expect(try run(["config", "unset", "scopes"]) == (0, "", ""))
    #expect(
      config() == """
        {
          "host": "github.com",
          "api_url": "https://api.github.com",
          "client_id": "Ov23liEXAMPLE"
        }

        """)
  }

  @Test func configSetRefusesWhatALoadRefusesAndWritesNothing() throws {
    #expect(try run(["config", "set", "client_id", "Ov23liEXAMPLE"]) == (0, "", ""))
    let before = config()
    let url = try run(["config", "set", "token_url", "http://github.example.com/token"])
    #expect(url.status == 2)
    #expect(url.stderr.hasPrefix("ghlogin: \(configFile): \"token_url\" uses http://; https is required except for "))
    let key = try run(["config", "set", "clinet_id", "x"])
    #expect(key.status == 2)
    #expect(
      key.stderr.hasPrefix(
        "ghlogin config: unknown key clinet_id; did you mean client_id? (the keys: client_id, client_secret, "))
    let spaced = try run(["config", "set", "client_id", "two words"])
    #expect(spaced.status == 2)
    #expect(
      spaced.stderr
        == "ghlogin: \(configFile): \"client_id\" must not be empty or contain spaces or control characters\n"
    )
    #expect(config() == before)
  }

  @Test func theClientSecretComesFromStdinNeverFromArgvAndIsNeverPrinted() throws {
    let secret = "s3cr3t-0123456789abcdef"
    let argv = try run(["config", "set", "client_secret", secret])
    #expect(argv.status == 2)
    #expect(
      argv.stderr
        == "ghlogin config: refusing to take client_secret from the command line (ps and shell history see it); "
        + "nothing was written. Run: ghlogin config set client_secret -\n"
        + "Usage: ghlogin config [--host HOST] ACTION [KEY] [VALUE]\nRun 'ghlogin config --help' for more.\n")
    #expect(config() == nil)
    #expect(
      try run(["config", "set", "client_secret", "-"], stdin: secret + "\n")
        == (0, "", "client_secret written to \(configFile)\n"))
    #expect(config() == "{\n  \"client_secret\": \"\(secret)\"\n}\n")
    let get = try run(["config", "get", "client_secret"])
    #expect(get == (0, "", "client_secret is set in \(configFile) (never printed)\n"))
    let empty = try run(["config", "set", "client_id", "-"], stdin: "")
    #expect(empty.status == 2)
    #expect(empty.stderr.hasPrefix("ghlogin config: no value was given on stdin; nothing was written\n"))
    for output in [argv.stdout, argv.stderr, get.stdout, get.stderr] { #expect(!output.contains(secret)) }
  }

  @Test func theMissingClientIDMessageGivesTheLinesToRun() throws {
    let result = try run(["auth", "--host", "ghe.example.com"])
    #expect(result.status == 2)
    #expect(
      result.stderr == """
        ghlogin: no OAuth client_id is configured for ghe.example.com.
        Register an OAuth app at https://ghe.example.com/settings/applications/new with the callback URL
        http://127.0.0.1/callback. The browser flow also needs the app's client secret; the device flow
        needs "Enable Device Flow" ticked in the app's settings. Then run:
          ghlogin config set --host ghe.example.com client_id YOUR_CLIENT_ID
          ghlogin config set --host ghe.example.com client_secret -
        (the second reads the secret from stdin). They are written to \(configFile).
        GHLOGIN_CLIENT_ID and GHLOGIN_CLIENT_SECRET work too. More: ghlogin help config

        """)
  }

  @Test func aConfigNamedByGHLOGIN_CONFIGMustExist() throws {
    let named = home + "/elsewhere.json"
    for args in [["token"], ["auth"], ["status"]] {
      let result = try run(args, ["GHLOGIN_CONFIG": named])
      #expect(result.status == 2, "\(args)")
      #expect(result.stdout == "")
      #expect(
        result.stderr == "ghlogin: GHLOGIN_CONFIG names \(named), which does not exist; create it with "
          + "'ghlogin config set client_id YOUR_CLIENT_ID', or unset GHLOGIN_CONFIG\n")
    }
    #expect(!FileManager.default.fileExists(atPath: named))
    #expect(!FileManager.default.fileExists(atPath: home + "/.config"))
    // The hint works as printed.
    #expect(try run(["config", "set", "client_id", "Ov23liEXAMPLE"], ["GHLOGIN_CONFIG": named]) == (0, "", ""))
    #expect(FileManager.default.fileExists(atPath: named))
  }

  // MARK: - 3. gh's habits

  @Test func loginIsAuthHostnameIsHostAndTyposGetTheNearestCommand() throws {
    let auth = try run(["auth", "--help"])
    #expect(try run(["login", "--help"]) == auth)
    #expect(auth.stdout.contains("  -s, --scopes LIST "))
    #expect(auth.stdout.contains("  -h, --host, --hostname HOST "))
    #expect(
      try run(["token", "--hostname", "ghe.example.com"])
        == (4, "", "ghlogin: not logged in to ghe.example.com; run 'ghlogin auth --host ghe.example.com'\n"))
    #expect(
      try run(["atuh"])
        == (
          2, "",
          "ghlogin: unknown command 'atuh'; did you mean `auth`?\nUsage: ghlogin <command> [options]\n"
            + "Run 'ghlogin --help' to see the commands.\n"
        ))
    #expect(try run(["lgoin"]).stderr.hasPrefix("ghlogin: unknown command 'lgoin'; did you mean `login`?\n"))
    // -s reaches the scopes check: a bad list is refused before any config is read.
    let scopes = try run(["login", "-s", "repo,\u{7}x"])
    #expect(scopes.status == 2)
    #expect(
      scopes.stderr.hasPrefix(
        "ghlogin auth: --scopes takes names like repo,read:org without spaces or control characters\n"))
  }
}
