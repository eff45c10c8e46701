import Foundation
import GHLoginTestSupport
import Testing

/// The built binary as `docker-credential-ghlogin` (a link, argv[0] dispatch), `ghlogin goauth`
/// and `ghlogin setup-docker`: exact bytes on stdout, exit statuses, files left alone (R104, R105).
@Suite struct DockerCredentialEndToEndTests {
  static let token = "gho_E2Edocker0000000000000000000000000001"
  static let notFound = "credentials not found in native keychain\n"

  let home: TemporaryDirectory
  let helperLink: String

  init() throws {
    home = try TemporaryDirectory(prefix: "ghlogin-docker")
    for directory in [".config", ".config/ghlogin", "bin", ".docker"] {
      try FileManager.default.createDirectory(
        atPath: home.at(directory), withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }
    helperLink = home.at("bin/docker-credential-ghlogin")
    try FileManager.default.createSymbolicLink(
      atPath: helperLink, withDestinationPath: try HarnessPaths.ghloginBinary())
  }

  var credentialsFile: String { home.at(".config/ghlogin/credentials.json") }
  var dockerConfig: String { home.at(".docker/config.json") }

  func seed(scopes: [String] = ["repo", "read:packages"], token: String = Self.token) throws {
    try CredentialsFile.write(
      ["github.com": ("octocat", 1, token)], to: credentialsFile, scopes: scopes)
  }

  var environment: [String: String] {
    [
      "HOME": home.path, "XDG_CONFIG_HOME": home.at(".config"), "PATH": home.at("bin") + ":/usr/bin:/bin",
      "LANG": "C.UTF-8",
    ]
  }

  func helper(_ action: String, _ input: String) throws -> (status: Int32, stdout: String, stderr: String) {
    try ChildProcess(executable: helperLink, arguments: [action], environment: environment, stdin: input)
      .finish(timeout: 30)
  }

  func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  @Test func getThroughTheLinkAnswersExactly() throws {
    try seed()
    let run = try helper("get", "ghcr.io\n")
    #expect(run.status == 0)
    #expect(run.stdout == #"{"ServerURL":"ghcr.io","Username":"octocat","Secret":"\#(Self.token)"}"# + "\n")
    #expect(run.stderr == "")
  }

  @Test func hiddenSubcommandAnswersTheSame() throws {
    try seed()
    let run = try runGHLogin(["docker-credential", "get"], env: environment, stdin: "docker.pkg.github.com")
    #expect(run.status == 0)
    #expect(
      run.stdout == #"{"ServerURL":"docker.pkg.github.com","Username":"octocat","Secret":"\#(Self.token)"}"# + "\n")
  }

  @Test(arguments: ["ghcr.io.evil.test", "evilghcr.io", "ghcr.io@x", "https://ghcr.io:444", "docker.io"])
  func neverAnswersForAnotherRegistry(input: String) throws {
    try seed()
    let before = bytes(credentialsFile)
    let run = try helper("get", input + "\n")
    #expect(run.status == 1)
    #expect(run.stdout == Self.notFound)
    #expect(!run.stderr.contains(Self.token))
    #expect(bytes(credentialsFile) == before)
  }

  @Test func notLoggedInIsNotFoundWithTheFix() throws {
    let run = try helper("get", "ghcr.io\n")
    #expect(run.status == 1)
    #expect(run.stdout == Self.notFound)
    #expect(run.stderr.contains("ghlogin: run 'ghlogin auth --scopes repo,read:org,gist,read:packages'"))
  }

  @Test func storeEraseAndListNeverChangeOrLeakTheLogin() throws {
    try seed()
    let before = bytes(credentialsFile)
    let same = try helper("store", #"{"ServerURL":"ghcr.io","Username":"octocat","Secret":"\#(Self.token)"}"#)
    #expect(same.status == 0)
    let foreign = try helper("store", #"{"ServerURL":"ghcr.io","Username":"octocat","Secret":"ghp_FOREIGN"}"#)
    #expect(foreign.status == 1)
    #expect(!(foreign.stdout + foreign.stderr).contains("FOREIGN"))
    let erase = try helper("erase", "ghcr.io\n")
    #expect(erase.status == 0)
    #expect(erase.stdout == "")
    let list = try helper("list", "")
    #expect(list.stdout == #"{"ghcr.io":"octocat","docker.pkg.github.com":"octocat"}"# + "\n")
    #expect(bytes(credentialsFile) == before)
  }

  @Test func goauthAnswersOnlyWhenAsked() throws {
    try CredentialsFile.write(["127.0.0.1:8443": ("octocat", 1, Self.token)], to: credentialsFile)
    let first = try runGHLogin(["goauth"], env: environment)
    #expect(first.status == 0)
    #expect(first.stdout == "")
    let asked = try runGHLogin(
      ["goauth", "https://127.0.0.1:8443/mod/@v/list"], env: environment, stdin: "HTTP/1.1 401 Unauthorized\n\n")
    let basic = Data("octocat:\(Self.token)".utf8).base64EncodedString()
    #expect(asked.stdout == "https://127.0.0.1:8443/\n\nAuthorization: Basic \(basic)\n\n")
    for url in ["https://127.0.0.1:8444/x", "http://127.0.0.1:8443/x", "https://127.0.0.1:8443@evil.test/"] {
      let other = try runGHLogin(["goauth", url], env: environment)
      #expect(other.status == 0)
      #expect(other.stdout == "")
    }
  }

  // MARK: setup-docker

  @Test func setupDockerKeepsOtherKeysAndWritesNoToken() throws {
    try seed()
    try Data(
      #"{"auths": {"registry.example": {"auth": "eDp5"}}, "credHelpers": {"gcr.io": "gcloud"}, "psFormat": "table"}"#
        .utf8
    )
    .write(to: URL(fileURLWithPath: dockerConfig))
    let run = try runGHLogin(["setup-docker"], env: environment)
    #expect(run.status == 0)
    let written = try #require(bytes(dockerConfig))
    let object = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
    #expect(object["psFormat"] as? String == "table")
    #expect((object["auths"] as? [String: Any])?["registry.example"] != nil)
    #expect(
      object["credHelpers"] as? [String: String] == [
        "gcr.io": "gcloud", "ghcr.io": "ghlogin", "docker.pkg.github.com": "ghlogin",
      ])
    #expect(object["credsStore"] == nil)
    #expect(!String(decoding: written, as: UTF8.self).contains(Self.token))
    #expect(
      run.stderr.contains("Set ghlogin as the credential helper for ghcr.io, docker.pkg.github.com in \(dockerConfig).")
    )

    let unset = try runGHLogin(["setup-docker", "--unset"], env: environment)
    #expect(unset.status == 0)
    let afterBytes = try #require(bytes(dockerConfig))
    let after = try #require(try JSONSerialization.jsonObject(with: afterBytes) as? [String: Any])
    #expect(after["credHelpers"] as? [String: String] == ["gcr.io": "gcloud"])
    #expect(after["psFormat"] as? String == "table")
  }

  @Test func setupDockerKeepsASymlinkALink() throws {
    try seed()
    let target = home.at("dotfiles-docker.json")
    try Data("{}".utf8).write(to: URL(fileURLWithPath: target))
    try FileManager.default.createSymbolicLink(atPath: dockerConfig, withDestinationPath: target)
    let run = try runGHLogin(["setup-docker"], env: environment)
    #expect(run.status == 0)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dockerConfig) == target)
    let targetBytes = try #require(bytes(target))
    let object = try JSONSerialization.jsonObject(with: targetBytes) as? [String: Any]
    #expect((object?["credHelpers"] as? [String: String])?["ghcr.io"] == "ghlogin")
  }

  @Test func setupDockerWarnsAboutCopiesAndMissingScopes() throws {
    try seed(scopes: ["repo"])
    try Data(#"{"auths": {"https://ghcr.io": {"auth": "eDp5"}}}"#.utf8).write(to: URL(fileURLWithPath: dockerConfig))
    let runtime = home.at("run")
    try FileManager.default.createDirectory(atPath: runtime + "/containers", withIntermediateDirectories: true)
    try Data(#"{"auths": {"ghcr.io": {"auth": "eDp5"}}}"#.utf8).write(
      to: URL(fileURLWithPath: runtime + "/containers/auth.json"))
    var env = environment
    env["XDG_RUNTIME_DIR"] = runtime
    let run = try runGHLogin(["setup-docker"], env: env)
    #expect(run.status == 0)
    #expect(run.stderr.contains("hold a copy of a token for ghcr.io (from 'docker login')"))
    #expect(run.stderr.contains("\(runtime)/containers/auth.json holds credentials for ghcr.io"))
    #expect(
      run.stderr.contains("lacks read:packages, which registries need; run 'ghlogin auth --add-scopes read:packages'"))
    #expect(!run.stderr.contains(Self.token))
  }

  @Test func setupDockerWarnsAboutTokenKinds() throws {
    try seed(token: "github_pat_11AAAAAAA0000000000000000000000")
    let run = try runGHLogin(["setup-docker"], env: environment)
    #expect(run.stderr.contains("a fine-grained personal access token, which GitHub Packages may not accept"))
  }

  @Test func setupDockerRefusesAFileThatIsNotJSON() throws {
    try seed()
    try Data("not json".utf8).write(to: URL(fileURLWithPath: dockerConfig))
    let run = try runGHLogin(["setup-docker"], env: environment)
    #expect(run.status == 1)
    #expect(run.stderr.contains("is not a JSON object; nothing was changed"))
    #expect(bytes(dockerConfig) == Data("not json".utf8))
  }
}
